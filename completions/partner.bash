# Shell completion for partner (bash).
# Generated from the command tree by scripts/gen-completions.mjs (npm run completions); do not edit.
#
# Load it in the current shell:   source <(partner completion bash)
# or install it for bash-completion:
#   partner completion bash > ~/.local/share/bash-completion/completions/partner

# Subcommands of a command path.
_partner_subcommands() {
  case $1 in
    '') _partner_r='employees trackers profile gp dynamic-details drafts webhook api mcp auth audit doctor sandbox completion version help' ;;
    'employees') _partner_r='list' ;;
    'trackers') _partner_r='onboarding offboarding' ;;
    'profile') _partner_r='get' ;;
    'gp') _partner_r='create schema template' ;;
    'dynamic-details') _partner_r='submit' ;;
    'drafts') _partner_r='list discard' ;;
    'webhook') _partner_r='verify listen replay' ;;
    'auth') _partner_r='login status token switch logout' ;;
    'audit') _partner_r='list' ;;
    'sandbox') _partner_r='start emit' ;;
    *) _partner_r='' ;;
  esac
}

# Flags of a command path (global flags appended).
_partner_flags() {
  case $1 in
    '') _partner_r='-V --version' ;;
    'employees list') _partner_r='--page --page-size --status --employee-id --employee-code --sort-by --sort-order --all --search --limit --concurrency --no-progress --allow-drift --output-file --changes-since --state -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'trackers onboarding') _partner_r='--employee-id --employee-code --changes-since --state --output-file -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'trackers offboarding') _partner_r='--employee-id --employee-code --changes-since --state --output-file -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'profile get') _partner_r='--from-file --concurrency --reveal -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'gp create') _partner_r='--entity --from-file --set --dry-run --resume --draft --body-file --yes --reveal --from-csv --skip-invalid --results --concurrency --encoding -o --output --fields --jq' ;;
    'gp schema') _partner_r='--entity -o --output --jq' ;;
    'gp template') _partner_r='--entity --values -o --output --jq --csv-raw --bom' ;;
    'dynamic-details submit') _partner_r='--from-file --set --resume --draft --dry-run --body-file --yes --reveal' ;;
    'drafts list') _partner_r='--entity --employee -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'drafts discard') _partner_r='--all --entity --employee --yes' ;;
    'webhook verify') _partner_r='--file --jwks-url --jwks-file --no-cache -o --output --fields --jq --csv-raw --bom' ;;
    'webhook listen') _partner_r='--port --host --path --forward-to --events --forward-timeout --spool --forward-concurrency --read-timeout --max-connections --max-body-memory --metrics --metrics-listen --max-attempts --park-on --max-age --jwks-url --jwks-file --no-cache -o --output --fields --jq' ;;
    'webhook replay') _partner_r='--spool --since --event-type --to --failed --jwks-url --jwks-file --no-cache -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'api') _partner_r='-X --method -f --raw-field -F --field --input -H --header -i --include --paginate --allow-drift -o --output --fields --jq --csv-raw --bom' ;;
    'mcp') _partner_r='--allow-write --tools --reveal' ;;
    'auth login') _partner_r='--with-token --no-verify --insecure-storage' ;;
    'auth status') _partner_r='--all -o --output --fields --jq' ;;
    'audit list') _partner_r='--since -o --output --fields -q --quiet --jq --csv-raw --bom' ;;
    'doctor') _partner_r='--spool -o --output --fields --jq' ;;
    'sandbox start') _partner_r='--port --host --employees --seed --latency-ms --fail-rate --reset-rate --html502-rate --drift-rate --webhook-url' ;;
    'sandbox emit') _partner_r='--to --print --legacy --data --rotate-key -o --output --jq' ;;
    'version') _partner_r='-o --output --jq' ;;
    'help') _partner_r='-o --output --jq' ;;
    *) _partner_r='' ;;
  esac
  _partner_r+=' --profile --base-url --sandbox --debug --timeout --no-color --no-input --no-pager -h --help'
}

