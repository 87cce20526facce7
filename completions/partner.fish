# Shell completion for partner (fish).
# Generated from the command tree by scripts/gen-completions.mjs (npm run completions); do not edit.
#
# Load it in the current shell:   partner completion fish | source
# or install it:   partner completion fish > ~/.config/fish/completions/partner.fish

# Subcommands of a command path.
function __partner_subcommands
    switch $argv[1]
        case ''
            printf '%s\n' 'employees' 'trackers' 'profile' 'gp' 'dynamic-details' 'webhook' 'api' 'mcp' 'auth' 'doctor' 'sandbox' 'completion' 'version' 'help'
        case 'employees'
            printf '%s\n' 'list'
        case 'trackers'
            printf '%s\n' 'onboarding' 'offboarding'
        case 'profile'
            printf '%s\n' 'get'
        case 'gp'
            printf '%s\n' 'create' 'schema' 'template'
        case 'dynamic-details'
            printf '%s\n' 'submit'
        case 'webhook'
            printf '%s\n' 'verify' 'listen' 'replay'
        case 'auth'
            printf '%s\n' 'login' 'status' 'switch' 'logout'
        case 'sandbox'
            printf '%s\n' 'start' 'emit'
    end
end

# Flags of a command path that take a value (global ones appended).
function __partner_value_flags
    switch $argv[1]
        case 'employees list'
            printf '%s\n' '--page' '--page-size' '--status' '--employee-id' '--employee-code' '--sort-by' '--sort-order' '--search' '--limit' '--concurrency' '--output-file' '-o' '--output' '--fields' '--jq'
        case 'trackers onboarding'
            printf '%s\n' '--employee-id' '--employee-code' '-o' '--output' '--fields' '--jq'
        case 'trackers offboarding'
            printf '%s\n' '--employee-id' '--employee-code' '-o' '--output' '--fields' '--jq'
        case 'profile get'
            printf '%s\n' '--from-file' '--concurrency' '-o' '--output' '--fields' '--jq'
        case 'gp create'
            printf '%s\n' '--entity' '--from-file' '--set' '--body-file' '--from-csv' '--results' '--concurrency' '--encoding' '-o' '--output' '--fields' '--jq'
        case 'gp schema'
            printf '%s\n' '--entity' '-o' '--output' '--jq'
        case 'gp template'
            printf '%s\n' '--entity' '-o' '--output' '--jq'
        case 'dynamic-details submit'
            printf '%s\n' '--from-file' '--set' '--body-file'
        case 'webhook verify'
            printf '%s\n' '--file' '--jwks-url' '--jwks-file' '-o' '--output' '--fields' '--jq'
        case 'webhook listen'
            printf '%s\n' '--port' '--host' '--path' '--forward-to' '--events' '--forward-timeout' '--spool' '--forward-concurrency' '--max-age' '--jwks-url' '--jwks-file' '-o' '--output' '--fields' '--jq'
        case 'webhook replay'
            printf '%s\n' '--spool' '--since' '--event-type' '--to' '-o' '--output' '--fields' '--jq'
        case 'api'
            printf '%s\n' '-X' '--method' '-f' '--raw-field' '-F' '--field' '--input' '-H' '--header' '-o' '--output' '--fields' '--jq'
        case 'auth status'
            printf '%s\n' '-o' '--output' '--fields' '--jq'
        case 'doctor'
            printf '%s\n' '--spool' '-o' '--output' '--fields' '--jq'
        case 'sandbox start'
            printf '%s\n' '--port' '--host' '--employees' '--seed' '--latency-ms' '--fail-rate' '--reset-rate' '--html502-rate' '--drift-rate' '--webhook-url'
        case 'sandbox emit'
            printf '%s\n' '--to' '--data' '-o' '--output' '--jq'
        case 'version'
            printf '%s\n' '-o' '--output' '--jq'
        case 'help'
            printf '%s\n' '-o' '--output' '--jq'
    end
    printf '%s\n' '--profile' '--base-url' '--timeout'
end

# "positional-count|command path" of the command line before the cursor.
function __partner_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ''
    set -l nargs 0
    set -l expect 0
    for t in $tokens
        if test $expect = 1
            set expect 0
            continue
        end
        switch $t
            case '--*=*'
            case '-*'
                if contains -- $t (__partner_value_flags "$cmdpath")
                    set expect 1
                end
            case '*'
                if test $nargs = 0; and contains -- $t (__partner_subcommands "$cmdpath")
                    set cmdpath (string trim -- "$cmdpath $t")
                    continue
                end
                set nargs (math $nargs + 1)
        end
    end
    echo "$nargs|$cmdpath"
