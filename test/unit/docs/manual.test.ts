// The committed manual is what the command definitions generate (`npm run
// docs` in a clean clone changes nothing), every command that runs has a
// Markdown page and a man page naming every flag of its --help, package.json
// installs every man page, and the help topics say what the manual says.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOP_LEVEL } from '../../../src/commands/index.js';
import { renderHelp } from '../../../src/help.js';
import { HELP_TOPICS } from '../../../src/help-topics.js';
import { helpFlagNames, leaves, manPaths, manualFiles, pageName } from '../../../src/manual.js';

const ROOT = join(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; man: string[]; files: string[]; scripts: Record<string, string> };
const files = manualFiles(TOP_LEVEL, pkg.version);
const REGENERATE = 'run `npm run docs` and commit docs/ and package.json';

describe('the committed manual', () => {
  it.each(files.map((f) => [f.path, f.text] as const))('%s is what the definitions generate', (path, text) => {
    expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is out of date: ${REGENERATE}`).toBe(text);
  });

  it('has no page that the definitions do not generate', () => {
    const generated = new Set(files.map((f) => f.path));
    for (const dir of ['docs/manual', 'docs/man']) {
      for (const name of readdirSync(join(ROOT, dir))) expect(generated.has(`${dir}/${name}`), `${dir}/${name} is stale: ${REGENERATE}`).toBe(true);
    }
  });

  it('is deterministic: no dates, no absolute paths', () => {
    for (const f of files) {
      expect(f.text, f.path).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
      expect(f.text, f.path).not.toMatch(/\/(?:work|tmp|home|root|Users)\//);
    }
    expect(manualFiles(TOP_LEVEL, pkg.version)).toEqual(files);
  });

  it('is installed by npm install -g: package.json lists every man page and ships them', () => {
    expect(pkg.man, REGENERATE).toEqual(manPaths(files));
    expect(pkg.files).toContain('docs/man');
    expect(pkg.scripts.docs).toBe('node scripts/gen-docs.mjs');
  });
});

describe.each(leaves(TOP_LEVEL).map((l) => [l.path.join(' '), l] as const))('partner %s', (_name, leaf) => {
  const md = files.find((f) => f.path === `docs/manual/${pageName(leaf.path)}.md`)?.text;
  const man = files.find((f) => f.path === `docs/man/${pageName(leaf.path)}.1`)?.text;

  it('has a manual page and a man page naming every flag of its --help', () => {
    expect(md).toBeDefined();
    expect(man).toBeDefined();
    const help = renderHelp({ kind: 'command', def: leaf.def, path: leaf.path }, TOP_LEVEL, 80);
    for (const flag of helpFlagNames(leaf.def)) {
      expect(help).toContain(flag);
      expect(md).toContain(flag);
      // In roff a hyphen is written \-.
      expect(man).toContain(flag.replace(/-/g, '\\-'));
    }
    expect(md!.replace(/\\/g, '')).toContain(leaf.def.summary.slice(1));
    for (const example of leaf.def.examples ?? []) expect(md).toContain(example);
  });

  it('man page is well-formed roff: a title line, NAME, SYNOPSIS, no line starting with a bare quote', () => {
    expect(man).toMatch(new RegExp(`^\\.TH ${pageName(leaf.path).toUpperCase().replace(/-/g, '-')} 1 `));
    expect(man).toContain('\n.SH NAME\n');
    expect(man).toContain('\n.SH SYNOPSIS\n');
    expect(man).toContain('\n.SH EXIT CODES\n');
    for (const line of man!.split('\n')) expect(line, line).not.toMatch(/^'/);
  });
});

describe.each(HELP_TOPICS.map((t) => [t.name, t] as const))('partner help %s', (name, topic) => {
  it('says in the help what the manual says', () => {
    const help = renderHelp({ kind: 'topic', topic }, TOP_LEVEL, 80).replace(/\s+/g, ' ');
    const md = files.find((f) => f.path === `docs/manual/partner-help-${name}.md`)!.text.replace(/\\/g, '').replace(/\s+/g, ' ');
    for (const sentence of topic.body.split(/\n+/)) expect(md).toContain(sentence.trim().replace(/\s+/g, ' '));
    for (const sentence of topic.body.split(/\n+/)) expect(help).toContain(sentence.trim().replace(/\s+/g, ' '));
  });
});
