// The manual, generated from the command definitions and the help topics (the
// same sources as `--help`): one Markdown page and one man page per command
// that runs, one per help topic, and an index. `npm run docs` writes them
// (scripts/gen-docs.mjs); a test fails when the committed files differ. The
// output is deterministic: no dates, no paths, definitions in tree order.
import { flagName, isGroup, kebab, type CommandDef, type Flag, type OutputSpec, type TopLevel } from './command.js';
import { GLOBAL_FLAGS } from './commands/globals.js';
import { commandGlobals, flagDefaultText, flagEnv, outputItems, PROGRAM_SUMMARY, usageOf } from './help.js';
import { EXIT_CODE_LIST, HELP_TOPICS, type HelpTopic } from './help-topics.js';

export interface ManualFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

export interface Leaf {
  def: CommandDef;
  path: string[];
}

/** Every command that runs (not a group), in help order; hidden ones left out. */
export function leaves(entries: TopLevel[]): Leaf[] {
  const out: Leaf[] = [];
  for (const e of entries) {
    if ('hidden' in e && e.hidden) continue;
    if (!isGroup(e)) {
      out.push({ def: e, path: [e.name] });
      continue;
    }
    for (const c of e.commands) if (!c.hidden) out.push({ def: c, path: [e.name, c.name] });
  }
  return out;
}

/** What a flag's description says about itself, as separate facts for the manual. */
export interface FlagFacts {
  term: string;
  description: string;
  value?: string;
  default?: string;
  env?: string;
  choices?: readonly string[];
  repeatable: boolean;
}

/**
 * A description without the facts the manual states on their own line
 * ("(default 1)", "(env PARTNER_PROFILE)"), so each is said once.
 */
export function withoutStatedFacts(description: string): string {
  return description.replace(/\s*\((?:default:? |env |also [A-Z])[^)]*\)/g, '');
}

export function flagFacts(key: string, flag: Flag<unknown>): FlagFacts {
  const d = flag.description;
  return {
    term: `${flag.short ? `-${flag.short}, ` : ''}${flagName(key, flag)}`,
    description: withoutStatedFacts(d),
    value: flag.kind === 'value' || flag.kind === 'repeat' ? `<${flag.placeholder ?? 'value'}>` : undefined,
    default: flagDefaultText(flag),
    env: flagEnv(d),
    choices: flag.choices,
    repeatable: flag.kind === 'repeat',
  };
}

function outputFacts(spec: OutputSpec): FlagFacts[] {
  return outputItems(spec).map((i) => ({
    term: i.term.replace(/<[^>]+>/, '').trim(),
    description: withoutStatedFacts(i.text),
    value: /<[^>]+>/.exec(i.term)?.[0],
    default: flagDefaultText({ description: i.text, kind: /<[^>]+>/.test(i.term) ? 'value' : 'switch' }),
    choices: i.term.includes('--output') ? spec.formats : undefined,
    repeatable: false,
  }));
}

export function pageName(path: string[]): string {
  return `partner-${path.join('-')}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------------- Markdown

function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

function mdFlag(f: FlagFacts): string {
  const facts = [
    f.default ? `default: ${mdEscape(f.default)}` : undefined,
    f.env ? `environment: \`${f.env}\`` : undefined,
    f.choices ? `choices: ${f.choices.map((c) => `\`${c}\``).join(', ')}` : undefined,
    f.repeatable ? 'repeatable' : undefined,
  ].filter(Boolean);
  return `- \`${f.term}${f.value ? ` ${f.value}` : ''}\`: ${mdEscape(f.description)}.${facts.length ? `\n  (${facts.join('; ')})` : ''}`;
}

function exitCodesMd(): string {
  return EXIT_CODE_LIST.map(([c, t]) => `- \`${c}\`: ${mdEscape(t)}`).join('\n');
}

function globalFacts(): FlagFacts[] {
  return Object.entries(GLOBAL_FLAGS).map(([k, f]) => flagFacts(k, f));
}