end

# True when the cursor is inside the command path $argv[1].
function __partner_in
    set -l state (string split -m 1 '|' -- (__partner_state))
    test "$state[2]" = "$argv[1]"
end

# True when the cursor is on positional argument $argv[2] of command path $argv[1].
function __partner_arg
    test (__partner_state) = "$argv[2]|$argv[1]"
end

# True when the cursor is on positional argument $argv[2] or later of command path $argv[1].
function __partner_arg_from
    set -l state (string split -m 1 '|' -- (__partner_state))
    test "$state[2]" = "$argv[1]"; and test "$state[1]" -ge "$argv[2]"
end

# Profile names only (never tokens), from the config of this user.
function __partner_profiles
    set -l cmd (commandline -opc)[1]
    $cmd __complete profiles 2>/dev/null
end

function __partner_list_0
    printf '%s\n' 'id' 'employeeCode' 'employeeId' 'firstName' 'middleName' 'lastName' 'fullName' 'displayName' 'workEmail' 'designation' 'department' 'status' 'type' 'startDate' 'endDate' 'country' 'customerId' 'customerName' 'entity'
end

function __partner_list_1
    printf '%s\n' 'EMPLOYEE_CREATED' 'EMPLOYEE_ACTIVATED' 'EMPLOYEE_UPDATED' 'EMPLOYEE_DEACTIVATED' 'EMPLOYEE_DELETED' 'CONTRACT_CREATED' 'CONTRACT_ACTIVATED' 'APPROVAL_REQUEST_CREATED' 'APPROVAL_REQUEST_APPROVED' 'APPROVAL_REQUEST_REJECTED'
end

