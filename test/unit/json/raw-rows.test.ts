import { describe, expect, it } from 'vitest';
import { testIO } from '../../../src/io.js';
import { batched } from '../../../src/output/batch.js';
import { dataRows, rawRows, rememberRawRows } from '../../../src/json/raw-rows.js';
import { writeList, type ListSpec } from '../../../src/output/writer.js';

const spec: ListSpec = { columns: [{ key: 'id' }], csvColumns: [{ key: 'id' }] };

/** A page as a server sends it, parsed, with each row's text remembered as listEmployees does. */
function page(text: string): unknown[] {
  const body = JSON.parse(text) as { data: unknown[] };
  rememberRawRows(text, body.data);
  return body.data;
}

describe('dataRows', () => {
  it('finds each row of the top-level "data" array, wherever the member is', () => {
    expect(dataRows('{"data":[{"id":"a","n":[1,{"x":"]}"}]},{"id":"b"}],"pagination":{"p":1}}')).toEqual(['{"id":"a","n":[1,{"x":"]}"}]}', '{"id":"b"}']);
    expect(dataRows('{"pagination":{"p":[1, 2]},"x":"y","n":-1.5e3,"t":true,"data":[{"id":"a"}]}')).toEqual(['{"id":"a"}']);
    expect(dataRows(' {\n "data" : [ {"id":"a"} ,\n {"id":"b"} ] , "z": null }\n')).toEqual(['{"id":"a"}', '{"id":"b"}']);
    expect(dataRows('{"data":[]}')).toEqual([]);
  });

  it('reads strings with escaped quotes and backslashes', () => {
    expect(dataRows('{"data":[{"id":"a\\"}","v":"b\\\\"},{"id":"c"}]}')).toEqual(['{"id":"a\\"}","v":"b\\\\"}', '{"id":"c"}']);
  });

  it('gives up on anything it cannot vouch for', () => {
    expect(dataRows('{"data":[{"id": "a"}]}')).toBeUndefined(); // whitespace inside a row: not one compact line
    expect(dataRows('{"data":[{"id":"a",\n"b":1}]}')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"}],"data":[{"id":"b"}]}')).toBeUndefined(); // which one JSON.parse keeps is not guessed
    expect(dataRows('{"data":[1,2]}')).toBeUndefined(); // rows that are not objects
    expect(dataRows('{"pagination":{}}')).toBeUndefined();
    expect(dataRows('[{"id":"a"}]')).toBeUndefined();
    expect(dataRows('{}')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"}]} x')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"}]')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"}')).toBeUndefined();
    expect(dataRows('{"data":[{"id":"a"};')).toBeUndefined();
    expect(dataRows('{"data":{"id":"a"}}')).toBeUndefined();
    expect(dataRows('{"data" [{"id":"a"}]}')).toBeUndefined();
    expect(dataRows('{data:[{"id":"a"}]}')).toBeUndefined();
    expect(dataRows('{"x":,"data":[]}')).toBeUndefined();
    expect(dataRows('{"x":"open')).toBeUndefined();
    expect(dataRows('{"x":1;"data":[]}')).toBeUndefined();
    expect(dataRows('{"x":{"y":1},"data":[{"id":"a"}]')).toBeUndefined();
    // Each check on its own (each input passes every other one).
    expect(dataRows('"data":[{"id":"a"}]}')).toBeUndefined(); // no opening brace
    expect(dataRows('{1":[],"data":[{"id":"a"}]}')).toBeUndefined(); // a key that is not a string
    expect(dataRows('{"data"x[{"id":"a"}]}')).toBeUndefined(); // no colon after the key
  });

  it('takes only the member named exactly "data"', () => {
    expect(dataRows('{"x":[{"id":"z"}],"data":[{"id":"a"}]}')).toEqual(['{"id":"a"}']);
    expect(dataRows('{"abcd":[{"id":"z"}],"data":[{"id":"a"}]}')).toEqual(['{"id":"a"}']);
    expect(dataRows('{"dat\\a":[{"id":"z"}],"data":[{"id":"a"}]}')).toEqual(['{"id":"a"}']);
  });
});

