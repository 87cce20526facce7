import { describe, expect, it } from 'vitest';
import { listen } from '../../../src/commands/webhook/listen.js';
import { renderHelp } from '../../../src/help.js';
import { outputOptions, parseOutputFlags } from '../../../src/output/options.js';
import { testIO } from '../../../src/io.js';

describe('outputOptions: the format without -o', () => {
  const flags = parseOutputFlags({}, { formats: ['table', 'ndjson'] });
  it('table on a terminal; piped, JSON unless the spec streams records (ndjson)', () => {
    expect(outputOptions(flags, testIO({ tty: true }), 'ndjson').format).toBe('table');
    expect(outputOptions(flags, testIO(), 'ndjson').format).toBe('ndjson');
    expect(outputOptions(flags, testIO()).format).toBe('json');
    expect(outputOptions(parseOutputFlags({ output: 'table' }, { formats: ['table', 'ndjson'] }), testIO(), 'ndjson').format).toBe('table');
  });
  it('webhook listen declares ndjson when piped, and its help says so', () => {
    expect(listen.output?.piped).toBe('ndjson');
    expect(renderHelp({ kind: 'command', def: listen, path: ['webhook', 'listen'] }, [], 200)).toMatch(/default: table on a terminal, ndjson when piped/);
  });
});
