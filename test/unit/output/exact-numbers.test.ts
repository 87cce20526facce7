// a LosslessNumber (a number of an answer
// JavaScript would print otherwise) is a scalar for every writer and walk,
// printed as the server's text.
import { describe, expect, it } from 'vitest';
import { testIO } from '../../../src/io.js';
import { parseJsonExact } from '../../../src/json/parse-exact.js';
import { LosslessNumber } from '../../../src/json/lossless-number.js';
import { writeList, writeRecord, type ListSpec } from '../../../src/output/writer.js';
import { cellText, csvRecord } from '../../../src/output/csv.js';
import { displayText } from '../../../src/output/cells.js';
import { checkDepth, jsonOf, MAX_DEPTH } from '../../../src/output/depth.js';
import { flatten, getPath, pickFields } from '../../../src/output/fields.js';
import { renderKeyValue } from '../../../src/output/key-value.js';
import { jsonText } from '../../../src/output/sanitize.js';
import { pendingDocumentsText } from '../../../src/commands/trackers/tracker.run.js';

const TEXT = '{"id":"a","big":9007199254740993,"inf":1e400,"one":1.0,"neg":-0,"list":[12345678901234567890,2.50],"boss":{"pay":0.1000000000000000055511151231257827}}';
const record = () => parseJsonExact(TEXT) as Record<string, unknown>;
const spec: ListSpec = { columns: [{ key: 'big' }, { key: 'inf' }, { key: 'list' }, { key: 'boss' }], csvColumns: [{ key: 'big' }, { key: 'inf' }, { key: 'one' }, { key: 'list' }, { key: 'boss' }] };

async function list(format: 'json' | 'ndjson' | 'csv' | 'table', fields?: string[]) {
  const io = testIO({ tty: false });
  await writeList(io, io.stdout, [record()], spec, { format, fields });
  return io.out();
}

describe('writers print a LosslessNumber as the server sent it', () => {
  it('json and ndjson: the record as sent, with --fields too', async () => {
    expect(await list('ndjson')).toBe(`${TEXT}\n`);
    expect(await list('json')).toBe(`[\n  ${TEXT}\n]\n`);
    expect(await list('ndjson', ['big', 'boss.pay'])).toBe('{"big":9007199254740993,"boss":{"pay":0.1000000000000000055511151231257827}}\n');
  });

  it('csv: each number its text, a list of them joined, an object as its JSON', async () => {
    expect(await list('csv')).toBe('big,inf,one,list,boss\r\n9007199254740993,1e400,1.0,12345678901234567890; 2.50,"{""pay"":0.1000000000000000055511151231257827}"\r\n');
    expect(cellText(new LosslessNumber('1e400'))).toBe('1e400');
    expect(csvRecord([new LosslessNumber('-0'), new LosslessNumber('1.0')])).toBe("'-0,1.0\r\n");
  });

  it('table cells and key/value blocks: the text, never a nested block for the number', async () => {
    expect(await list('table')).toContain('9007199254740993  1e400  12345678901234567890, 2.50  {"pay":0.1000000000000000055511151231257827}');
    expect(displayText(new LosslessNumber('1.0'))).toBe('1.0');
    expect(displayText([new LosslessNumber('1.0'), { n: new LosslessNumber('1e400') }])).toBe('1.0, {"n":1e400}');
    expect(renderKeyValue(record())).toBe('id    a\nbig   9007199254740993\ninf   1e400\none   1.0\nneg   -0\nlist  12345678901234567890, 2.50\nboss:\n  pay  0.1000000000000000055511151231257827\n');
  });

  it('a single document (writeRecord) in json, ndjson, csv', async () => {
    for (const [format, want] of [
      ['ndjson', `${TEXT}\n`],
      ['json', `${JSON.stringify(JSON.parse(TEXT.replace(/(-?[\d.]+(?:e\d+)?)(?=[,}\]])/g, '"#$1#"')), null, 2).replace(/"#([^#]*)#"/g, '$1')}\n`],
      ['csv', 'id,big,inf,one,neg,list.0,list.1,boss.pay\r\na,9007199254740993,1e400,1.0,\'-0,12345678901234567890,2.50,0.1000000000000000055511151231257827\r\n'],
    ] as const) {
      const io = testIO({ tty: false });
      await writeRecord(io, io.stdout, record(), { format });
      expect(io.out()).toBe(want);
    }
  });

  it('fields, flatten and the depth bound treat it as one value, not an object', () => {
    const r = record();
    expect(flatten(r)).toMatchObject({ big: r.big, 'list.0': (r.list as unknown[])[0], 'boss.pay': (r.boss as Record<string, unknown>).pay });
    expect(Object.keys(flatten(r))).not.toContain('big.source');
    expect(getPath(r, 'big.source')).toBeUndefined();
    expect(pickFields(r, ['inf'])).toEqual({ inf: r.inf });
    // A number at the deepest level allowed is a value there, not one level more.
    let deep: unknown = new LosslessNumber('1.0');
    for (let k = 0; k < MAX_DEPTH; k++) deep = [deep];
    expect(() => checkDepth(deep)).not.toThrow();
    expect(() => checkDepth([deep])).toThrow(expect.objectContaining({ code: 'NESTED_TOO_DEEP' }));
    expect(jsonOf(deep)).toBe(`${'['.repeat(MAX_DEPTH)}1.0${']'.repeat(MAX_DEPTH)}`);
    expect(jsonText({ n: new LosslessNumber('1e400'), s: '\u009b' })).toBe('{"n":1e400,"s":"\\u009b"}');
  });

  it('pending documents of a tracker: a number or an object in the list as sent', () => {
    expect(pendingDocumentsText({ pendingDocuments: [new LosslessNumber('1e400'), parseJsonExact('{"n":1.0}')] })).toBe('2: 1e400, {"n":1.0}');
  });
});
