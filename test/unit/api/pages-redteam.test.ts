// The page walker against the red team's servers of (200 employees,
// 20 a page, so 10 pages): totals missing, wrong or far too big, ids that are
// not strings, page numbers off by one. The end-to-end versions are in
// test/e2e/export-misbehaving.test.ts; these pin the logic case by case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkPages, type Page } from '../../../src/api/pages.js';
import { judgeWalk, newFindings, settleWalk, type WalkFindings } from '../../../src/api/walk-audit.js';
import { server, uuid, walk, type Item } from '../../helpers/page-server.js';

const messageOf = (v: ReturnType<typeof judgeWalk>) => (v.kind === 'ok' ? undefined : v.message);
/** Page p's items of a 20-a-page list. */
const pageOf = (all: Item[], p: number) => all.slice((p - 1) * 20, p * 20);
const none = undefined as unknown as number;

describe('repeats without a total to check them against', () => {
  it('totalItems missing, "200" or 200.5, page 3 repeating page 1: the repeats are a problem, not a warning', async () => {
    for (const bad of [undefined, '200', 200.5]) {
      const s = server(200, 20, { items: (p, all) => pageOf(all, p === 3 ? 1 : p), pagination: () => ({ totalItems: bad as unknown as number }) });
      const { ids, findings, verdict } = await walk(s.fetchPage);
      expect(ids).toHaveLength(180);
      expect(findings.announcedPages).toBe(10);
      expect(messageOf(verdict)).toBe(
        "The server's pages do not add up: 20 employees already sent on earlier pages came again (page 3) and were written once; with no total announced, nothing shows that no employee was missed; 180 rows written.",
      );
    }
  });

  it('a total first given on page 2 is no change of the company (there was none to change from)', async () => {
    const s = server(200, 20, { pagination: (p) => ({ totalItems: p === 1 ? none : 200 }) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(200);
    expect(findings.changedTotal).toBeUndefined();
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('no totals at all and a page that repeats part of another: a problem too', async () => {
    const s = server(60, 20, {
      items: (p, all) => (p === 2 ? [...pageOf(all, 1).slice(0, 5), ...pageOf(all, 2).slice(5)] : pageOf(all, p)),
      pagination: (p) => ({ totalItems: none, totalPages: none, hasNextPage: p < 3 }),
    });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(55);
    expect(messageOf(verdict)).toContain('5 employees already sent on earlier pages came again (page 2) and were written once; with no total announced');
  });
});

describe('totals short of the data while hasNextPage says more', () => {
  const short = (fake: Parameters<typeof server>[2] = {}) => server(200, 20, { pagination: () => ({ totalPages: 5, totalItems: 100, hasNextPage: true }), ...fake });

  it('the page after the last announced is read once; its new rows are reported and written, nothing chased further', async () => {
    const s = short();
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual(s.all.slice(0, 120).map((x) => x.id));
    expect(s.log.filter((p) => p > 5)).toEqual([6]);
    expect(findings.pastEnd).toEqual({ page: 6, rows: 20 });
    expect(findings.nextPageClaimedAt).toBeUndefined();
    expect(verdict.warnings).toEqual([]);
    expect(messageOf(verdict)).toBe(
      "The server's pages do not add up: page 5 said it had a next page, past the 5 pages announced, and page 6 held 20 more employees; stopped there; 120 employees found, more than the 100 announced; 120 rows written.",
    );
  });

  it('without totalItems too: still reported (the count of pages was short)', async () => {
    const s = short({ pagination: () => ({ totalPages: 5, totalItems: none, hasNextPage: true }) });
    const { findings, verdict } = await walk(s.fetchPage, 2);
    expect(findings.pastEnd).toEqual({ page: 6, rows: 20 });
    expect(messageOf(verdict)).toBe("The server's pages do not add up: page 5 said it had a next page, past the 5 pages announced, and page 6 held 20 more employees; stopped there; 120 rows written.");
  });

  it('a next page that only repeats earlier rows, or answers for another page, leaves the warning only', async () => {
    const repeats = short({ items: (p, all) => pageOf(all, p === 6 ? 2 : p) });
    const r = await walk(repeats.fetchPage);
    expect(r.ids).toHaveLength(100);
    expect(r.findings.pastEnd).toBeUndefined();
    expect(r.findings.duplicates).toBe(0);
    expect(r.verdict).toEqual({ kind: 'ok', warnings: ['The server said page 5 had a next page, past the 5 pages it announced; stopped there.'] });
    const other = short({ pagination: (p) => ({ totalPages: 5, totalItems: 100, hasNextPage: true, currentPage: Math.min(p, 5) }) });
    const o = await walk(other.fetchPage);
    expect(o.ids).toHaveLength(100);
    expect(other.log.filter((p) => p > 5)).toEqual([6]);
    expect(o.verdict).toEqual(r.verdict);
  });

  it('a next page the server refuses (404 past its end) leaves the warning only; a walk stopped meanwhile still stops', async () => {
    const s = short();
    const refusing = async (p: number) => {
      if (p === 6) throw new Error('404 page out of range');
      return s.fetchPage(p);
    };
    const r = await walk(refusing);
    expect(r.ids).toHaveLength(100);
    expect(r.verdict).toEqual({ kind: 'ok', warnings: ['The server said page 5 had a next page, past the 5 pages it announced; stopped there.'] });
    const controller = new AbortController();
    const hanging = (p: number, signal: AbortSignal): Promise<Page<Item>> =>
      p === 6 ? new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('page 6 cancelled')))) : s.fetchPage(p);
    const walking = (async () => {
      for await (const _ of walkPages(hanging, { onPage: (n) => n === 5 && setTimeout(() => controller.abort(), 5), signal: controller.signal })) void _;
    })();
    // The read past the end fails because the walk was stopped: that failure is the walk's, not a refusal.
    await expect(walking).rejects.toThrow('page 6 cancelled');
  });

  it('items without an id on the page past the end: counted from that page, not written', async () => {
    const s = short({ items: (p, all) => (p === 6 ? [{} as Item] : pageOf(all, p)) });
    const { ids, findings } = await walk(s.fetchPage);
    expect(ids).toHaveLength(100);
    expect(findings.unidentified).toBe(1);
    expect(findings.unidentifiedPage).toBe(6);
  });

  it('--limit met on the page past the end: the walk stops there, unjudged', async () => {
    const s = short();
    const { ids, findings, verdict } = await walk(s.fetchPage, 2, { limit: 110 });
    expect(ids).toHaveLength(110);
    expect(findings.complete).toBe(false);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('a next page under another total is the company changing (drift), and it is read again with the others', async () => {
    const s = short({ pagination: (p) => ({ totalPages: 5, totalItems: p === 6 ? 120 : 100, hasNextPage: true }) });
    const { findings, verdict } = await walk(s.fetchPage);
    expect(findings.changedTotal).toEqual({ page: 6, total: 120 });
    expect(verdict.kind).toBe('drift');
    // Pages 1-5 were read under the old total: read once more.
    expect(s.log.slice(6).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('ids that are numbers, missing or no ids at all', () => {
  const numeric = (p: number) => Array.from({ length: 20 }, (_, i) => ({ id: (p - 1) * 20 + i + 1 }) as unknown as Item);

  it('numeric ids are de-duplicated: page 3 repeating page 1 is 20 duplicates, 180 rows', async () => {
    const s = server(200, 20, { items: (p) => numeric(p === 3 ? 1 : p) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(180);
    expect(new Set(ids).size).toBe(180);
    expect(findings.duplicates).toBe(20);
    expect(findings.unidentified).toBe(0);
    expect(messageOf(verdict)).toContain('180 of the 200 employees announced were found');
  });

  it('the number 7 and the text "7" are two employees', async () => {
    const s = server(2, 2, { items: () => [{ id: 7 } as unknown as Item, { id: '7' }] });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual([7, '7']);
    expect(verdict.kind).toBe('ok');
  });

  it('ids null from page 2 on: counted from the first such page, and the verdict says at-most-once went unchecked', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 1 ? pageOf(all, 1) : pageOf(all, p === 3 ? 1 : p).map(() => ({ id: null }) as unknown as Item)) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(200);
    expect(findings.unidentified).toBe(180);
    expect(findings.unidentifiedPage).toBe(2);
    expect(messageOf(verdict)).toBe("The server's pages do not add up: 180 items came without a usable id (first on page 2): nothing shows that no employee was written twice; 200 rows written.");
  });

  it('an item without an id read again (a short page) is counted, never written twice', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 4 ? Array.from({ length: 10 }, () => ({}) as Item) : pageOf(all, p)) });
    const { ids, findings } = await walk(s.fetchPage);
    expect(s.log.filter((p) => p === 4)).toHaveLength(2);
    expect(ids).toHaveLength(190);
    expect(findings.unidentified).toBe(20);
    expect(findings.recovered).toBe(0);
  });

  it('no totals and no ids: the first page stops the walk (nothing would end it), instead of following hasNextPage forever', async () => {
    const s = server(200, 20, { items: () => Array.from({ length: 20 }, () => ({}) as Item), pagination: () => ({ totalItems: none, totalPages: none, hasNextPage: true }) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(s.log).toEqual([1]);
    expect(ids).toHaveLength(20);
    expect(messageOf(verdict)).toBe('Page 1 had no new employee with a usable id, and the server announced no page count; 20 rows written.');
  });

  it('no totals: after rows without ids were written, a page of repeats still stops the walk', async () => {
    const mixed = (all: Item[]) => [...pageOf(all, 1).slice(0, 15), ...Array.from({ length: 5 }, () => ({}) as Item)];
    const s = server(200, 20, { items: (_p, all) => mixed(all), pagination: () => ({ totalItems: none, totalPages: none, hasNextPage: true }) });
    const { ids, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(25);
    expect(messageOf(verdict)).toBe('Page 2 had no new employee with a usable id, and the server announced no page count; 25 rows written.');
  });

  it('no totals and a page of items that are no objects: stopped as well', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 2 ? [null as unknown as Item] : pageOf(all, p)), pagination: () => ({ totalItems: none, totalPages: none, hasNextPage: true }) });
    const { ids, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(20);
    expect(messageOf(verdict)).toBe('Page 2 had no new employee with a usable id, and the server announced no page count; 20 rows written.');
  });
});

describe('a server that announces far more than it has: never endless', () => {
  const overAnnounced = (total: number, pagination: Partial<Page<Item>['pagination']>) =>
    server(total, 20, { items: (p, all) => (p <= 10 ? pageOf(all, p) : []), pagination: () => ({ hasNextPage: true, ...pagination }) });

  for (const [name, pagination, of] of [
    ['totalPages 1,000,000', { totalPages: 1_000_000, totalItems: none }, '1,000,000'],
    ['totalItems 1e9 and no totalPages', { totalPages: none, totalItems: 1e9 }, '50,000,000'],
  ] as const) {
    it(`${name}: two empty pages in a row end it, with a handful of requests`, async () => {
      const s = overAnnounced(200, pagination);
      const { ids, findings, verdict } = await walk(s.fetchPage);
      expect(ids).toHaveLength(200);
      expect(findings.overAnnounced).toEqual({ page: 11, empty: true });
      expect(findings.shortPages).toEqual([]);
      expect(findings.complete).toBe(true);
      // Pages 1-12, 11 and 12 twice, and what the window (4 in flight, 2 held) had asked for.
      expect(s.log.length).toBeLessThanOrEqual(14 + 6);
      expect(messageOf(verdict)).toContain(`page 11 of ${of} was empty (read twice), and so was page 12: the server announced more pages than it has; stopped; `);
    });
  }

  it('pages past the data that repeat the last one (a server that clamps `page`): two of them end it too', async () => {
    const s = server(200, 20, { items: (p, all) => pageOf(all, Math.min(p, 10)), pagination: () => ({ totalPages: 1_000_000, totalItems: none, hasNextPage: true }) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(200);
    expect(findings.overAnnounced).toEqual({ page: 11, empty: false });
    expect(s.log.length).toBeLessThanOrEqual(12 + 8);
    expect(messageOf(verdict)).toBe(
      "The server's pages do not add up: page 11 of 1,000,000 brought no employee not already written, and neither did page 12: the server announced more pages than it has; stopped; 40 employees already sent on earlier pages came again (pages 11, 12) and were written once; with no total announced, nothing shows that no employee was missed; 200 rows written.",
    );
  });

  it('an empty page, then one of repeats: not both empty, said as such', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 11 ? [] : pageOf(all, Math.min(p, 10))), pagination: () => ({ totalPages: 1_000_000, totalItems: none, hasNextPage: true }) });
    const { findings } = await walk(s.fetchPage, 1);
    expect(findings.overAnnounced).toEqual({ page: 11, empty: false });
    // The empty page was read again, the full one of repeats was not.
    expect(s.log.filter((p) => p === 11)).toHaveLength(2);
    expect(s.log.filter((p) => p === 12)).toHaveLength(1);
  });

  it('a page of repeats, then an empty one: the same', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 12 ? [] : pageOf(all, Math.min(p, 10))), pagination: () => ({ totalPages: 1_000_000, totalItems: none, hasNextPage: true }) });
    const { findings } = await walk(s.fetchPage, 1);
    expect(findings.overAnnounced).toEqual({ page: 11, empty: false });
  });

  it('a short last page before the empty ones is still named; only the first of the two empty ones is dropped from the list', async () => {
    const s = overAnnounced(195, { totalPages: 1_000_000, totalItems: none });
    const { ids, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(195);
    expect(messageOf(verdict)).toBe(
      "The server's pages do not add up: page 11 of 1,000,000 was empty (read twice), and so was page 12: the server announced more pages than it has; stopped; page 10 of 1,000,000 had 15 employees instead of 20 (read twice); 195 rows written.",
    );
  });

  it('an empty first page is one empty page, not two: the walk goes on', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 1 ? [] : pageOf(all, p)) });
    const { ids, findings } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(180);
    expect(findings.overAnnounced).toBeUndefined();
    expect(findings.shortPages).toEqual([{ page: 1, got: 0, expected: 20 }]);
  });

  it('empty pages apart from each other do not end it', async () => {
    const s = server(200, 20, { items: (p, all) => (p === 2 || p === 4 ? [] : pageOf(all, p)) });
    const { ids, findings } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(160);
    expect(findings.overAnnounced).toBeUndefined();
    expect(findings.shortPages.map((x) => x.page)).toEqual([2, 4]);
  });

  it('a page that had rows and then none is a short page, not an empty one', async () => {
    let reads = 0;
    const s = overAnnounced(200, { totalPages: 1_000_000, totalItems: none });
    const fetchPage = async (p: number) => {
      const r = await s.fetchPage(p);
      return p === 11 && reads++ === 0 ? { ...r, data: [{ id: uuid(999) }] } : r;
    };
    const { findings } = await walk(fetchPage, 1);
    // 11 had a row, then none; 12 and 13 were empty twice.
    expect(findings.overAnnounced).toEqual({ page: 12, empty: true });
    expect(findings.shortPages).toEqual([{ page: 11, got: 0, expected: 20 }]);
  });
});