export function commandMarkdown(leaf: Leaf): string {
  const { def, path } = leaf;
  const name = `partner ${path.join(' ')}`;
  let out = `# ${name}\n\n${mdEscape(capitalise(def.summary))}.\n\n## Synopsis\n\n\`\`\`\n${usageOf(def, path)}\n\`\`\`\n`;
  if (def.aliases?.length) out += `\nAliases: ${def.aliases.map((a) => `\`${a}\``).join(', ')}.\n`;
  if (def.details) out += `\n## Description\n\n${def.details.trim().split('\n').map(mdEscape).join('\n\n')}\n`;
  const args = Object.entries(def.args ?? {});
  if (args.length) out += `\n## Arguments\n\n${args.map(([k, a]) => `- \`${kebab(k)}${a.variadic ? '...' : ''}\`: ${mdEscape(a.description)}${a.choices ? ` (choices: ${a.choices.map((c) => `\`${c}\``).join(', ')})` : ''}${a.optional || a.variadic ? ' (optional)' : ''}`).join('\n')}\n`;
  const flags = Object.entries(def.flags ?? {}).map(([k, f]) => flagFacts(k, f));
  if (flags.length) out += `\n## Flags\n\n${flags.map(mdFlag).join('\n')}\n`;
  if (def.output) {
    out += `\n## Output\n\nFormats: ${def.output.formats.map((f) => `\`${f}\``).join(', ')} (see [formats](partner-help-formats.md)).\n\n${outputFacts(def.output).map(mdFlag).join('\n')}\n`;
  }
  const globals = commandGlobals(def);
  out += `\n## Global flags\n\n${globals.length ? `Most useful here: ${globals.map((g) => `\`${g}\``).join(', ')}. ` : ''}All global flags: [partner help globals](partner-help-globals.md).\n`;
  out += `\n## Exit codes\n\n${exitCodesMd()}\n`;
  if (def.examples?.length) out += `\n## Examples\n\n\`\`\`sh\n${def.examples.join('\n')}\n\`\`\`\n`;
  out += `\n## See also\n\n[All commands](README.md)${path.length > 1 ? `, \`partner ${path[0]} --help\`` : ''}.\n`;
  return out;
}

function topicBodyMd(topic: HelpTopic): string {
  // Indented lines are lists in the help: keep them as code so their columns stay aligned.
  const blocks = topic.body.split('\n\n').map((b) => (b.startsWith('  ') ? `\`\`\`\n${b}\n\`\`\`` : mdEscape(b)));
  return blocks.join('\n\n');
}

export function topicMarkdown(topic: HelpTopic): string {
  let out = `# partner help ${topic.name}\n\n${mdEscape(capitalise(topic.summary))}.\n\n${topicBodyMd(topic)}\n`;
  if (topic.name === 'globals') out += `\n${globalFacts().map(mdFlag).join('\n')}\n- \`-h, --help\`: show help for a command.\n- \`-V, --version\`: print the version.\n`;
  return out;
}

