import { UsageError } from '../../../src/errors.js';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../../src/io.js';
import { saysEmpty, writeList, writeRecord, type ListSpec } from '../../../src/output/writer.js';
import { batched } from '../../../src/output/batch.js';
import { rememberRawRows } from '../../../src/json/raw-rows.js';
import { failure, nested } from '../../helpers/nested.js';

const items = [
  { id: '1', name: 'Ann', tags: ['a', 'b'], boss: { name: 'Zed' } },
  { id: '2', name: 'Bo, "B"\nJr', tags: [], boss: null },
];
const spec: ListSpec = { columns: [{ key: 'name', header: 'NAME' }], csvColumns: [{ key: 'id' }, { key: 'name' }, { key: 'tags' }] };

async function render(format: 'table' | 'json' | 'ndjson' | 'csv', extra: Partial<Parameters<typeof writeList>[4]> = {}, s: ListSpec = spec, tty = false) {
  const io = testIO({ tty });
  const n = await writeList(io, io.stdout, (async function* () { yield* items; })(), s, { format, ...extra });
  return { out: io.out(), n };
}

describe('writeList', () => {
  it('an empty table says "No results.", or the command\'s own words in its place, once', async () => {
    const empty = async (s: ListSpec, format: 'table' | 'json' = 'table') => {
      const io = testIO({ tty: true });
      await writeList(io, io.stdout, [], s, { format });
      return io.out();
    };
    expect(await empty(spec)).toBe('No results.\n');
    expect(await empty({ ...spec, empty: () => 'No saved drafts.', footer: () => undefined })).toBe('No saved drafts.\n');
    // Other formats print their empty document, never the words.
    expect(await empty({ ...spec, empty: () => 'No saved drafts.' }, 'json')).toBe('[]\n');
    expect([saysEmpty({ format: 'table' }), saysEmpty({ format: 'table', quiet: true }), saysEmpty({ format: 'table', jq: '.' }), saysEmpty({ format: 'json' })]).toEqual([true, false, false, false]);
  });
  it('writes NDJSON one object per line', async () => {
    const { out, n } = await render('ndjson');
    expect(n).toBe(2);
    expect(out.trim().split('\n').map((l) => JSON.parse(l))).toEqual(items);
  });
  it('streams a JSON array, or the {data, pagination} document when the list has pagination', async () => {
    expect(JSON.parse((await render('json')).out)).toEqual(items);
    const doc = await render('json', {}, { ...spec, pagination: () => ({ currentPage: 1 }) });
    expect(JSON.parse(doc.out)).toEqual({ data: items, pagination: { currentPage: 1 } });
  });
  it('writes CSV with a header and RFC 4180 quoting', async () => {
    expect((await render('csv')).out).toBe('id,name,tags\r\n1,Ann,a; b\r\n2,"Bo, ""B""\nJr",\r\n');
  });
  it('honours --fields in every format', async () => {
    expect((await render('csv', { fields: ['boss.name', 'id'] })).out).toBe('boss.name,id\r\nZed,1\r\n,2\r\n');
    expect(JSON.parse((await render('json', { fields: ['boss.name'] })).out)).toEqual([{ boss: { name: 'Zed' } }, { boss: { name: null } }]);
  });
  it('prints a table with one line per row and dashes for empty values', async () => {
    const { out } = await render('table', { fields: ['name', 'boss.name'] }, spec, true);
    // no box borders, columns separated by spaces.
    expect(out).toMatch(/^name +boss\.name\n/);
    expect(out).not.toMatch(/[│┌─]/);
    expect(out).toContain('Bo, "B" ↵ Jr');
    expect(out).toMatch(/Bo.*-/);
  });
  it('shows the table rows read before a failure, then fails with it (what the error says was written was)', async () => {
    const io = testIO({ tty: true });
    const failing = (async function* () {
      yield* items;
      throw new Error('page 3 could not be had');
    })();
    await expect(writeList(io, io.stdout, failing, spec, { format: 'table' })).rejects.toThrow('page 3 could not be had');
    expect(io.out()).toMatch(/^NAME\nAnn\nBo, "B" ↵ Jr\n$/);
  });
  it('prints only ids with quiet', async () => {
    expect((await render('json', { quiet: true })).out).toBe('1\n2\n');
  });
});

