// Renders the bash completion script from the completion model. The script
// is data (case statements per command path) plus one small walker that
// finds the command path under the cursor, skipping flag values.
import { allCommands, flagNames, staticWords, type CommandSpec, type OptionSpec, type ProgramSpec, type ValueSource } from './spec.js';
import { COMPLETE_COMMAND } from './values.js';

/** A bash single-quoted word. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function valueCode(spec: ProgramSpec, v: ValueSource): string {
  if (v.kind === 'profiles') return 'p';
  if (v.kind === 'files') return 'f';
  const words = staticWords(spec, v) ?? [];
  return `${v.kind === 'list' ? 'l' : 'w'}:${words.join(' ')}`;
}

function caseArm(patterns: string[], body: string): string {
  return `    ${patterns.join('|')}) ${body} ;;`;
}

function valueFlags(options: OptionSpec[]): string[] {
  return options.filter((o) => o.takesValue).flatMap(flagNames);
}

interface BashArms {
  sub: string[];
  flags: string[];
  valueFlags: string[];
  values: string[];
}

/** The case arms of each lookup: subcommands, flags, flags taking a value, and where values come from, by command path. */
function bashArms(spec: ProgramSpec, fn: string): BashArms {
  const commands = allCommands(spec);
  const key = (c: CommandSpec) => sq(c.path.join(' '));
  const sub = commands.filter((c) => c.subcommands.length > 0).map((c) => caseArm([key(c)], `${fn}_r=${sq(c.subcommands.map((s) => s.name).join(' '))}`));
  const flags = commands.filter((c) => c.options.length > 0).map((c) => caseArm([key(c)], `${fn}_r=${sq(c.options.flatMap(flagNames).join(' '))}`));
  const valueFlagArms = commands.filter((c) => valueFlags(c.options).length > 0).map((c) => caseArm([key(c)], `${fn}_r=${sq(valueFlags(c.options).join(' '))}`));
  const values: string[] = [];
  for (const c of commands) {
    const path = c.path.join(' ');
    for (const o of c.options) {
      if (o.values) values.push(caseArm(flagNames(o).map((f) => sq(`${path}|${f}`)), `${fn}_r=${sq(valueCode(spec, o.values))}`));
    }
    if (c.rest) {
      // Earlier positionals first (free text), then every index from `from` on.
      for (let i = 0; i < c.rest.from; i++) values.push(caseArm([sq(`${path}|#${i}`)], `${fn}_r=''`));
      values.push(caseArm([`${sq(`${path}|#`)}*`], `${fn}_r=${sq(valueCode(spec, c.rest.values))}`));
    }
    c.args.forEach((a, i) => {
      if (a && !c.rest) values.push(caseArm([sq(`${path}|#${i}`)], `${fn}_r=${sq(valueCode(spec, a))}`));
    });
  }
  for (const o of spec.globals) {
    if (o.values) values.push(caseArm(flagNames(o).map((f) => `*${sq(`|${f}`)}`), `${fn}_r=${sq(valueCode(spec, o.values))}`));
  }
  return { sub, flags, valueFlags: valueFlagArms, values };
}

/** The comment at the top: what generated the script, and how to load it. */
function bashHeader(spec: ProgramSpec, header: string): string {
  return `${header.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n')}
#
# Load it in the current shell:   source <(${spec.name} completion bash)
# or install it for bash-completion:
#   ${spec.name} completion bash > ~/.local/share/bash-completion/completions/${spec.name}

`;
}

/** The lookups by command path (shell functions of case statements). */
function bashLookups(spec: ProgramSpec, fn: string, arms: BashArms): string {
  const globalFlags = spec.globals.flatMap(flagNames).join(' ');
  const globalValueFlags = valueFlags(spec.globals).join(' ');
  return `# Subcommands of a command path.
${fn}_subcommands() {
  case $1 in
${arms.sub.join('\n')}
    *) ${fn}_r='' ;;
  esac
}

# Flags of a command path (global flags appended).
${fn}_flags() {
  case $1 in
${arms.flags.join('\n')}
    *) ${fn}_r='' ;;
  esac
  ${fn}_r+=${sq(` ${globalFlags}`)}
}

# Flags of a command path that take a value (global ones appended).
${fn}_value_flags() {
  case $1 in
${arms.valueFlags.join('\n')}
    *) ${fn}_r='' ;;
  esac
  ${fn}_r+=${sq(` ${globalValueFlags}`)}
}

# Where the values of "path|flag" or "path|#argument-index" come from:
# w:words, l:comma-separated list of words, p: profile names, f: files.
${fn}_values() {
  case "$1|$2" in
${arms.values.join('\n')}
    *) ${fn}_r='' ;;
  esac
}

`;
}

/** Turns a value code (w:, l:, p, f) into the candidates for the word under the cursor. */
function bashValueCompleter(fn: string): string {
  return `${fn}_complete_values() {
  local code=$1 prefix=$2 head='' name
  case $code in
    w:*) COMPREPLY=($(compgen -P "$prefix" -W "\${code#w:}" -- "$cur")) ;;
    l:*)
      [[ $cur == *,* ]] && head=\${cur%,*},
      COMPREPLY=($(compgen -P "$prefix$head" -W "\${code#l:}" -- "\${cur##*,}"))
      compopt -o nospace 2>/dev/null ;;
    p)
      # Profile names only (never tokens), from the config of this user.
      while IFS= read -r name; do
        [[ -n $name && $name == "$cur"* ]] && COMPREPLY+=("$prefix$name")
      done < <("\${COMP_WORDS[0]}" ${COMPLETE_COMMAND} profiles 2>/dev/null) ;;
    f)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}

`;
}

/** The completion function: walks the words before the cursor, then completes a flag, a subcommand or a value. */
function bashMain(fn: string): string {
  return `${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} word cmdpath='' expect='' nargs=0 i ${fn}_r
  COMPREPLY=()
  # Walk the words before the cursor: descend into subcommands, skip flag values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ -n $expect ]]; then
      # "--flag=value" arrives as "--flag" "=" "value" when = breaks words.
      [[ $word == '=' ]] || expect=''
      continue
    fi
    case $word in
      --*=*) ;;
      -*)
        ${fn}_value_flags "$cmdpath"
        [[ " $${fn}_r " == *" $word "* ]] && expect=$word ;;
      *)
        if ((nargs == 0)); then
          ${fn}_subcommands "$cmdpath"
          if [[ -n $word && " $${fn}_r " == *" $word "* ]]; then
            cmdpath=\${cmdpath:+$cmdpath }$word
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
    flag=\${cur%%=*} prefix=\${cur%%=*}= cur=\${cur#*=}
  elif [[ $cur == -* ]]; then
    ${fn}_flags "$cmdpath"
    COMPREPLY=($(compgen -W "$${fn}_r" -- "$cur"))
    return 0
  else
    if ((nargs == 0)); then
      ${fn}_subcommands "$cmdpath"
      if [[ -n $${fn}_r ]]; then
        COMPREPLY=($(compgen -W "$${fn}_r" -- "$cur"))
        return 0
      fi
    fi
    flag="#$nargs"
  fi
  ${fn}_values "$cmdpath" "$flag"
  ${fn}_complete_values "$${fn}_r" "$prefix"
  return 0
}

`;
}

export function renderBash(spec: ProgramSpec, header: string): string {
  const fn = `_${spec.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return `${bashHeader(spec, header)}${bashLookups(spec, fn, bashArms(spec, fn))}${bashValueCompleter(fn)}${bashMain(fn)}complete -F ${fn} ${spec.name}
`;
}
