// The page walk with numbers JSON.parse would change: ids a
// double cannot tell apart are two ids, and counts spelt 100.0 are counts.
import { describe, expect, it } from 'vitest';
import { walkPages, type Page } from '../../../src/api/pages.js';
import { IdSet } from '../../../src/api/id-set.js';
import { judgeWalk, newFindings } from '../../../src/api/walk-audit.js';
import { parseJsonExact } from '../../../src/json/parse-exact.js';
import { LosslessNumber } from '../../../src/json/lossless-number.js';
import { stringifyExact } from '../../../src/json/stringify-exact.js';

/** Pages of two items each, as the server's text, read as http.ts reads an answer. */
function pages(texts: string[]) {
  const asked: number[] = [];
  const fetchPage = async (page: number): Promise<Page<unknown>> => {
    asked.push(page);
    return parseJsonExact(texts[page - 1] ?? '{"data":[],"pagination":{}}') as Page<unknown>;
  };
  return { fetchPage, asked };
}

async function walk(fetchPage: (page: number, signal: AbortSignal) => Promise<Page<unknown>>) {
  const findings = newFindings();
  const rows: string[] = [];
  for await (const item of walkPages(fetchPage, { concurrency: 2, findings })) rows.push(stringifyExact(item));
  return { rows, findings, verdict: judgeWalk(findings) };
}

describe('the page walk with numbers as sent', () => {
  it('keeps two numeric ids a double cannot tell apart (12345678901234567890 and …891): both written, no duplicate', async () => {
    const p = (n: number, ids: string[], total: string) => `{"data":[${ids.map((id) => `{"id":${id}}`).join(',')}],"pagination":{"currentPage":${n},"pageSize":2,"totalPages":2,"totalItems":${total},"hasNextPage":${n < 2}}}`;
    const { fetchPage } = pages([p(1, ['12345678901234567890', '12345678901234567891'], '4'), p(2, ['9007199254740993', '9007199254740992'], '4')]);
    const { rows, findings } = await walk(fetchPage);
    expect(rows).toEqual(['{"id":12345678901234567890}', '{"id":12345678901234567891}', '{"id":9007199254740993}', '{"id":9007199254740992}']);
    expect(findings.duplicates).toBe(0);
    expect(findings.unidentified).toBe(0);
  });

  it('reads counts spelt otherwise (3.0, 2.0, 6E0) as the counts they are: every page, nothing announced missing', async () => {
    const p = (n: number) => `{"data":[{"id":"${n}a"},{"id":"${n}b"}],"pagination":{"currentPage":${n}.0,"pageSize":2.0,"totalPages":3.0,"totalItems":6E0,"hasNextPage":${n < 3}}}`;
    const { fetchPage, asked } = pages([p(1), p(2), p(3)]);
    const { rows, verdict, findings } = await walk(fetchPage);
    expect(rows).toHaveLength(6);
    expect([...asked].sort()).toEqual([1, 2, 3]);
    expect(findings.firstTotal).toBe(6);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });
});

describe('IdSet and numbers as sent', () => {
  it('one id per decimal value: 1.0 is 1, …890 and …891 are two', () => {
    const set = new IdSet();
    expect(set.add(1)).toBe(true);
    expect(set.add(new LosslessNumber('1.0'))).toBe(false);
    expect(set.add(new LosslessNumber('12345678901234567890'))).toBe(true);
    expect(set.add(new LosslessNumber('12345678901234567891'))).toBe(true);
    expect(set.add(new LosslessNumber('1234567890123456789.0e1'))).toBe(false);
    expect(set.has(new LosslessNumber('12345678901234567891'))).toBe(true);
    expect(set.has(new LosslessNumber('12345678901234567892'))).toBe(false);
    expect(set.has(new LosslessNumber('1E0'))).toBe(true);
    expect(set.size).toBe(3);
  });
});
