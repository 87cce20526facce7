// The output object: resolved once from the output flags and the terminals.
import { describe, expect, it } from 'vitest';
import { listen } from '../../../src/commands/webhook/listen.js';
import { renderHelp } from '../../../src/help.js';
import { errorFormatOf, resolveOutput, type OutputSpec } from '../../../src/output/options.js';
import { errorFormat } from '../../../src/output/error-format.js';
import { UsageError } from '../../../src/errors.js';

const PIPED = { stdoutIsTTY: false, stderrIsTTY: false };
const TERMINAL = { stdoutIsTTY: true, stderrIsTTY: true };

describe('-o given a file name', () => {
  const files: OutputSpec = { formats: ['table', 'json', 'csv'], fileFlag: 'outputFile' };
  const hintOf = (raw: Record<string, unknown>, spec: OutputSpec) => {
    try {
      resolveOutput(raw, spec, PIPED);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).code).toBe('INVALID_OPTION');
      expect((err as UsageError).message).toBe(`--output cannot be "${String(raw.output).trim().slice(0, 40)}". Allowed choices are ${spec.formats.join(', ')}.`);
      return (err as UsageError).hint;
    }
    throw new Error('no error');
  };

  it('points a path to the command\'s file flag, with the name typed', () => {
    for (const name of ['out.csv', 'reports/all', ' C:\\x ']) {
      expect(hintOf({ output: name }, files)).toBe(`--output is the format; to write to a file, use --output-file ${name.trim()} (and -o for its format).`);
    }
  });

  it('gives no hint for a word, or where the command writes no file', () => {
    expect(hintOf({ output: 'xml' }, files)).toBeUndefined();
    expect(hintOf({ output: 'out.csv' }, { formats: ['table', 'json'] })).toBeUndefined();
  });

  it('quotes at most 40 characters of a long name, as the message does', () => {
    const long = `${'d/'.repeat(30)}out.csv`;
    expect(hintOf({ output: long }, files)).toBe(`--output is the format; to write to a file, use --output-file ${long.slice(0, 40)} (and -o for its format).`);
  });
});

describe('resolveOutput: the format without -o', () => {
  const stream: OutputSpec = { formats: ['table', 'ndjson'], piped: 'ndjson' };
  it('table on a terminal; piped, JSON unless the spec streams records (ndjson)', () => {
    expect(resolveOutput({}, stream, TERMINAL).format).toBe('table');
    expect(resolveOutput({}, stream, PIPED).format).toBe('ndjson');
    expect(resolveOutput({}, { formats: ['table', 'json'] }, PIPED).format).toBe('json');
    expect(resolveOutput({ output: 'table' }, stream, PIPED).format).toBe('table');
  });
  it('--jq means JSON; a file (the spec names its flag) is never a terminal; a file format stays one', () => {
    const list: OutputSpec = { formats: ['table', 'json', 'ndjson', 'csv'], fileFlag: 'outputFile' };
    expect(resolveOutput({ jq: '.' }, list, TERMINAL)).toMatchObject({ format: 'json', chosen: true });
    expect(resolveOutput({ outputFile: 'x.json' }, list, TERMINAL)).toMatchObject({ format: 'json', toFile: true, chosen: false });
    expect(resolveOutput({}, list, TERMINAL)).toMatchObject({ format: 'table', toFile: false });
    expect(resolveOutput({}, { formats: ['csv', 'json'], default: 'csv' }, TERMINAL).format).toBe('csv');
  });
  it('a switch that prints a JSON document (gp create --dry-run) makes the format JSON on a terminal too', () => {
    const create: OutputSpec = { formats: ['table', 'json'], jsonFlag: 'dryRun' };
    expect(resolveOutput({ dryRun: true }, create, TERMINAL).format).toBe('json');
    expect(resolveOutput({}, create, TERMINAL).format).toBe('table');
    expect(errorFormatOf({ dryRun: true }, create, PIPED)).toBe('json');
  });
  it('webhook listen declares ndjson when piped, and its help says so', () => {
    expect(listen.output?.piped).toBe('ndjson');
    expect(renderHelp({ kind: 'command', def: listen, path: ['webhook', 'listen'] }, [], 200)).toMatch(/default: table on a terminal, ndjson when piped/);
  });
});

