// Renders the fish completion script: `complete` lines conditioned on the
// command path under the cursor, computed by one helper that walks the
// command line the same way the bash and zsh scripts do.
import { allCommands, flagNames, staticWords, type OptionSpec, type ProgramSpec, type ValueSource } from './spec.js';
import { COMPLETE_COMMAND } from './values.js';

/** A fish single-quoted string. */
function fq(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The flags among `options` that take a value. */
const valueFlags = (options: OptionSpec[]) => options.filter((o) => o.takesValue).flatMap(flagNames);

/** The `complete` lines of every command, flag and argument, and the list functions their values need. */
function fishCompletions(spec: ProgramSpec, fn: string): { lines: string[]; lists: string[] } {
  const name = spec.name;
  const commands = allCommands(spec);
  const lists: string[] = [];

  const valueArgs = (v: ValueSource): string => {
    if (v.kind === 'profiles') return `-x -a ${fq(`(${fn}_profiles)`)}`;
    if (v.kind === 'files') return '-r -F';
    const words = staticWords(spec, v) ?? [];
    if (v.kind === 'list') {
      const listFn = `${fn}_list_${lists.length}`;
      lists.push(`function ${listFn}\n    printf '%s\\n' ${words.map(fq).join(' ')}\nend`);
      return `-x -a ${fq(`(__fish_complete_list , ${listFn})`)}`;
    }
    return `-x -a ${fq(words.join(' '))}`;
  };

  const optionLine = (o: OptionSpec, condition?: string): string => {
    const parts = [`complete -c ${name}`];
    if (condition) parts.push(`-n ${fq(condition)}`);
    if (o.short) parts.push(`-s ${o.short.replace(/^-/, '')}`);
    if (o.long) parts.push(`-l ${o.long.replace(/^--/, '')}`);
    if (o.values) parts.push(valueArgs(o.values));
    else if (o.takesValue) parts.push('-x');
    if (o.description) parts.push(`-d ${fq(o.description)}`);
    return parts.join(' ');
  };

  const lines: string[] = [];
  for (const c of commands) {
    const path = c.path.join(' ');
    for (const s of c.subcommands) lines.push(`complete -c ${name} -n ${fq(`${fn}_arg ${fq(path)} 0`)} -a ${fq(s.name)} -d ${fq(s.description)}`);
    for (const o of c.options) lines.push(optionLine(o, `${fn}_in ${fq(path)}`));
    if (c.rest) lines.push(`complete -c ${name} -n ${fq(`${fn}_arg_from ${fq(path)} ${c.rest.from}`)} ${valueArgs(c.rest.values)}`);
    c.args.forEach((a, i) => {
      if (a && !c.rest) lines.push(`complete -c ${name} -n ${fq(`${fn}_arg ${fq(path)} ${i}`)} ${valueArgs(a)}`);
    });
  }
  for (const o of spec.globals) lines.push(optionLine(o));

  return { lines, lists };
}

/** The comment at the top: what generated the script, and how to load it. */
function fishHeader(name: string, header: string): string {
  return `${header.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n')}
#
# Load it in the current shell:   ${name} completion fish | source
# or install it:   ${name} completion fish > ~/.config/fish/completions/${name}.fish

`;
}

/** The lookups by command path: subcommands, and flags that take a value. */
function fishLookups(spec: ProgramSpec, fn: string): string {
  const commands = allCommands(spec);
  const subCases = commands
    .filter((c) => c.subcommands.length > 0)
    .map((c) => `        case ${fq(c.path.join(' '))}\n            printf '%s\\n' ${c.subcommands.map((s) => fq(s.name)).join(' ')}`);
  const valueFlagCases = commands
    .filter((c) => valueFlags(c.options).length > 0)
    .map((c) => `        case ${fq(c.path.join(' '))}\n            printf '%s\\n' ${valueFlags(c.options).map(fq).join(' ')}`);

  return `# Subcommands of a command path.
function ${fn}_subcommands
    switch $argv[1]
${subCases.join('\n')}
    end
end

# Flags of a command path that take a value (global ones appended).
function ${fn}_value_flags
    switch $argv[1]
${valueFlagCases.join('\n')}
    end
    printf '%s\\n' ${valueFlags(spec.globals).map(fq).join(' ')}
end

`;
}

/** Where the cursor is (command path, positional index), read from the command line, and the profile names. */
function fishWalker(fn: string): string {
  return `# "positional-count|command path" of the command line before the cursor.
function ${fn}_state
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
                if contains -- $t (${fn}_value_flags "$cmdpath")
                    set expect 1
                end
            case '*'
                if test $nargs = 0; and contains -- $t (${fn}_subcommands "$cmdpath")
                    set cmdpath (string trim -- "$cmdpath $t")
                    continue
                end
                set nargs (math $nargs + 1)
        end
    end
    echo "$nargs|$cmdpath"
end

# True when the cursor is inside the command path $argv[1].
function ${fn}_in
    set -l state (string split -m 1 '|' -- (${fn}_state))
    test "$state[2]" = "$argv[1]"
end

# True when the cursor is on positional argument $argv[2] of command path $argv[1].
function ${fn}_arg
    test (${fn}_state) = "$argv[2]|$argv[1]"
end

# True when the cursor is on positional argument $argv[2] or later of command path $argv[1].
function ${fn}_arg_from
    set -l state (string split -m 1 '|' -- (${fn}_state))
    test "$state[2]" = "$argv[1]"; and test "$state[1]" -ge "$argv[2]"
end

# Profile names only (never tokens), from the config of this user.
function ${fn}_profiles
    set -l cmd (commandline -opc)[1]
    $cmd ${COMPLETE_COMMAND} profiles 2>/dev/null
end

`;
}

export function renderFish(spec: ProgramSpec, header: string): string {
  const name = spec.name;
  const fn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const complete = fishCompletions(spec, fn);
  return `${fishHeader(name, header)}${fishLookups(spec, fn)}${fishWalker(fn)}${complete.lists.join('\n\n')}

complete -c ${name} -f
${complete.lines.join('\n')}
`;
}
