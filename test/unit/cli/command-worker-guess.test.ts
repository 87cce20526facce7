// The launcher starts the export's worker thread before it loads the CLI when
// the words look like an export of every page bound for a file or a program
// (bin/command-worker.js); the CLI confirms after parsing. A wrong guess costs
// a worker started for nothing, never a different result (export-worker.test.ts).
import { describe, expect, it } from 'vitest';
import { looksLikeWorkerCommand } from '../../../bin/command-worker.js';

describe('looksLikeWorkerCommand', () => {
  it.each([
    [['employees', 'list', '--all'], false],
    [['employees', 'list', '--all', '-o', 'csv'], false],
    [['--profile', 'p', 'employees', 'list', '--search', 'priya'], false],
    [['employees', 'list', '--search=priya'], false],
    [['employees', 'list', '--all', '--output-file', 'e.csv'], true],
    [['employees', 'list', '--all', '--output-file=e.csv'], true],
  ])('%j goes to a worker when stdout is not a terminal; on a terminal only with --output-file (%s)', (args, onTerminal) => {
    expect(looksLikeWorkerCommand(args, false)).toBe(true);
    expect(looksLikeWorkerCommand(args, true)).toBe(onTerminal);
  });

  it.each([[['employees', 'list']], [['employees', 'list', '--page', '2']], [['employees', 'get', '--all']], [['profile', 'get', '--all']], [['employees', 'list', '--allow-drift']], [['employees', 'list', '--searching']]])('%j does not', (args) => {
    expect(looksLikeWorkerCommand(args, false)).toBe(false);
  });
});