describe('CSV headers', () => {
  // A record's keys come from the API: its header row is untrusted cells too.
  it('neutralises a header cell a spreadsheet would run, unless --csv-raw', async () => {
    const io = testIO();
    await writeRecord(io, io.stdout, { ' =HYPERLINK("x")': 1, '@a': [2] }, { format: 'csv' });
    expect(io.out()).toBe(`"' =HYPERLINK(""x"")",'@a.0\r\n1,2\r\n`);
    const raw = testIO();
    await writeRecord(raw, raw.stdout, { '=a': 1 }, { format: 'csv', csvRaw: true });
    expect(raw.out()).toBe('=a\r\n1\r\n');
  });
  it('in a list too, and on a terminal the header is made safe to print', async () => {
    const io = testIO({ tty: true });
    await writeList(io, io.stdout, [{ a: 1 }], { columns: [], csvColumns: [{ key: 'a', header: '-\u200fA' }] }, { format: 'csv' });
    expect(io.out()).toBe("'-\ufffdA\n1\n");
  });
});

describe('writeRecord --fields', () => {
  const doc = { ok: true, checks: [{ name: 'Node.js' }], boss: { name: 'Zed', 'x\u001b[2J': 1 } };
  it('a path the document lacks is a usage error (exit 2) before anything is written, naming the fields there are', async () => {
    const io = testIO();
    const fail = writeRecord(io, io.stdout, doc, { format: 'json', fields: ['ok', 'nope', 'boss.name', 'checks.0.name', 'boss.age'] });
    await expect(fail).rejects.toBeInstanceOf(UsageError);
    await expect(writeRecord(io, io.stdout, doc, { format: 'json', fields: ['nope', 'boss.age'] })).rejects.toThrow(/--fields: 2 paths are not in this output: nope, boss\.age; nothing was written/);
    await expect(writeRecord(io, io.stdout, doc, { format: 'json', fields: ['bos'] })).rejects.toThrow(/did you mean boss\?/);
    expect(io.out()).toBe('');
  });
  it('after a change was made (unknownFields: warn) it warns once, naming the fields there are, and prints the path as null', async () => {
    const io = testIO();
    await writeRecord(io, io.stdout, doc, { format: 'json', fields: ['ok', 'nope', 'boss.name', 'checks.0.name', 'boss.age'] }, { unknownFields: 'warn' });
    expect(JSON.parse(io.out())).toEqual({ ok: true, nope: null, boss: { name: 'Zed', age: null }, checks: { 0: { name: 'Node.js' } } });
    expect(io.err()).toBe('warning: --fields nope, boss.age: not in this output; shown as null. Fields: ok, checks, boss.\n');
  });
  it('says nothing when every path is there, or when the caller checked the fields itself', async () => {
    const io = testIO();
    await writeRecord(io, io.stdout, doc, { format: 'csv', fields: ['ok', 'boss.name'] });
    await writeRecord(io, io.stdout, doc, { format: 'ndjson', fields: ['nope'] }, { unknownFields: 'ignore' });
    expect(io.err()).toBe('');
  });
  it('keeps escape sequences of untrusted field names off the terminal', async () => {
    const io = testIO();
    const hostile = { 'a\u001b]52;c;Zm9v\u0007': 1 };
    await writeRecord(io, io.stdout, hostile, { format: 'json', fields: ['b'] }, { unknownFields: 'warn' });
    expect(io.err()).not.toMatch(/\u001b/);
    const err = await writeRecord(io, io.stdout, hostile, { format: 'json', fields: ['b'] }).catch((e: UsageError) => e);
    expect(`${(err as UsageError).message} ${(err as UsageError).hint}`).not.toMatch(/\u001b|\u0007/);
  });
  it('a first record with 10,000 keys gives a bounded message', async () => {
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const err = (await writeRecord(testIO(), testIO().stdout, wide, { format: 'json', fields: ['zz'] }).catch((e: UsageError) => e)) as UsageError;
    expect(`${err.message}${err.hint}`.length).toBeLessThan(600);
    expect(err.hint).toMatch(/and 9,970 more/);
  });
});