describe("page 1's totalPages and totalItems disagree", () => {
  it('totalPages 1,000,000 with totalItems 200: the walk goes by the 10 pages, and it is reported', async () => {
    const s = server(200, 20, { items: (p, all) => pageOf(all, p), pagination: (p) => ({ totalPages: 1_000_000, hasNextPage: p < 1_000_000 }) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(200);
    expect(findings.countsDisagree).toEqual({ pages: 1_000_000, items: 200 });
    expect(findings.announcedPages).toBe(10);
    expect(Math.max(...s.log)).toBe(11);
    expect(messageOf(verdict)).toBe("The server's pages do not add up: page 1 announced 1,000,000 pages but 200 employees, which fill 10 pages of 20; the walk went by the smaller; 200 rows written.");
  });

  it('totalPages 5 with totalItems 200: 5 pages, and a total that grows moves the end by the growth only', async () => {
    // From page 3 on the total is 220: one page more than the 5 believed, not 11.
    const s = server(220, 20, { pagination: (p) => ({ totalPages: 5, totalItems: p < 3 ? 200 : 220, hasNextPage: false }) });
    const { findings } = await walk(s.fetchPage, 1);
    expect(findings.countsDisagree).toEqual({ pages: 5, items: 200 });
    expect(Math.max(...s.log)).toBe(6);
  });

  it('no pageSize in the answers, but page 1 as full as asked: the size is known, and the disagreement found', async () => {
    const s = server(200, 20, { items: (p, all) => pageOf(all, p), pagination: (p) => ({ pageSize: none, totalPages: 1_000_000, hasNextPage: p < 10 }) });
    const { findings } = await walk(s.fetchPage, 4, { pageSize: 20 });
    expect(findings.countsDisagree).toEqual({ pages: 1_000_000, items: 200 });
    expect(Math.max(...s.log)).toBe(10);
  });

  it('an empty list saying 1 page, or totals with no page size from the server, is no disagreement', async () => {
    const empty = server(0, 20, { pagination: () => ({ totalPages: 1 }) });
    const e = await walk(empty.fetchPage);
    expect(e.findings.countsDisagree).toBeUndefined();
    expect(e.verdict).toEqual({ kind: 'ok', warnings: [] });
    expect(empty.log).toEqual([1]);
    // The server uses 100 a page and does not say so; 500 were asked for: its totalPages is believed.
    const unsized = server(1000, 100, { pagination: () => ({ pageSize: none }) });
    const u = await walk(unsized.fetchPage, 4, { pageSize: 500 });
    expect(u.findings.countsDisagree).toBeUndefined();
    expect(u.ids).toHaveLength(1000);
  });
});

describe('an answer for another page: what was seen, and a guess only where every answer fits it', () => {
  it('currentPage one less than asked from the start: it seems to number pages from 0', async () => {
    const s = server(200, 20, { pagination: (p) => ({ currentPage: p - 1 }) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual([]);
    expect(s.log).toEqual([1, 1]);
    expect(messageOf(verdict)).toBe('Asked for page 1, the server answered page 0 (twice): it seems to number pages from 0; 0 rows written.');
  });

  it('from --page 3 as well', async () => {
    const s = server(200, 20, { pagination: (p) => ({ currentPage: p - 1 }) });
    const { verdict } = await walk(s.fetchPage, 4, { startPage: 3 });
    expect(messageOf(verdict)).toBe('Asked for page 3, the server answered page 2 (twice): it seems to number pages from 0; 0 rows written.');
  });

  it('one page behind from page 2 on, while later pages named other pages: no guess', async () => {
    // Page 2 answers late, so the answers for pages 3-5 (naming 2-4) are in first.
    const s = server(200, 20, { pagination: (p) => ({ currentPage: Math.max(1, p - 1) }), delay: (p) => (p === 2 ? 40 : 0) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(20);
    expect(messageOf(verdict)).toBe('Asked for page 2, the server answered page 1 (twice); 20 rows written.');
  });

  it('answers without a page number say nothing: the rest all naming page 1 is still a server ignoring `page`', async () => {
    const s = server(200, 20, { items: (_p, all) => pageOf(all, 1), pagination: (p) => ({ currentPage: (p === 1 ? undefined : 1) as number }) });
    const { verdict } = await walk(s.fetchPage, 1);
    expect(messageOf(verdict)).toBe('Asked for page 2, the server answered page 1 (twice): it seems to ignore the page parameter; 20 rows written.');
  });

  it('an answer for another page that is right when read again: the walk goes on', async () => {
    let third = 0;
    const s = server(200, 20, { pagination: (p) => (p === 3 && ++third === 1 ? { currentPage: 2 } : {}) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual(s.all.map((x) => x.id));
    expect(s.log.filter((p) => p === 3)).toHaveLength(2);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('two different wrong answers are both said', async () => {
    let second = 0;
    const s = server(200, 20, { pagination: (p) => (p === 2 ? { currentPage: ++second === 1 ? 5 : 7 } : {}) });
    const { verdict } = await walk(s.fetchPage, 1);
    expect(messageOf(verdict)).toBe('Asked for page 2, the server answered page 5, then page 7; 20 rows written.');
  });
});

describe('what the messages say', () => {
  it('a total of 0 on pages 5 and later, and back to 200 when read again: the drift says so, no "0 appeared, 0 disappeared"', async () => {
    const s = server(200, 20, { items: (p, all) => (p >= 5 ? [] : pageOf(all, p)), pagination: (p) => (p >= 5 ? { totalItems: 0, totalPages: 0, hasNextPage: false } : {}) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(80);
    expect(findings.changedTotal).toEqual({ page: 5, total: 0 });
    expect(messageOf(verdict)).toBe(
      'The company changed during the export: its total went from 200 to 0 employees (page 5) and back; 80 rows written, 120 employees listed now were not written. Re-run to get a consistent snapshot.',
    );
  });

  it('no totals: an empty page promised by hasNextPage is read again, and if it has rows then, the walk goes on', async () => {
    let fifth = 0;
    const s = server(200, 20, {
      items: (p, all) => (p === 5 && ++fifth === 1 ? [] : pageOf(all, p)),
      pagination: (p) => ({ totalItems: none, totalPages: none, hasNextPage: p < 10 }),
    });
    const { ids, findings, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toEqual(s.all.map((x) => x.id));
    expect(findings.recovered).toBe(20);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('no totals: a page short twice by as many is short, not the end', async () => {
    const s = server(200, 20, { items: (p, all) => pageOf(all, p).slice(0, p === 5 ? 10 : 20), pagination: (p) => ({ totalItems: none, totalPages: none, hasNextPage: p < 10 }) });
    const { ids, findings } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(190);
    expect(findings.emptyEnd).toBeUndefined();
    expect(findings.shortPages).toEqual([{ page: 5, got: 10, expected: 20 }]);
  });

  it('no totals: a page that had rows and none when read again is short, not the end of the list', async () => {
    let fifth = 0;
    const s = server(200, 20, {
      items: (p, all) => (p === 5 && ++fifth > 1 ? [] : pageOf(all, p).slice(0, p === 5 ? 10 : 20)),
      pagination: (p) => ({ totalItems: none, totalPages: none, hasNextPage: p < 10 }),
    });
    const { findings, verdict } = await walk(s.fetchPage, 1);
    expect(findings.emptyEnd).toBeUndefined();
    expect(findings.shortPages).toEqual([{ page: 5, got: 0, expected: 20 }]);
    expect(messageOf(verdict)).toContain('page 5 had 0 employees instead of 20 (read twice)');
  });
});

describe('the limit the README states: a delete and a create at once', () => {
  it('goes unseen (exit-0 verdict, one long-standing employee missing): nothing in the answers shows it', async () => {
    // Before page 5 is answered, employee 30 (page 2, already read) is deleted and a new one appended.
    const list = Array.from({ length: 200 }, (_, i) => ({ id: uuid(i + 1) }));
    let calls = 0;
    const fetchPage = async (page: number): Promise<Page<Item>> => {
      if (++calls === 5) {
        list.splice(29, 1);
        list.push({ id: uuid(500) });
      }
      return { data: list.slice((page - 1) * 20, page * 20), pagination: { currentPage: page, pageSize: 20, totalPages: 10, totalItems: list.length, hasNextPage: page < 10, hasPreviousPage: page > 1 } };
    };
    const { ids, verdict } = await walk(fetchPage, 1);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
    // Employee 81 moved from page 5 onto page 4, read before: never sent.
    expect(list.filter((x) => !ids.includes(x.id)).map((x) => x.id)).toEqual([uuid(81)]);
  });
});

describe('judgeWalk: the new findings in words', () => {
  const base = (): WalkFindings => ({ ...newFindings(), pageSize: 20, firstTotal: 200, lastTotal: 200, announcedPages: 10, emitted: 200, complete: true });

  it('items that were no objects are said to be left out; one item in the singular', () => {
    expect(messageOf(judgeWalk({ ...base(), emitted: 196, unidentified: 4, unidentifiedPage: 3, notObjects: 4 }))).toBe(
      "The server's pages do not add up: 4 items came without a usable id (first on page 3), 4 of them not an object at all (left out): nothing shows that no employee was written twice; 196 of the 200 employees announced were found; 196 rows written.",
    );
    expect(messageOf(judgeWalk({ ...base(), unidentified: 1, unidentifiedPage: 9 }))).toBe(
      "The server's pages do not add up: 1 item came without a usable id (first on page 9): nothing shows that no employee was written twice; 200 rows written.",
    );
  });

  it('repeats with the count right but another problem are listed with it, not as a warning', () => {
    const v = judgeWalk({ ...base(), duplicates: 3, duplicatePages: [4], unidentified: 3, unidentifiedPage: 2 });
    expect(v.warnings).toEqual([]);
    expect(messageOf(v)).toContain('3 employees already sent on earlier pages came again (page 4) and were written once; 200 rows written.');
  });

  it('one page past the end, in the singular', () => {
    expect(messageOf(judgeWalk({ ...base(), emitted: 201, pastEnd: { page: 11, rows: 1 } }))).toBe(
      "The server's pages do not add up: page 10 said it had a next page, past the 10 pages announced, and page 11 held 1 more employee; stopped there; 201 employees found, more than the 200 announced; 201 rows written.",
    );
  });

  it('disagreeing counts from --page 2, one page of employees', () => {
    expect(messageOf(judgeWalk({ ...base(), startPage: 2, firstTotal: 5, lastTotal: 5, emitted: 0, countsDisagree: { pages: 7, items: 5 } }))).toBe(
      "The server's pages do not add up: page 2 announced 7 pages but 5 employees, which fill 1 page of 20; the walk went by the smaller; 0 rows written.",
    );
  });
});

describe('judgeWalk and settleWalk: counts at their edges, codes', () => {
  const base = (): WalkFindings => ({ ...newFindings(), pageSize: 20, firstTotal: 200, lastTotal: 200, announcedPages: 10, emitted: 200, complete: true });

  it('one employee found, one listed now and not written: in the singular', () => {
    expect(messageOf(judgeWalk({ ...base(), emitted: 1 }))).toBe("The server's pages do not add up: 1 of the 200 employees announced was found; 1 row written.");
    expect(messageOf(judgeWalk({ ...base(), lastTotal: 201, changedTotal: { page: 3, total: 201 } }))).toBe(
      'The company changed during the export: its total went from 200 to 201 employees (1 appeared, 0 disappeared); 200 rows written, 1 employee listed now was not written. Re-run to get a consistent snapshot.',
    );
  });

  it('exactly five pages of repeats and exactly three short pages are all named, with no "more"', () => {
    const five = messageOf(judgeWalk({ ...base(), emitted: 195, duplicates: 5, duplicatePages: [2, 3, 4, 5, 6] }));
    expect(five).toContain('(pages 2, 3, 4, 5, 6) and were written once;');
    const three = messageOf(judgeWalk({ ...base(), emitted: 140, shortPages: [2, 3, 4].map((page) => ({ page, got: 0, expected: 20 })) }));
    expect(three).not.toContain('more short pages');
    expect(three).toContain('page 4 of 10 had 0 employees');
  });

  it('a walk that grew past the count first announced: the claim is past the pages it grew to', () => {
    expect(judgeWalk({ ...base(), nextPageClaimedAt: 12 }).warnings).toEqual(['The server said page 12 had a next page, past the 12 pages it announced; stopped there.']);
  });

  it('each verdict its code; --allow-drift accepts drift and inconsistency, never a stopped walk', () => {
    const drift = settleWalk({ ...base(), lastTotal: 210, emitted: 210, changedTotal: { page: 2, total: 210 } }, { rows: 210, allowDrift: false });
    expect(drift.error?.code).toBe('EXPORT_DRIFT');
    expect(drift.error?.hint).toBe('Pass --allow-drift to keep what was seen (exit 0 with a warning).');
    const inconsistent = settleWalk({ ...base(), emitted: 190 }, { rows: 190, allowDrift: false });
    expect(inconsistent.error?.code).toBe('EXPORT_INCONSISTENT');
    expect(inconsistent.error?.hint).toContain('Re-run the export');
    const fatal = settleWalk({ ...base(), fatal: 'Stopped' }, { rows: 3, allowDrift: true });
    expect(fatal.error?.code).toBe('EXPORT_INCONSISTENT');
    expect(fatal.error?.hint).toContain("The server's pagination cannot be trusted");
    expect(settleWalk({ ...base(), emitted: 190 }, { rows: 190, allowDrift: true })).toEqual({
      warnings: ["The server's pages do not add up: 190 of the 200 employees announced were found; 190 rows written. Kept as seen (--allow-drift)."],
    });
    expect(settleWalk(base(), { rows: 200, file: 'a.csv', allowDrift: false })).toEqual({ warnings: [], error: undefined });
  });
});

describe('walkPages emits no row twice, whatever the server (property)', () => {
  it('pages of ids drawn from strings in either case, numbers and none: every id emitted is new', async () => {
    const pool = ['abcdef01-2345-4789-8bcd-ef0123456789', 'ABCDEF01-2345-4789-8BCD-EF0123456789', uuid(2), 3, '3', 4, 'emp-a', 'EMP-A', null];
    const key = (id: unknown) => (typeof id === 'number' ? `n:${id}` : String(id).length === 36 ? `u:${String(id).toLowerCase()}` : `s:${String(id)}`);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.constantFrom(...pool), { maxLength: 3 }), { minLength: 1, maxLength: 5 }), async (pages) => {
        const fetchPage = async (page: number): Promise<Page<Item>> => ({
          data: (pages[page - 1] ?? []).map((id) => ({ id }) as unknown as Item),
          pagination: { currentPage: page, pageSize: 3, totalPages: pages.length, totalItems: 3 * pages.length, hasNextPage: page < pages.length, hasPreviousPage: page > 1 },
        });
        const keys: string[] = [];
        for await (const item of walkPages(fetchPage, { concurrency: 2 })) if (item.id !== null) keys.push(key(item.id));
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});