# Flags of a command path that take a value (global ones appended).
_partner_value_flags() {
  case $1 in
    'employees list') _partner_r='--page --page-size --status --employee-id --employee-code --sort-by --sort-order --search --limit --concurrency --output-file --changes-since --state -o --output --fields --jq' ;;
    'trackers onboarding') _partner_r='--employee-id --employee-code --changes-since --state --output-file -o --output --fields --jq' ;;
    'trackers offboarding') _partner_r='--employee-id --employee-code --changes-since --state --output-file -o --output --fields --jq' ;;
    'profile get') _partner_r='--from-file --concurrency -o --output --fields --jq' ;;
    'gp create') _partner_r='--entity --from-file --set --draft --body-file --from-csv --results --concurrency --encoding -o --output --fields --jq' ;;
    'gp schema') _partner_r='--entity -o --output --jq' ;;
    'gp template') _partner_r='--entity -o --output --jq' ;;
    'dynamic-details submit') _partner_r='--from-file --set --draft --body-file' ;;
    'drafts list') _partner_r='--entity --employee -o --output --fields --jq' ;;
    'drafts discard') _partner_r='--entity --employee' ;;
    'webhook verify') _partner_r='--file --jwks-url --jwks-file -o --output --fields --jq' ;;
    'webhook listen') _partner_r='--port --host --path --forward-to --events --forward-timeout --spool --forward-concurrency --read-timeout --max-connections --max-body-memory --metrics-listen --max-attempts --park-on --max-age --jwks-url --jwks-file -o --output --fields --jq' ;;
    'webhook replay') _partner_r='--spool --since --event-type --to --jwks-url --jwks-file -o --output --fields --jq' ;;
    'api') _partner_r='-X --method -f --raw-field -F --field --input -H --header -o --output --fields --jq' ;;
    'mcp') _partner_r='--tools' ;;
    'auth status') _partner_r='-o --output --fields --jq' ;;
    'audit list') _partner_r='--since -o --output --fields --jq' ;;
    'doctor') _partner_r='--spool -o --output --fields --jq' ;;
    'sandbox start') _partner_r='--port --host --employees --seed --latency-ms --fail-rate --reset-rate --html502-rate --drift-rate --webhook-url' ;;
    'sandbox emit') _partner_r='--to --data -o --output --jq' ;;
    'version') _partner_r='-o --output --jq' ;;
    'help') _partner_r='-o --output --jq' ;;
    *) _partner_r='' ;;
  esac
  _partner_r+=' --profile --base-url --timeout'
}

# Where the values of "path|flag" or "path|#argument-index" come from:
# w:words, l:comma-separated list of words, p: profile names, f: files.
_partner_values() {
  case "$1|$2" in
    'employees list|--status') _partner_r='w:ONBOARDING ACTIVE OFFBOARDING ENDED DELETED' ;;
    'employees list|--sort-by') _partner_r='w:startOn' ;;
    'employees list|--sort-order') _partner_r='w:ASC DESC' ;;
    'employees list|--output-file') _partner_r='f' ;;
    'employees list|-o'|'employees list|--output') _partner_r='w:table json ndjson csv' ;;
    'employees list|--fields') _partner_r='l:id employeeCode employeeId firstName middleName lastName fullName displayName workEmail designation department status type startDate endDate country customerId customerName entity' ;;
    'trackers onboarding|--output-file') _partner_r='f' ;;
    'trackers onboarding|-o'|'trackers onboarding|--output') _partner_r='w:table json ndjson csv' ;;
    'trackers offboarding|--output-file') _partner_r='f' ;;
    'trackers offboarding|-o'|'trackers offboarding|--output') _partner_r='w:table json ndjson csv' ;;
    'profile get|--from-file') _partner_r='f' ;;
    'profile get|-o'|'profile get|--output') _partner_r='w:table json ndjson csv' ;;
    'profile get|#0') _partner_r='' ;;
    'profile get|#'*) _partner_r='w:personal contact address bank education employment compensation' ;;
    'gp create|--from-file') _partner_r='f' ;;
    'gp create|--body-file') _partner_r='f' ;;
    'gp create|--encoding') _partner_r='w:utf-8 windows-1252 latin1' ;;
    'gp create|-o'|'gp create|--output') _partner_r='w:table json' ;;
    'gp schema|-o'|'gp schema|--output') _partner_r='w:table json' ;;
    'gp template|-o'|'gp template|--output') _partner_r='w:csv json' ;;
    'dynamic-details submit|--from-file') _partner_r='f' ;;
    'dynamic-details submit|--body-file') _partner_r='f' ;;
    'drafts list|-o'|'drafts list|--output') _partner_r='w:table json ndjson csv' ;;
    'webhook verify|--file') _partner_r='f' ;;
    'webhook verify|--jwks-file') _partner_r='f' ;;
    'webhook verify|-o'|'webhook verify|--output') _partner_r='w:table json ndjson csv' ;;
    'webhook listen|--events') _partner_r='l:EMPLOYEE_CREATED EMPLOYEE_ACTIVATED EMPLOYEE_UPDATED EMPLOYEE_DEACTIVATED EMPLOYEE_DELETED CONTRACT_CREATED CONTRACT_ACTIVATED APPROVAL_REQUEST_CREATED APPROVAL_REQUEST_APPROVED APPROVAL_REQUEST_REJECTED' ;;
    'webhook listen|--jwks-file') _partner_r='f' ;;
    'webhook listen|-o'|'webhook listen|--output') _partner_r='w:table ndjson' ;;
    'webhook replay|--jwks-file') _partner_r='f' ;;
    'webhook replay|-o'|'webhook replay|--output') _partner_r='w:table json ndjson csv' ;;
    'api|-X'|'api|--method') _partner_r='w:GET POST PUT PATCH DELETE' ;;
    'api|-o'|'api|--output') _partner_r='w:json ndjson csv' ;;
    'auth status|-o'|'auth status|--output') _partner_r='w:table json' ;;
    'auth switch|#0') _partner_r='p' ;;
    'audit list|-o'|'audit list|--output') _partner_r='w:table json ndjson csv' ;;
    'doctor|-o'|'doctor|--output') _partner_r='w:table json' ;;
    'sandbox emit|-o'|'sandbox emit|--output') _partner_r='w:table json' ;;
    'sandbox emit|#0') _partner_r='w:EMPLOYEE_CREATED EMPLOYEE_ACTIVATED EMPLOYEE_UPDATED EMPLOYEE_DEACTIVATED EMPLOYEE_DELETED CONTRACT_CREATED CONTRACT_ACTIVATED APPROVAL_REQUEST_CREATED APPROVAL_REQUEST_APPROVED APPROVAL_REQUEST_REJECTED' ;;
    'completion|#0') _partner_r='w:bash zsh fish' ;;
    'version|-o'|'version|--output') _partner_r='w:table json' ;;
    'help|#0') _partner_r='w:employees trackers profile gp dynamic-details drafts webhook api mcp auth audit doctor sandbox completion version help' ;;
    *'|--profile') _partner_r='p' ;;
    *) _partner_r='' ;;
  esac
}