describe('rememberRawRows', () => {
  it("keeps each row's own text, by page, without touching the rows", () => {
    const rows = page('{"data":[{"id":"a","n":1},{"id":"b","n":2}],"pagination":{}}');
    expect(rawRows(rows)).toEqual(['{"id":"a","n":1}', '{"id":"b","n":2}']);
    expect(Object.keys(rows[0] as object)).toEqual(['id', 'n']);
    // Kept on the page itself, out of sight: not a key, not in its JSON, not carried by a copy.
    expect(Object.keys(rows)).toEqual(['0', '1']);
    expect(JSON.stringify(rows)).toBe('[{"id":"a","n":1},{"id":"b","n":2}]');
    expect(rawRows([...rows])).toBeUndefined();
    // Remembered again (the same array read from another body): the last body counts.
    rememberRawRows('{"data":[{"id":"a","n":3},{"id":"b","n":4}]}', rows);
    expect(rawRows(rows)).toEqual(['{"id":"a","n":3}', '{"id":"b","n":4}']);
    // Another array (a page cut by --limit, or with repeats skipped) is not that page.
    expect(rawRows(rows.slice(0, 1))).toBeUndefined();
    rows.push({ id: 'c' });
    expect(rawRows(rows)).toBeUndefined();
  });

  it('keeps nothing when rows and items do not match up', () => {
    const text = '{"data":[{"id":"a"},{"id":"b"}]}';
    const cases: unknown[][] = [[{ id: 'a' }, { id: 'x' }], [{ id: 'a' }], [{ id: 'a' }, null], [[1], { id: 'b' }], [{ id: 'a' }, 'b']];
    for (const items of cases) {
      rememberRawRows(text, items);
      expect(rawRows(items)).toBeUndefined();
    }
    const numericId = [{ id: 1 }];
    rememberRawRows('{"data":[{"id":1}]}', numericId);
    expect(rawRows(numericId)).toBeUndefined();
    // An id that is not a string is refused as such, even where its digits appear as a string id.
    const shadowed = [{ id: 1, x: { id: '1' } }];
    rememberRawRows('{"data":[{"id":1,"x":{"id":"1"}}]}', shadowed);
    expect(rawRows(shadowed)).toBeUndefined();
    // Fewer rows in the text than items.
    const more = [{ name: 'a' }, { name: 'b' }];
    rememberRawRows('{"data":[{"name":"a"}]}', more);
    expect(rawRows(more)).toBeUndefined();
    const pretty = [{ id: 'a' }];
    rememberRawRows('{"data":[{"id": "a"}]}', pretty);
    expect(rawRows(pretty)).toBeUndefined();
  });

  it('rows without an id are kept as they came', () => {
    expect(rawRows(page('{"data":[{"name":"n"}]}'))).toEqual(['{"name":"n"}']);
    expect(rawRows([])).toBeUndefined();
  });
});

describe('writeList with rows as they came', () => {
  async function render(format: 'ndjson' | 'json' | 'csv', rows: unknown[][], extra: { fields?: string[] } = {}, tty = false) {
    const io = testIO({ tty });
    const n = await writeList(io, io.stdout, batched((async function* () { yield* rows; })()), { ...spec, pagination: format === 'json' ? () => ({ p: 1 }) : undefined }, { format, ...extra });
    return { out: io.out(), n };
  }

  it('-o ndjson writes the text each row came in, a page at a time, made safe to print', async () => {
    // A C1 control and a bidi override survive JSON.stringify raw; written as \u escapes either way.
    const p1 = page('{"data":[{"id":"a","t":"\u009b31m\u202e"},{"id":"b","n":1.50}]}');
    const p2 = page('{"data":[{"id":"c"}]}');
    const { out, n } = await render('ndjson', [p1, p2]);
    expect(n).toBe(3);
    expect(out).toBe('{"id":"a","t":"\\u009b31m\\u202e"}\n{"id":"b","n":1.50}\n{"id":"c"}\n');
    expect(out.split('\n').slice(0, 3).map((l) => JSON.parse(l))).toEqual([{ id: 'a', t: '\u009b31m\u202e' }, { id: 'b', n: 1.5 }, { id: 'c' }]);
  });

  it('-o json too; with --fields the rows are picked and serialised', async () => {
    const rows = page('{"data":[{"id":"a","n":1.0},{"id":"b","n":2}]}');
    expect((await render('json', [rows])).out).toBe('{\n  "data": [\n    {"id":"a","n":1.0},\n    {"id":"b","n":2}\n  ],\n  "pagination": {"p":1}\n}\n');
    expect((await render('ndjson', [rows], { fields: ['n'] })).out).toBe('{"n":1}\n{"n":2}\n');
  });

  it('rows not remembered are serialised; empty pages write nothing', async () => {
    const { out, n } = await render('ndjson', [[], [{ id: 'z', v: '\u0085' }], []]);
    expect(n).toBe(1);
    expect(out).toBe('{"id":"z","v":"\\u0085"}\n');
  });

  it('read item by item (CSV, a table), a batched list is its rows in order', async () => {
    const { out, n } = await render('csv', [[{ id: 'a' }, { id: 'b' }], [], [{ id: 'c' }]]);
    expect(n).toBe(3);
    expect(out).toBe('id\r\na\r\nb\r\nc\r\n');
  });
});
