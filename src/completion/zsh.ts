// Renders the zsh completion script (native compsys: _describe for commands
// and flags with their descriptions, compadd/_files for values). Same data
// layout as the bash script: case statements per command path.
import { allCommands, flagNames, staticWords, type CommandSpec, type OptionSpec, type ProgramSpec, type ValueSource } from './spec.js';
import { sq } from './bash.js';
import { COMPLETE_COMMAND } from './values.js';

function valueCode(spec: ProgramSpec, v: ValueSource): string {
  if (v.kind === 'profiles') return 'p';
  if (v.kind === 'files') return 'f';
  return `${v.kind === 'list' ? 'l' : 'w'}:${(staticWords(spec, v) ?? []).join(' ')}`;
}

/** "name:description" for _describe (colons in the name escaped). */
function described(name: string, description: string): string {
  return sq(`${name.replace(/:/g, '\\:')}:${description}`);
}

function flagEntries(options: OptionSpec[]): string[] {
  return options.flatMap((o) => flagNames(o).map((f) => described(f, o.description)));
}

function arm(patterns: string[], body: string): string {
  return `    ${patterns.join('|')}) ${body} ;;`;
}

/** The flags among `options` that take a value. */
const valueFlags = (options: OptionSpec[]) => options.filter((o) => o.takesValue).flatMap(flagNames);

interface ZshArms {
  sub: string[];
  flags: string[];
  valueFlags: string[];
  values: string[];
}

/** The case arms of each lookup: subcommands, flags, flags taking a value, and where values come from, by command path. */
function zshArms(spec: ProgramSpec): ZshArms {
  const commands = allCommands(spec);
  const key = (c: CommandSpec) => sq(c.path.join(' '));
  const sub = commands.filter((c) => c.subcommands.length > 0).map((c) => arm([key(c)], `reply=(${c.subcommands.map((s) => described(s.name, s.description)).join(' ')})`));
  const flags = commands.filter((c) => c.options.length > 0).map((c) => arm([key(c)], `reply=(${flagEntries(c.options).join(' ')})`));
  const valueFlagArms = commands.filter((c) => valueFlags(c.options).length > 0).map((c) => arm([key(c)], `reply=(${valueFlags(c.options).map(sq).join(' ')})`));
  const values: string[] = [];
  for (const c of commands) {
    const path = c.path.join(' ');
    for (const o of c.options) {
      if (o.values) values.push(arm(flagNames(o).map((f) => sq(`${path}|${f}`)), `REPLY=${sq(valueCode(spec, o.values))}`));
    }
    if (c.rest) {
      // Earlier positionals first (free text), then every index from `from` on.
      for (let i = 0; i < c.rest.from; i++) values.push(arm([sq(`${path}|#${i}`)], `REPLY=''`));
      values.push(arm([`${sq(`${path}|#`)}*`], `REPLY=${sq(valueCode(spec, c.rest.values))}`));
    }
    c.args.forEach((a, i) => {
      if (a && !c.rest) values.push(arm([sq(`${path}|#${i}`)], `REPLY=${sq(valueCode(spec, a))}`));
    });
  }
  for (const o of spec.globals) {
    if (o.values) values.push(arm(flagNames(o).map((f) => `*${sq(`|${f}`)}`), `REPLY=${sq(valueCode(spec, o.values))}`));
  }
  return { sub, flags, valueFlags: valueFlagArms, values };
}

/** The comment at the top: what generated the script, and how to load it. */
function zshHeader(spec: ProgramSpec, header: string): string {
  return `#compdef ${spec.name}
${header.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n')}
#
# Load it in the current shell (after compinit):   source <(${spec.name} completion zsh)
# or save it as _${spec.name} in a directory of your $fpath.

`;
}

/** The lookups by command path (shell functions of case statements). */
function zshLookups(spec: ProgramSpec, fn: string, arms: ZshArms): string {
  return `# Subcommands of a command path, as "name:description".
${fn}_subcommands() {
  case $1 in
${arms.sub.join('\n')}
    *) reply=() ;;
  esac
}

# Flags of a command path, as "flag:description" (global flags appended).
${fn}_flags() {
  case $1 in
${arms.flags.join('\n')}
    *) reply=() ;;
  esac
  reply+=(${flagEntries(spec.globals).join(' ')})
}

# Flags of a command path that take a value (global ones appended).
${fn}_value_flags() {
  case $1 in
${arms.valueFlags.join('\n')}
    *) reply=() ;;
  esac
  reply+=(${valueFlags(spec.globals).map(sq).join(' ')})
}

# Where the values of "path|flag" or "path|#argument-index" come from:
# w:words, l:comma-separated list of words, p: profile names, f: files.
${fn}_values() {
  case "$1|$2" in
${arms.values.join('\n')}
    *) REPLY='' ;;
  esac
}

`;
}

/** The completion function: walks the words before the cursor, then completes a flag, a subcommand or a value. */
function zshMain(spec: ProgramSpec, fn: string): string {
  return `${fn}() {
  local cmdpath='' expect='' word cur=\${words[CURRENT]} flag='' REPLY
  local -i nargs=0 i
  local -a reply names vals
  # Walk the words before the cursor: descend into subcommands, skip flag values.
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ -n $expect ]]; then
      expect=''
      continue
    fi
    case $word in
      --*=*) ;;
      -*)
        ${fn}_value_flags "$cmdpath"
        (( \${reply[(Ie)$word]} )) && expect=$word ;;
      *)
        if (( nargs == 0 )); then
          ${fn}_subcommands "$cmdpath"
          names=(\${reply%%:*})
          if [[ -n $word ]] && (( \${names[(Ie)$word]} )); then
            cmdpath=\${cmdpath:+$cmdpath }$word
            continue
          fi
        fi
        (( nargs++ )) ;;
    esac
  done

  if [[ -n $expect ]]; then
    flag=$expect
  elif [[ $cur == --*=* ]]; then
    flag=\${cur%%=*}
    compset -P '*='
  elif [[ $cur == -* ]]; then
    ${fn}_flags "$cmdpath"
    _describe -t flags 'flag' reply
    return
  else
    if (( nargs == 0 )); then
      ${fn}_subcommands "$cmdpath"
      if (( \${#reply} )); then
        _describe -t commands 'command' reply
        return
      fi
    fi
    flag="#$nargs"
  fi
  ${fn}_values "$cmdpath" "$flag"
  case $REPLY in
    w:*)
      vals=(\${=REPLY#w:})
      compadd -a vals ;;
    l:*)
      vals=(\${=REPLY#l:})
      compset -P '*,'
      compadd -q -S ',' -a vals ;;
    p)
      # Profile names only (never tokens), from the config of this user.
      vals=(\${(f)"$(\${words[1]} ${COMPLETE_COMMAND} profiles 2>/dev/null)"})
      compadd -a vals ;;
    f)
      _files ;;
  esac
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.name}
fi
`;
}

export function renderZsh(spec: ProgramSpec, header: string): string {
  const fn = `_${spec.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return `${zshHeader(spec, header)}${zshLookups(spec, fn, zshArms(spec))}${zshMain(spec, fn)}`;
}