export function indexMarkdown(entries: TopLevel[]): string {
  let out = `# The partner manual\n\n${mdEscape(PROGRAM_SUMMARY)}\n\nGenerated by \`npm run docs\` from the command definitions, the same source as \`partner <command> --help\`. Each page is also a man page: \`man partner-employees-list\` once partner is installed with \`npm install -g\`.\n\n## Commands\n\n`;
  out += leaves(entries).map(({ def, path }) => `- [\`partner ${path.join(' ')}\`](${pageName(path)}.md): ${mdEscape(def.summary)}`).join('\n');
  out += `\n\n## Help topics\n\n${HELP_TOPICS.map((t) => `- [\`partner help ${t.name}\`](${pageName(['help', t.name])}.md): ${mdEscape(t.summary)}`).join('\n')}\n`;
  return out;
}

// ---------------------------------------------------------------- roff (man)

/** Text safe in roff: backslashes escaped, a leading . or ' neutralised, hyphens as \-. */
function roff(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

function manHeader(name: string, summary: string, version: string): string {
  return `.TH ${name.toUpperCase()} 1 "" "partner ${version}" "partner manual"\n.SH NAME\n${roff(name)} \\- ${roff(summary)}\n`;
}

function manFlag(f: FlagFacts): string {
  const facts = [f.default ? `Default: ${f.default}.` : '', f.env ? `Environment: ${f.env}.` : '', f.choices ? `One of: ${f.choices.join(', ')}.` : '', f.repeatable ? 'Repeatable.' : ''].filter(Boolean).join(' ');
  return `.TP\n.B ${roff(f.term)}${f.value ? ` ${roff(f.value)}` : ''}\n${roff(f.description)}.${facts ? `\n${roff(facts)}` : ''}\n`;
}

function manParagraphs(text: string): string {
  return text
    .trim()
    .split(/\n+/)
    .map((p) => (p.startsWith('  ') ? `.nf\n${roff(p)}\n.fi\n` : `.PP\n${roff(p)}\n`))
    .join('');
}

function manExitCodes(): string {
  return `.SH EXIT CODES\n${EXIT_CODE_LIST.map(([c, t]) => `.TP\n.B ${c}\n${roff(t)}\n`).join('')}`;
}

export function commandMan(leaf: Leaf, version: string): string {
  const { def, path } = leaf;
  let out = manHeader(pageName(path), def.summary, version);
  out += `.SH SYNOPSIS\n.B ${roff(usageOf(def, path))}\n`;
  if (def.details) out += `.SH DESCRIPTION\n${manParagraphs(def.details)}`;
  const args = Object.entries(def.args ?? {});
  if (args.length) out += `.SH ARGUMENTS\n${args.map(([k, a]) => `.TP\n.B ${roff(kebab(k))}\n${roff(a.description)}${a.choices ? roff(` (one of: ${a.choices.join(', ')})`) : ''}\n`).join('')}`;
  const flags = Object.entries(def.flags ?? {}).map(([k, f]) => flagFacts(k, f));
  if (flags.length) out += `.SH FLAGS\n${flags.map(manFlag).join('')}`;
  if (def.output) out += `.SH OUTPUT\n.PP\n${roff(`Formats: ${def.output.formats.join(', ')}; see partner-help-formats(1).`)}\n${outputFacts(def.output).map(manFlag).join('')}`;
  const globals = commandGlobals(def);
  out += `.SH GLOBAL FLAGS\n.PP\n${roff(`${globals.length ? `Most useful here: ${globals.join(', ')}. ` : ''}All global flags: partner help globals, partner-help-globals(1).`)}\n`;
  out += manExitCodes();
  if (def.examples?.length) out += `.SH EXAMPLES\n.nf\n${def.examples.map((e) => roff(e)).join('\n')}\n.fi\n`;
  out += `.SH SEE ALSO\n.BR partner-help-globals (1),\n.BR partner-help-formats (1)\n`;
  return out;
}

export function topicMan(topic: HelpTopic, version: string): string {
  let out = manHeader(pageName(['help', topic.name]), topic.summary, version);
  out += `.SH DESCRIPTION\n${topic.body.split('\n\n').map((b) => (b.startsWith('  ') ? `.nf\n${roff(b)}\n.fi\n` : `.PP\n${roff(b)}\n`)).join('')}`;
  if (topic.name === 'globals') out += `.SH FLAGS\n${globalFacts().map(manFlag).join('')}`;
  return out;
}

/** `man partner`: the overview, listing every command's page and every topic's, as the README of the manual does. */
export function overviewMan(entries: TopLevel[], version: string): string {
  let out = manHeader('partner', PROGRAM_SUMMARY.replace(/\.$/, ''), version);
  out += `.SH SYNOPSIS\n.B partner <command> [flags]\n`;
  out += `.SH DESCRIPTION\n.PP\n${roff('Each command has its own page: man partner-employees-list for partner employees list. partner help <command> shows the same text in the terminal.')}\n`;
  out += `.SH COMMANDS\n${leaves(entries).map(({ def, path }) => `.TP\n.BR ${pageName(path)} (1)\n${roff(`partner ${path.join(' ')}: ${def.summary}`)}\n`).join('')}`;
  out += `.SH HELP TOPICS\n${HELP_TOPICS.map((t) => `.TP\n.BR ${pageName(['help', t.name])} (1)\n${roff(`partner help ${t.name}: ${t.summary}`)}\n`).join('')}`;
  out += manExitCodes();
  return out;
}

/** Every file of the manual, in a stable order. */
export function manualFiles(entries: TopLevel[], version: string): ManualFile[] {
  const files: ManualFile[] = [{ path: 'docs/manual/README.md', text: indexMarkdown(entries) }, { path: 'docs/man/partner.1', text: overviewMan(entries, version) }];
  for (const leaf of leaves(entries)) {
    files.push({ path: `docs/manual/${pageName(leaf.path)}.md`, text: commandMarkdown(leaf) });
    files.push({ path: `docs/man/${pageName(leaf.path)}.1`, text: commandMan(leaf, version) });
  }
  for (const topic of HELP_TOPICS) {
    files.push({ path: `docs/manual/${pageName(['help', topic.name])}.md`, text: topicMarkdown(topic) });
    files.push({ path: `docs/man/${pageName(['help', topic.name])}.1`, text: topicMan(topic, version) });
  }
  return files;
}

/** Every flag name a command's help lists (its own, the output flags): each must be on its manual page. */
export function helpFlagNames(def: CommandDef): string[] {
  const own = Object.entries(def.flags ?? {}).map(([k, f]) => flagName(k, f));
  const out = def.output ? outputItems(def.output).map((i) => /--[a-z-]+/.exec(i.term)![0]) : [];
  return [...own, ...out];
}

/** package.json's `man` list: every man page of the manual, so `npm install -g` installs them. */
export function manPaths(files: ManualFile[]): string[] {
  return files.filter((f) => f.path.endsWith('.1')).map((f) => `./${f.path}`);
}
