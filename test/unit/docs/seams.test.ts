// help, man pages and completions without seams. `man partner`
// has an overview page, each flag's default is stated once, the topic lists
// keep their columns, completions carry no internal notes, `help help` works.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOP_LEVEL } from '../../../src/commands/index.js';
import { helpRequest, renderHelp } from '../../../src/help.js';
import { findTopic, HELP_TOPICS } from '../../../src/help-topics.js';
import { leaves, manualFiles, pageName } from '../../../src/manual.js';

const ROOT = join(import.meta.dirname, '../../..');
const files = manualFiles(TOP_LEVEL, '0.0.0');
const text = (path: string) => files.find((f) => f.path === path)!.text;

describe('man partner', () => {
  it('is an overview page that names every command page and every topic page', () => {
    const page = text('docs/man/partner.1');
    expect(page).toMatch(/^\.TH PARTNER 1 /);
    for (const { path } of leaves(TOP_LEVEL)) expect(page).toContain(`.BR ${pageName(path)} (1)`);
    for (const t of HELP_TOPICS) expect(page).toContain(`.BR ${pageName(['help', t.name])} (1)`);
    expect(page).toContain('.SH EXIT CODES');
  });
});

describe('a flag default is stated once', () => {
  it.each(files.filter((f) => f.path.endsWith('.1') || f.path.endsWith('.md')).map((f) => [f.path, f.text] as const))('%s', (_path, page) => {
    // "(default 1)" in the description and "Default: 1." after it said the same twice.
    expect(page).not.toMatch(/\(default:? [^)]*\)\.\n(?:Default|  \(default)/);
    expect(page).not.toMatch(/\(env [A-Z_]+\)\.\n(?:Default: [^\n]*)?Environment/);
  });

  it('keeps the default where the description had it (employees list --page)', () => {
    const man = text('docs/man/partner-employees-list.1');
    expect(man).toContain('.B \\-\\-page <n>\npage number, 1 or more.\nDefault: 1.\n');
    const md = text('docs/manual/partner-employees-list.md');
    expect(md).toContain('- `--page <n>`: page number, 1 or more.\n  (default: 1)');
  });
});

describe('partner help environment', () => {
  it.each([60, 80, 120])('keeps its columns aligned at %i columns', (width) => {
    const out = renderHelp({ kind: 'topic', topic: findTopic('environment')! }, TOP_LEVEL, width);
    const rows = out.split('\n').filter((l) => l.startsWith('  '));
    const column = /^ {2}\S+(?: \S+)* {2,}/.exec(rows[0]!)![0].length;
    expect(column).toBeGreaterThan(20);
    for (const row of rows) {
      expect(row.length, row).toBeLessThanOrEqual(width);
      // A row's text, and every continuation of it, starts at the one column.
      expect(row.slice(column - 2, column), row).toBe('  ');
      expect(row[column], row).not.toBe(' ');
    }
    expect(out).toMatch(/ {2}HTTPS_PROXY, HTTP_PROXY, NO_PROXY {2}the proxy/);
  });
});

describe('partner help help', () => {
  it('is the help command\'s own page, not an unknown command', () => {
    const target = helpRequest(['help', 'help'], TOP_LEVEL);
    expect(target).toEqual({ kind: 'help' });
    const out = renderHelp(target!, TOP_LEVEL, 80);
    expect(out).toContain('Usage:\n  partner help [command...] [flags]');
    expect(out).toContain('-o, --output <format>');
    for (const t of HELP_TOPICS) expect(out).toContain(`  ${t.name}`);
  });
});

describe('completions', () => {
  it.each(['completions/_partner', 'completions/partner.fish', 'completions/partner.bash'])('%s carries no internal notes', (path) => {
    // The script's own comment may name its generator; what a shell shows a person may not name a source file.
    const script = readFileSync(join(ROOT, path), 'utf8').split('\n').filter((l) => !l.startsWith('#')).join('\n');
    expect(script).not.toMatch(/\b[a-z][a-z0-9-]*\.(?:ts|mjs|js)\b/);
    expect(script).not.toContain('answered in');
  });
});
