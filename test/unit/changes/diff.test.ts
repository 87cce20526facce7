// The diff of src/changes/: tokens (NFC, exact numbers, null as missing),
// the earlier files read by content, and the state file's damage checks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBaseline } from '../../../src/changes/baseline.js';
import { changedPaths, typedTokens } from '../../../src/changes/compare.js';
import { diffRecords } from '../../../src/changes/diff.js';
import { parseState, stateText, StateDamage } from '../../../src/changes/state-format.js';
import { parseJsonExact } from '../../../src/json/parse-exact.js';

const dir = mkdtempSync(join(tmpdir(), 'partner-changes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('tokens', () => {
  it('NFC text, numbers by value as sent (past 2^53 too), null as missing, nested dot paths', () => {
    const a = parseJsonExact('{"id":"1","n":9007199254740993,"p":1.50,"name":"Zoë","x":null,"r":{"lines":["a"]}}');
    const b = parseJsonExact('{"id":"1","n":9007199254740992,"p":1.5,"name":"Zoe\u0308","r":{"lines":["b"]}}');
    expect(changedPaths(typedTokens(a), typedTokens(b), 'typed')).toEqual(['n', 'r.lines.0']);
  });
});

describe('earlier files, by content', () => {
  it('NDJSON, JSON {data}, CSV; a "__proto__" column builds no prototype; a repeated id is refused', async () => {
    const nd = await readBaseline(write('a.ndjson', '{"id":"1","v":1}\n{"id":"2","v":2}\n'), '--changes-since');
    expect([nd.kind, [...nd.records.keys()]]).toEqual(['ndjson', ['1', '2']]);
    const doc = await readBaseline(write('a.json', '{"data":[{"id":"1"}],"pagination":{}}'), '--changes-since');
    expect(doc.kind).toBe('json');
    const csv = await readBaseline(write('a.csv', '\ufeffid,reportsTo.id\r\n1,x\r\n'), '--changes-since');
    expect([csv.kind, csv.records.get('1')]).toEqual(['csv', { id: '1', reportsTo: { id: 'x' } }]);
    await expect(readBaseline(write('p.csv', 'id,__proto__.x\r\n1,2\r\n'), '--changes-since')).rejects.toMatchObject({ code: 'CHANGES_FILE_INVALID' });
    await expect(readBaseline(write('d.ndjson', '{"id":"1"}\n{"id":"1"}\n'), '--changes-since')).rejects.toMatchObject({ code: 'CHANGES_DUPLICATE_ID' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('diff: added, changed with paths, removed with last values', async () => {
    const base = await readBaseline(write('b.ndjson', '{"id":"1","v":1}\n{"id":"2","v":2}\n'), '--changes-since');
    const now = new Map<string, unknown>([['2', { id: '2', v: 3 }], ['3', { id: '3', v: 1 }]]);
    const { rows, counts } = diffRecords(now, base);
    expect(rows).toEqual([
      { change: 'changed', changedFields: ['v'], id: '2', v: 3 },
      { change: 'added', id: '3', v: 1 },
      { change: 'removed', id: '1', v: 1 },
    ]);
    expect(counts).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 0 });
  });
});

describe('state file', () => {
  const header = { partnerState: 1, command: 'employees list', baseUrl: 'http://x', company: null, filters: {}, records: 1, takenAt: 't' };
  it('reads back what it wrote, numbers exact; a cut or edited one is damage', () => {
    const text = stateText(header, ['{"id":"1","n":12345678901234567890}']);
    expect(String((parseState(text, 's').records.get('1') as { n: unknown }).n)).toBe('12345678901234567890');
    expect(() => parseState(text.slice(0, -30), 's')).toThrow(StateDamage);
    expect(() => parseState(text.replace('"n":1', '"n":2'), 's')).toThrow(/checksum/);
  });
});
