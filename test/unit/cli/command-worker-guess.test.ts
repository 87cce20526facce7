// Whether a command runs on the bounded worker is said once, in its definition
// (CommandDef.worker, src/worker-rule.ts). The CLI reads the rule on the parsed
// flags; the launcher reads the same rule, derived by the build
// (dist/worker-rules.json), from the raw words to start the worker before it
// loads the CLI. A wrong guess costs a worker started for nothing, never a
// different result (export-worker.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOP_LEVEL } from '../../../src/commands/index.js';
import { looksLikeWorkerCommand, ruleHolds } from '../../../src/worker-rule.js';
import { workerRules } from '../../../src/worker-rules.js';
import { ROOT } from '../../helpers/cli.js';

const rules = workerRules(TOP_LEVEL);

describe('the worker rules the launcher reads', () => {
  it('are derived from the definitions: employees list (--all, --search) and gp create (--from-csv), nothing else', () => {
    expect(rules).toEqual([
      { words: [['employees'], ['list']], anyOf: ['--all', '--search'], allOf: [], notForTerminal: '--output-file' },
      { words: [['gp'], ['create']], anyOf: ['--from-csv'], allOf: [] },
    ]);
  });

  it('are what the build wrote to dist/worker-rules.json', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'dist', 'worker-rules.json'), 'utf8'))).toEqual(rules);
  });
});

describe('looksLikeWorkerCommand (the launcher, from the words)', () => {
  it.each([
    [['employees', 'list', '--all'], false],
    [['employees', 'list', '--all', '-o', 'csv'], false],
    [['--profile', 'p', 'employees', 'list', '--search', 'priya'], false],
    [['employees', 'list', '--search=priya'], false],
    [['employees', 'list', '--all', '--output-file', 'e.csv'], true],
    [['employees', 'list', '--all', '--output-file=e.csv'], true],
    [['gp', 'create', '--entity', 'Acme India Pvt Ltd', '--from-csv', 'hires.csv', '--dry-run'], true],
    [['gp', 'create', '--from-csv=hires.csv'], true],
  ])('%j goes to a worker when stdout is not a terminal; on a terminal: %s', (args, onTerminal) => {
    expect(looksLikeWorkerCommand(args, rules, false)).toBe(true);
    expect(looksLikeWorkerCommand(args, rules, true)).toBe(onTerminal);
  });

  it.each([
    [['employees', 'list']],
    [['employees', 'list', '--page', '2']],
    [['employees', 'get', '--all']],
    [['profile', 'get', '--all']],
    [['list', 'employees', '--all']],
    [['employees', 'list', '--allow-drift']],
    [['employees', 'list', '--searching']],
    [['gp', 'create', '--from-csv', '-', '--results', 'r.csv']],
    [['gp', 'create', '--from-csv=-', '--results', 'r.csv']],
    [['gp', 'create', '--from-file', 'v.json']],
  ])('%j does not', (args) => {
    expect(looksLikeWorkerCommand(args, rules, false)).toBe(false);
  });
});

describe('ruleHolds (the CLI, on the parsed flags)', () => {
  const list = { anyOf: ['all', 'search'], notForTerminal: true };
  it.each<[Record<string, unknown>, boolean, boolean]>([
    [{ all: true }, false, true],
    [{ all: true }, true, false],
    [{ all: true, outputFile: 'e.csv' }, true, true],
    [{ search: 'priya' }, false, true],
    [{ all: false }, false, false],
    [{}, false, false],
  ])('employees list %j, stdout a terminal: %s -> %s', (flags, tty, expected) => {
    expect(ruleHolds(list, flags, tty, 'outputFile')).toBe(expected);
  });

  it('a flag whose value is "-" (stdin) does not count: the worker has no stdin; allOf needs every one', () => {
    expect(ruleHolds({ anyOf: ['fromCsv'] }, { fromCsv: '-' }, false, undefined)).toBe(false);
    expect(ruleHolds({ anyOf: ['fromCsv'] }, { fromCsv: 'a.csv' }, true, undefined)).toBe(true);
    expect(ruleHolds({ anyOf: ['fromCsv'], allOf: ['entity'] }, { fromCsv: 'a.csv' }, false, undefined)).toBe(false);
    expect(ruleHolds({ anyOf: ['fromCsv'], allOf: ['entity'] }, { fromCsv: 'a.csv', entity: 'E' }, false, undefined)).toBe(true);
  });
});