describe('resolveOutput: fields known before the command runs', () => {
  const spec: OutputSpec = { formats: ['table', 'json', 'ndjson', 'csv'], recordFields: ['employeeCode', 'fullName', 'reportsTo'] };
  it('an unknown name is a usage error with did-you-mean and the list of fields', () => {
    const err = (() => {
      try {
        resolveOutput({ fields: 'fullname', output: 'csv' }, spec, PIPED);
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.exitCode).toBe(2);
    expect(err!.code).toBe('UNKNOWN_FIELD');
    expect(err!.message).toMatch(/"fullname" is not a field of this record \(did you mean fullName\?\)/);
    expect(err!.hint).toBe('The fields of this record: employeeCode, fullName, reportsTo.');
  });
  it('dot paths are checked by their first segment', () => {
    expect(resolveOutput({ fields: 'employeeCode,reportsTo.lastName' }, spec, PIPED).fields).toEqual(['employeeCode', 'reportsTo.lastName']);
    expect(() => resolveOutput({ fields: 'boss.lastName' }, spec, PIPED)).toThrow(/"boss\.lastName" is not a field/);
  });
  it('10,000 unknown names give a message of a few names and "and N more"', () => {
    const fields = Array.from({ length: 10_000 }, (_, i) => `nofield${i}`).join(',');
    let message = '';
    try {
      resolveOutput({ fields }, spec, PIPED);
    } catch (e) {
      message = (e as UsageError).message + (e as UsageError).hint;
    }
    expect(message).toMatch(/10,000 names are not fields of this record: nofield0, nofield1, nofield2, nofield3, nofield4 and 9,995 more/);
    expect(message.length).toBeLessThan(400);
  });
});

describe('the error format', () => {
  it('text whenever stderr is a terminal; JSON only when it is not and the data is JSON or NDJSON', () => {
    expect(errorFormat('json', true)).toBe('text');
    expect(errorFormat('ndjson', true)).toBe('text');
    expect(errorFormat('json', false)).toBe('json');
    expect(errorFormat('ndjson', false)).toBe('json');
    expect(errorFormat('csv', false)).toBe('text');
    expect(errorFormat('table', false)).toBe('text');
    expect(errorFormat(undefined, false)).toBe('text');
  });
  it('is part of the output object, and known from raw flags before they are validated', () => {
    const spec: OutputSpec = { formats: ['table', 'json', 'csv'] };
    expect(resolveOutput({}, spec, { stdoutIsTTY: false, stderrIsTTY: true }).errors).toBe('text');
    expect(resolveOutput({}, spec, PIPED).errors).toBe('json');
    expect(resolveOutput({ output: 'csv' }, spec, PIPED).errors).toBe('text');
    expect(errorFormatOf({ output: 'yaml' }, spec, PIPED)).toBe('json');
    expect(errorFormatOf({ jq: '.[' }, spec, { stdoutIsTTY: true, stderrIsTTY: false })).toBe('json');
    expect(errorFormatOf({ jq: '.[' }, spec, TERMINAL)).toBe('text');
    expect(errorFormatOf({}, undefined, PIPED)).toBe('text');
  });
});

describe('resolveOutput: --bom', () => {
  const list: OutputSpec = { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, fileFlag: 'outputFile' };
  it('applies to CSV: chosen with -o, or the command default', () => {
    expect(resolveOutput({ output: 'csv', bom: true }, list, PIPED)).toMatchObject({ format: 'csv', bom: true });
    expect(resolveOutput({ output: 'csv' }, list, PIPED)).toMatchObject({ format: 'csv', bom: false });
    expect(resolveOutput({ bom: true }, { formats: ['csv', 'json'], default: 'csv' }, PIPED)).toMatchObject({ format: 'csv', bom: true });
  });
  it('is a usage error with any other format, --jq or --quiet, decided before anything runs', () => {
    const refused = (raw: Record<string, unknown>, target = PIPED) => {
      try {
        resolveOutput({ bom: true, ...raw }, list, target);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        expect((err as UsageError).code).toBe('BOM_NOT_CSV');
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ output: 'json' })).toBe('--bom applies to CSV output only, not -o json');
    expect(refused({ output: 'ndjson' })).toBe('--bom applies to CSV output only, not -o ndjson');
    expect(refused({ jq: '.' })).toBe('--bom applies to CSV output only, not --jq');
    expect(refused({ output: 'csv', quiet: true })).toBe('--bom applies to CSV output only, not --quiet');
    expect(refused({})).toBe('--bom applies to CSV output only, not json output (the default here)');
    expect(refused({}, TERMINAL)).toBe('--bom applies to CSV output only, not table output (the default here)');
  });
});