complete -c partner -f
complete -c partner -n '__partner_arg \'\' 0' -a 'employees' -d 'search and export the employees of your company'
complete -c partner -n '__partner_arg \'\' 0' -a 'trackers' -d 'onboarding and offboarding stages of your employees'
complete -c partner -n '__partner_arg \'\' 0' -a 'profile' -d 'read employees\' profile sections (personal, bank, employment …)'
complete -c partner -n '__partner_arg \'\' 0' -a 'gp' -d 'onboard Global Payroll (GP) employees from the server\'s form schema'
complete -c partner -n '__partner_arg \'\' 0' -a 'dynamic-details' -d 'submit the dynamic sections of a GP employee\'s form (legal details, custom fields)'
complete -c partner -n '__partner_arg \'\' 0' -a 'webhook' -d 'verify signed webhook events (ES512 JWS) and receive them locally'
complete -c partner -n '__partner_arg \'\' 0' -a 'api' -d 'send an authenticated request to any path of the API (for endpoints partner does not wrap)'
complete -c partner -n '__partner_arg \'\' 0' -a 'mcp' -d 'serve partner to AI assistants and agents over the Model Context Protocol (stdio)'
complete -c partner -n '__partner_arg \'\' 0' -a 'auth' -d 'log in, check and log out: saved profiles with their token'
complete -c partner -n '__partner_arg \'\' 0' -a 'doctor' -d 'check your set-up: Node.js, config file, profile, token, webhook keys, clock, proxy'
complete -c partner -n '__partner_arg \'\' 0' -a 'sandbox' -d 'the embedded mock of the whole API, for demos, tests and integration work'
complete -c partner -n '__partner_arg \'\' 0' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c partner -n '__partner_arg \'\' 0' -a 'version' -d 'print the version of partner, Node.js and the platform'
complete -c partner -n '__partner_arg \'\' 0' -a 'help' -d 'show the help of a command, e.g. `partner help employees list`; -o json: the command tree as one JSON document (answered in help-entry.ts unless --jq is given)'
complete -c partner -n '__partner_in \'\'' -s V -l version -d 'print the version'
complete -c partner -n '__partner_arg \'employees\' 0' -a 'list' -d 'list employees, one page or every page (--all)'
complete -c partner -n '__partner_in \'employees list\'' -l page -x -d 'page number, 1 or more (default 1)'
complete -c partner -n '__partner_in \'employees list\'' -l page-size -x -d 'employees per page, 1 to 100 (default 20; 100 with --all)'
complete -c partner -n '__partner_in \'employees list\'' -l status -x -a 'ONBOARDING ACTIVE OFFBOARDING ENDED DELETED' -d 'only employees with this status (default: all)'
complete -c partner -n '__partner_in \'employees list\'' -l employee-id -x -d 'exact employee id (wins over --employee-code)'
complete -c partner -n '__partner_in \'employees list\'' -l employee-code -x -d 'exact employee code'
complete -c partner -n '__partner_in \'employees list\'' -l sort-by -x -a 'startOn' -d 'sort field (default: the server\'s order)'
complete -c partner -n '__partner_in \'employees list\'' -l sort-order -x -a 'ASC DESC' -d 'sort direction (default: the server\'s)'
complete -c partner -n '__partner_in \'employees list\'' -l all -d 'walk every page and print all employees'
complete -c partner -n '__partner_in \'employees list\'' -l search -x -d 'only employees whose name, display name, work email or code contains this text (case and accents ignored); searches every page, on the client'
complete -c partner -n '__partner_in \'employees list\'' -l limit -x -d 'stop after this many employees (default: no limit)'
complete -c partner -n '__partner_in \'employees list\'' -l concurrency -x -d 'pages fetched at once with --all, 1 to 32 (default 8)'
complete -c partner -n '__partner_in \'employees list\'' -l no-progress -d 'no progress bar on stderr with --all'
complete -c partner -n '__partner_in \'employees list\'' -l allow-drift -d 'with --all: keep what was seen when the company changed during the export or its pages did not add up (exit 0 with a warning; default: exit 1)'
complete -c partner -n '__partner_in \'employees list\'' -l output-file -r -F -d 'write to this file instead of stdout, atomically: replaced only when complete (new files are 0600)'
complete -c partner -n '__partner_in \'employees list\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'employees list\'' -l fields -x -a '(__fish_complete_list , __partner_list_0)' -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, employeeCode, employeeId, firstName, middleName, lastName, fullName, displayName, workEmail, designation, department, status, type, startDate, endDate, country, customerId, customerName, entity)'
complete -c partner -n '__partner_in \'employees list\'' -s q -l quiet -d 'print only ids, one per line'
complete -c partner -n '__partner_in \'employees list\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'employees list\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'employees list\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_arg \'trackers\' 0' -a 'onboarding' -d 'the onboarding stage of each employee currently onboarding'
complete -c partner -n '__partner_arg \'trackers\' 0' -a 'offboarding' -d 'the offboarding stage and pending documents of each employee currently offboarding'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l employee-id -x -d 'only this employee id'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l employee-code -x -d 'only this employee code (with --employee-id: both must match)'
complete -c partner -n '__partner_in \'trackers onboarding\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, employeeCode, stage)'
complete -c partner -n '__partner_in \'trackers onboarding\'' -s q -l quiet -d 'print only ids, one per line'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'trackers onboarding\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l employee-id -x -d 'only this employee id'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l employee-code -x -d 'only this employee code (with --employee-id: both must match)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, employeeCode, stage, pendingDocuments)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -s q -l quiet -d 'print only ids, one per line'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'trackers offboarding\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_arg \'profile\' 0' -a 'get' -d 'show the profile of one or more employees, every section or the ones named'
complete -c partner -n '__partner_in \'profile get\'' -l from-file -r -F -d 'read employee ids or codes from a file, one per line ("-" for stdin; blank lines and # comments skipped)'
complete -c partner -n '__partner_in \'profile get\'' -l concurrency -x -d 'employees fetched at once, 1 to 16 (default 4); the sections of each are fetched in parallel'
complete -c partner -n '__partner_in \'profile get\'' -l reveal -d 'show the full bank account number in the table (masked to its last 4 characters otherwise)'
complete -c partner -n '__partner_in \'profile get\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'profile get\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, personal, contact, address, bank, education, employment, compensation)'
complete -c partner -n '__partner_in \'profile get\'' -s q -l quiet -d 'print only ids, one per line'
complete -c partner -n '__partner_in \'profile get\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'profile get\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'profile get\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_arg_from \'profile get\' 1' -x -a 'personal contact address bank education employment compensation'
complete -c partner -n '__partner_arg \'gp\' 0' -a 'create' -d 'create a GP employee: an interactive wizard built from the entity\'s form, or values from a file / --set'
complete -c partner -n '__partner_arg \'gp\' 0' -a 'schema' -d 'show the form of a legal entity: its sections and fields (table) or the schema itself (-o json)'
complete -c partner -n '__partner_arg \'gp\' 0' -a 'template' -d 'write a CSV template for bulk onboarding: a header of every field (dot paths) and a "#" row describing each'
complete -c partner -n '__partner_in \'gp create\'' -l entity -x -d 'legal entity the employee is hired by (asked on a terminal when missing)'
complete -c partner -n '__partner_in \'gp create\'' -l from-file -r -F -d 'JSON values shaped like the schema, sections nested ("-" reads stdin); no prompts'
complete -c partner -n '__partner_in \'gp create\'' -l set -x -d 'one value, typed by the schema; no prompts'
complete -c partner -n '__partner_in \'gp create\'' -l dry-run -d 'validate and print both request bodies (JSON) without sending'
complete -c partner -n '__partner_in \'gp create\'' -l resume -d 'continue from the saved draft of this entity'
complete -c partner -n '__partner_in \'gp create\'' -l body-file -r -F -d 'send this hand-written POST body (JSON, "-" reads stdin) as it is, after showing it; for any server'
complete -c partner -n '__partner_in \'gp create\'' -l yes -d 'with --body-file: send without asking'
complete -c partner -n '__partner_in \'gp create\'' -l reveal -d 'show the values of secret fields (tax ids, account numbers…) in the dry run and the body shown, instead of ********'
complete -c partner -n '__partner_in \'gp create\'' -l from-csv -x -d 'bulk onboarding: one employee per row of this CSV (header: field paths, as `gp template` writes it; "-" reads stdin, with --results); every row is checked first'
complete -c partner -n '__partner_in \'gp create\'' -l skip-invalid -d 'with --from-csv: create the valid rows even when some rows are invalid'
complete -c partner -n '__partner_in \'gp create\'' -l results -x -d 'with --from-csv: the results CSV (default: NAME.results.csv beside NAME.csv); its journal is PATH.journal'
complete -c partner -n '__partner_in \'gp create\'' -l concurrency -x -d 'with --from-csv: rows created at once, 1 to 16 (default 4); fewer while the server answers 429/503'
complete -c partner -n '__partner_in \'gp create\'' -l encoding -x -a 'utf-8 windows-1252 latin1' -d 'with --from-csv: how the file is encoded (default utf-8; a spreadsheet saved by Excel on Windows in Western Europe: windows-1252)'
complete -c partner -n '__partner_in \'gp create\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'gp create\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, employeeCode, employeeId, firstName, middleName, lastName, fullName, displayName, workEmail, designation, department, status, type, startDate, endDate, country, customerId, customerName, entity, onboardingStage, submittedSections, createdAt, create, dynamicDetails)'
complete -c partner -n '__partner_in \'gp create\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'gp schema\'' -l entity -x -d 'legal entity name (required)'
complete -c partner -n '__partner_in \'gp schema\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'gp schema\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'gp template\'' -l entity -x -d 'legal entity name (required)'
complete -c partner -n '__partner_in \'gp template\'' -s o -l output -x -a 'csv json' -d 'output format: csv, json (default: csv)'
complete -c partner -n '__partner_in \'gp template\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'gp template\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'gp template\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_arg \'dynamic-details\' 0' -a 'submit' -d 'ask (or take from a file / --set) the dynamic sections of the employee\'s form and PATCH them'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l from-file -r -F -d 'JSON values of the dynamic sections, nested by section ("-" reads stdin); no prompts'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l set -x -d 'one value, typed by the schema; no prompts'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l resume -d 'continue from the saved draft of this employee (kept when a submit failed)'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l dry-run -d 'validate and print the request body (JSON) without sending'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l body-file -r -F -d 'send this hand-written PATCH body (JSON, "-" reads stdin) as it is, after showing it; for any server'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l yes -d 'with --body-file: send without asking'
complete -c partner -n '__partner_in \'dynamic-details submit\'' -l reveal -d 'show the values of secret fields (tax ids, account numbers…) in the dry run and the body shown, instead of ********'
complete -c partner -n '__partner_arg \'webhook\' 0' -a 'verify' -d 'verify one webhook JWS (argument, stdin or a paste), or a file of them (one per line)'
complete -c partner -n '__partner_arg \'webhook\' 0' -a 'listen' -d 'run a local receiver that verifies every POSTed webhook and can forward it to your app'
complete -c partner -n '__partner_arg \'webhook\' 0' -a 'replay' -d 're-deliver events kept by `webhook listen --spool`, in arrival order'
complete -c partner -n '__partner_in \'webhook verify\'' -l file -r -F -d 'verify every JWS in this file, one per line, and print a summary'
complete -c partner -n '__partner_in \'webhook verify\'' -l jwks-url -x -d 'fetch the key set here (default: <base URL>/v1/partner/.well-known/jwks.json of the active profile)'
complete -c partner -n '__partner_in \'webhook verify\'' -l jwks-file -r -F -d 'use this saved key set (offline; never refetched)'
complete -c partner -n '__partner_in \'webhook verify\'' -l no-cache -d 'do not use or write the on-disk key-set cache (otherwise reused for at most 1 hour)'
complete -c partner -n '__partner_in \'webhook verify\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'webhook verify\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: line, valid, reason, message, signatureValid, kid, alg, header, eventType, meaning, timestamp, subject, status, payload, warnings, errors, normalized)'
complete -c partner -n '__partner_in \'webhook verify\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'webhook verify\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'webhook verify\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_in \'webhook listen\'' -l port -x -d 'port to listen on (default: any free port, printed at start)'
complete -c partner -n '__partner_in \'webhook listen\'' -l host -x -d 'address to bind (default 127.0.0.1)'
complete -c partner -n '__partner_in \'webhook listen\'' -l path -x -d 'URL path webhooks are POSTed to (default /)'
complete -c partner -n '__partner_in \'webhook listen\'' -l forward-to -x -d 'POST each valid event, decoded, as JSON to this URL and print its status'
complete -c partner -n '__partner_in \'webhook listen\'' -l events -x -a '(__fish_complete_list , __partner_list_1)' -d 'comma-separated event types to report and forward (default: all; others are acknowledged and ignored)'
complete -c partner -n '__partner_in \'webhook listen\'' -l forward-timeout -x -d 'total time limit of one forward, like 5s or 500ms (default: 5s)'
complete -c partner -n '__partner_in \'webhook listen\'' -l spool -x -d 'keep every verified event in this directory (append-only, fsync\'d journal, mode 0700) before acknowledging it; forward from there with retries'
complete -c partner -n '__partner_in \'webhook listen\'' -l forward-concurrency -x -d 'with --spool: forwards in flight at most (default 16); events about one employee still go one at a time, in order'
complete -c partner -n '__partner_in \'webhook listen\'' -l max-age -x -d 'refuse events whose timestamp is older than this, like 10m (replay protection; default: off)'
complete -c partner -n '__partner_in \'webhook listen\'' -l jwks-url -x -d 'fetch the key set here (default: <base URL>/v1/partner/.well-known/jwks.json of the active profile)'
complete -c partner -n '__partner_in \'webhook listen\'' -l jwks-file -r -F -d 'use this saved key set (offline; never refetched)'
complete -c partner -n '__partner_in \'webhook listen\'' -l no-cache -d 'do not use or write the on-disk key-set cache (otherwise reused for at most 1 hour)'
complete -c partner -n '__partner_in \'webhook listen\'' -s o -l output -x -a 'table ndjson' -d 'output format: table, ndjson (default: table on a terminal, ndjson when piped)'
complete -c partner -n '__partner_in \'webhook listen\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: time, httpStatus, valid, reason, message, signatureValid, kid, alg, header, eventType, meaning, timestamp, subject, status, payload, warnings, errors, normalized, forward, spooled, problem, delivery)'
complete -c partner -n '__partner_in \'webhook listen\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'webhook replay\'' -l spool -x -d 'the spool directory of `webhook listen --spool` (required)'
complete -c partner -n '__partner_in \'webhook replay\'' -l since -x -d 'only events received since this ISO 8601 time, or this long ago (like 2h)'
complete -c partner -n '__partner_in \'webhook replay\'' -l event-type -x -d 'only these comma-separated event types'
complete -c partner -n '__partner_in \'webhook replay\'' -l to -x -d 'POST them here (default: the --forward-to each was received with)'
complete -c partner -n '__partner_in \'webhook replay\'' -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'webhook replay\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: id, receivedAt, eventType, to, status, error, delivered)'
complete -c partner -n '__partner_in \'webhook replay\'' -s q -l quiet -d 'print only ids, one per line'
complete -c partner -n '__partner_in \'webhook replay\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'webhook replay\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'webhook replay\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_in \'api\'' -s X -l method -x -a 'GET POST PUT PATCH DELETE' -d 'the HTTP method (default GET; POST with --input)'
complete -c partner -n '__partner_in \'api\'' -s f -l raw-field -x -d 'a string parameter key=value (query string for GET and DELETE, JSON body otherwise); repeatable'
complete -c partner -n '__partner_in \'api\'' -s F -l field -x -d 'a typed parameter: numbers, true, false and null as JSON, @file for a file\'s text (@- for stdin); repeatable'
complete -c partner -n '__partner_in \'api\'' -l input -x -d 'the JSON request body from this file (- for stdin); -f/-F then go to the query string'
complete -c partner -n '__partner_in \'api\'' -s H -l header -x -d 'an extra request header \'Name: value\' (Authorization cannot be replaced); repeatable'
complete -c partner -n '__partner_in \'api\'' -s i -l include -d 'print the status line and the response headers before the body'
complete -c partner -n '__partner_in \'api\'' -l paginate -d 'walk every page of a paginated list ({data, pagination}) and print one document {data: [all], pagination}'
complete -c partner -n '__partner_in \'api\'' -l allow-drift -d 'with --paginate: keep what was seen when the list changed during the walk or its pages did not add up (exit 0 with a warning; default: exit 1)'
complete -c partner -n '__partner_in \'api\'' -s o -l output -x -a 'json ndjson csv' -d 'output format: json, ndjson, csv (default: json)'
complete -c partner -n '__partner_in \'api\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order'
complete -c partner -n '__partner_in \'api\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'api\'' -l csv-raw -d 'keep CSV cells that start with = + - @ as they are (no formula protection)'
complete -c partner -n '__partner_in \'api\'' -l bom -d 'start CSV output with a UTF-8 byte order mark, for Excel on Windows (CSV only; not on a terminal)'
complete -c partner -n '__partner_in \'mcp\'' -l allow-write -d 'offer the write tools (create_gp_employee, submit_dynamic_details); each validates against the server\'s form and sends only when the call says confirm: true'
complete -c partner -n '__partner_in \'mcp\'' -l reveal -d 'show bank account numbers and IBANs in full in profile results (default: masked to the last 4 characters), and secret form values in the bodies a write tool returns (default: ********)'
complete -c partner -n '__partner_arg \'auth\' 0' -a 'login' -d 'save a base URL and token as a profile (token from a hidden prompt, or stdin)'
complete -c partner -n '__partner_arg \'auth\' 0' -a 'status' -d 'list the saved profiles (the active one marked), where the token comes from, and check it'
complete -c partner -n '__partner_arg \'auth\' 0' -a 'switch' -d 'make a saved profile the active one'
complete -c partner -n '__partner_arg \'auth\' 0' -a 'logout' -d 'forget the saved token of a profile'
complete -c partner -n '__partner_in \'auth login\'' -l with-token -d 'read the token from stdin instead of prompting'
complete -c partner -n '__partner_in \'auth login\'' -l no-verify -d 'save without checking the token against the API'
complete -c partner -n '__partner_in \'auth status\'' -l all -d 'check the token of every saved profile, not only the active one'
complete -c partner -n '__partner_in \'auth status\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'auth status\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: profile, profileSource, baseUrl, baseUrlSource, token, tokenSource, check, company, profiles)'
complete -c partner -n '__partner_in \'auth status\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_arg \'auth switch\' 0' -x -a '(__partner_profiles)'
complete -c partner -n '__partner_in \'doctor\'' -l spool -x -d 'also check this `webhook listen --spool` directory: events, undelivered ones, journal lines that could not be read'
complete -c partner -n '__partner_in \'doctor\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'doctor\'' -l fields -x -d 'comma-separated fields or dot paths to show, in order (the fields of each record: ok, exitCode, checks)'
complete -c partner -n '__partner_in \'doctor\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_arg \'sandbox\' 0' -a 'start' -d 'serve the sandbox API on loopback in the foreground until Ctrl-C'
complete -c partner -n '__partner_arg \'sandbox\' 0' -a 'emit' -d 'send a signed webhook event of any type of the spec to a URL, signed by a running sandbox'
complete -c partner -n '__partner_in \'sandbox start\'' -l port -x -d 'port to listen on (default: any free port)'
complete -c partner -n '__partner_in \'sandbox start\'' -l host -x -d 'loopback address to bind (default 127.0.0.1)'
complete -c partner -n '__partner_in \'sandbox start\'' -l employees -x -d 'employees of the first company (default 45)'
complete -c partner -n '__partner_in \'sandbox start\'' -l seed -x -d 'seed of the generated data (default 1)'
complete -c partner -n '__partner_in \'sandbox start\'' -l latency-ms -x -d 'delay added to every response (default 0)'
complete -c partner -n '__partner_in \'sandbox start\'' -l fail-rate -x -d 'share of requests answered 503 with Retry-After, 0 to 1 (default 0)'
complete -c partner -n '__partner_in \'sandbox start\'' -l reset-rate -x -d 'share of requests whose connection is dropped, 0 to 1 (default 0)'
complete -c partner -n '__partner_in \'sandbox start\'' -l html502-rate -x -d 'share of requests answered with a proxy-style HTML 502, 0 to 1 (default 0)'
complete -c partner -n '__partner_in \'sandbox start\'' -l drift-rate -x -d 'share of employee-list requests before which an employee is created or ended, 0 to 1 (default 0): the company moves under an export'
complete -c partner -n '__partner_in \'sandbox start\'' -l webhook-url -x -d 'POST signed events here when employees are created or updated (default: none)'
complete -c partner -n '__partner_in \'sandbox emit\'' -l to -x -d 'POST the signed JWS here (for example `partner webhook listen`)'
complete -c partner -n '__partner_in \'sandbox emit\'' -l print -d 'print the signed JWS on stdout'
complete -c partner -n '__partner_in \'sandbox emit\'' -l legacy -d 'use the earlier published shape (employeeId for employeeCode; id for contractId)'
complete -c partner -n '__partner_in \'sandbox emit\'' -l data -x -d 'JSON object merged over the generated data, e.g. \'{"updateType":"BANK_DETAILS"}\''
complete -c partner -n '__partner_in \'sandbox emit\'' -l rotate-key -d 'make the sandbox rotate to a new signing key first (the old one stays published)'
complete -c partner -n '__partner_in \'sandbox emit\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'sandbox emit\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_arg \'sandbox emit\' 0' -x -a 'EMPLOYEE_CREATED EMPLOYEE_ACTIVATED EMPLOYEE_UPDATED EMPLOYEE_DEACTIVATED EMPLOYEE_DELETED CONTRACT_CREATED CONTRACT_ACTIVATED APPROVAL_REQUEST_CREATED APPROVAL_REQUEST_APPROVED APPROVAL_REQUEST_REJECTED'
complete -c partner -n '__partner_arg \'completion\' 0' -x -a 'bash zsh fish'
complete -c partner -n '__partner_in \'version\'' -s o -l output -x -a 'table json' -d 'output format: table, json (default: table on a terminal, json when piped)'
complete -c partner -n '__partner_in \'version\'' -l jq -x -d 'filter the JSON result with jq (built in); one result per line, strings unquoted; holds the whole result in memory (at most 64 MiB: for a large export use -o ndjson | jq)'
complete -c partner -n '__partner_in \'help\'' -s o -l output -x -d 'json: the command tree as one JSON document'
complete -c partner -n '__partner_in \'help\'' -l jq -x -d 'filter the JSON document with jq (built in)'
complete -c partner -n '__partner_arg \'help\' 0' -x -a 'employees trackers profile gp dynamic-details webhook api mcp auth doctor sandbox completion version help'
complete -c partner -l profile -x -a '(__partner_profiles)' -d 'use this saved profile (env PARTNER_PROFILE)'
complete -c partner -l base-url -x -d 'API base URL (env PARTNER_BASE_URL); https only, except loopback'
complete -c partner -l sandbox -d 'run against the embedded sandbox (no account needed)'
complete -c partner -l debug -d 'log requests and responses to stderr, token redacted (also PARTNER_DEBUG=1)'
complete -c partner -l timeout -x -d 'time limit per request, in seconds (default 30)'
complete -c partner -l no-color -d 'no colour in output (also NO_COLOR)'
complete -c partner -l no-input -d 'never prompt; fail instead, naming the flag to use'
complete -c partner -s h -l help -d 'display help for command'