describe('a value nested 100,000 levels deep', () => {
  const rows = () => [{ id: '1', dept: 'ok' }, { id: '2', dept: nested(100_000) }];
  const deepSpec: ListSpec = { columns: [{ key: 'id' }, { key: 'dept', header: 'DEPT' }], csvColumns: [{ key: 'id' }, { key: 'dept' }] };
  const list = (opts: Parameters<typeof writeList>[4], items: unknown[] = rows()) => {
    const io = testIO();
    return writeList(io, io.stdout, items, deepSpec, opts);
  };
  const record = (opts: Parameters<typeof writeRecord>[3]) => {
    const io = testIO();
    return writeRecord(io, io.stdout, { id: '1', personal: { nested: nested(100_000) } }, opts);
  };

  it('in a list: NESTED_TOO_DEEP naming the field for CSV, table, --fields and --jq, never a stack overflow', async () => {
    for (const [opts, path] of [
      [{ format: 'csv' }, 'dept'],
      [{ format: 'table' }, 'dept'],
      [{ format: 'ndjson', fields: ['dept.0'] }, 'dept.0'],
      [{ format: 'json', fields: ['id', 'dept'] }, 'dept'],
      [{ format: 'json', jq: '.[0]' }, '1.dept'],
    ] as [Parameters<typeof writeList>[4], string][]) {
      const err = await failure(() => list(opts));
      expect(err.code, JSON.stringify(opts)).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(new RegExp(`^The value at ${path.replace(/\./g, '\\.')}\\.0\\.0`));
    }
  });

  it('in a list: JSON of rows the API sent as text is that text (no walk); rows without it are walked, and refused', async () => {
    const page = rows();
    const deepText = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    rememberRawRows(`{"data":[{"id":"1","dept":"ok"},{"id":"2","dept":${deepText}}]}`, page);
    const io = testIO();
    await writeList(io, io.stdout, batched((async function* () { yield page; })()), deepSpec, { format: 'ndjson' });
    expect(io.out()).toBe(`{"id":"1","dept":"ok"}\n{"id":"2","dept":${deepText}}\n`);
    expect((await failure(() => list({ format: 'ndjson' }))).code).toBe('NESTED_TOO_DEEP');
    expect((await failure(() => list({ format: 'json' }))).code).toBe('NESTED_TOO_DEEP');
  });

  it('in one record: NESTED_TOO_DEEP naming the field in every format', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'table'] as const) {
      const err = await failure(() => record({ format }));
      expect(err.code, format).toBe('NESTED_TOO_DEEP');
      expect(err.message).toMatch(/^The value at personal\.nested\.0\.0\.0\.… is nested more than 64 levels deep/);
    }
    expect((await failure(() => record({ format: 'csv', fields: ['personal.nested'] }))).message).toMatch(/^The value at personal\.nested\.0\.0/);
  });
});

describe('--bom', () => {
  it('starts CSV with one BOM per stream (list and record), never on a terminal', async () => {
    const spec = { columns: [{ key: 'a' }], csvColumns: [{ key: 'a' }] };
    const piped = testIO();
    await writeList(piped, piped.stdout, [{ a: 'é' }], spec, { format: 'csv', bom: true });
    await writeRecord(piped, piped.stdout, { a: 'ü' }, { format: 'csv', bom: true });
    expect(piped.out()).toBe('\ufeffa\r\né\r\na\r\nü\r\n');
    const plain = testIO();
    await writeList(plain, plain.stdout, [{ a: 'é' }], spec, { format: 'csv' });
    expect(plain.out()).toBe('a\r\né\r\n');
    const tty = testIO({ tty: true });
    await writeList(tty, tty.stdout, [{ a: 'é' }], spec, { format: 'csv', bom: true });
    expect(tty.out()).toBe('a\né\n');
  });
});