_partner_complete_values() {
  local code=$1 prefix=$2 head='' name
  case $code in
    w:*) COMPREPLY=($(compgen -P "$prefix" -W "${code#w:}" -- "$cur")) ;;
    l:*)
      [[ $cur == *,* ]] && head=${cur%,*},
      COMPREPLY=($(compgen -P "$prefix$head" -W "${code#l:}" -- "${cur##*,}"))
      compopt -o nospace 2>/dev/null ;;
    p)
      # Profile names only (never tokens), from the config of this user.
      while IFS= read -r name; do
        [[ -n $name && $name == "$cur"* ]] && COMPREPLY+=("$prefix$name")
      done < <("${COMP_WORDS[0]}" __complete profiles 2>/dev/null) ;;
    f)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}

_partner() {
  local cur=${COMP_WORDS[COMP_CWORD]} word cmdpath='' expect='' nargs=0 i _partner_r
  COMPREPLY=()
  # Walk the words before the cursor: descend into subcommands, skip flag values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -n $expect ]]; then
      # "--flag=value" arrives as "--flag" "=" "value" when = breaks words.
      [[ $word == '=' ]] || expect=''
      continue
    fi
    case $word in
      --*=*) ;;
      -*)
        _partner_value_flags "$cmdpath"
        [[ " $_partner_r " == *" $word "* ]] && expect=$word ;;
      *)
        if ((nargs == 0)); then
          _partner_subcommands "$cmdpath"
          if [[ -n $word && " $_partner_r " == *" $word "* ]]; then
            cmdpath=${cmdpath:+$cmdpath }$word
            continue
          fi
        fi
        nargs=$((nargs + 1)) ;;
    esac
  done

  local flag='' prefix=''
  if [[ -n $expect && $cur == '=' ]]; then
    # COMP_WORDS has "=" as the current word, but readline replaces only the
    # text after it: the candidates must not repeat the "=" (--status==).
    flag=$expect cur=''
  elif [[ -n $expect ]]; then
    flag=$expect
  elif [[ $cur == --*=* ]]; then
    flag=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
  elif [[ $cur == -* ]]; then
    _partner_flags "$cmdpath"
    COMPREPLY=($(compgen -W "$_partner_r" -- "$cur"))
    return 0
  else
    if ((nargs == 0)); then
      _partner_subcommands "$cmdpath"
      if [[ -n $_partner_r ]]; then
        COMPREPLY=($(compgen -W "$_partner_r" -- "$cur"))
        return 0
      fi
    fi
    flag="#$nargs"
  fi
  _partner_values "$cmdpath" "$flag"
  _partner_complete_values "$_partner_r" "$prefix"
  return 0
}

complete -F _partner partner
