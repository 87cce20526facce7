import { describe, expect, it } from 'vitest';
import { walkPages, type Page } from '../../../src/api/pages.js';
import { judgeWalk, newFindings, settleWalk, type WalkFindings } from '../../../src/api/walk-audit.js';
import { server, uuid, walk, type Item } from '../../helpers/page-server.js';

describe('walk integrity: the table of (1,000 items, 10 pages)', () => {
  it('a consistent server: every row once, verdict ok', async () => {
    const s = server(1000, 100);
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual(s.all.map((x) => x.id));
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
    expect(findings.complete).toBe(true);
    expect(findings.rereads).toBe(0);
  });

  it('page 4 empty: read twice, the walk goes on to page 10, and the verdict names it', async () => {
    const s = server(1000, 100, { items: (p, all) => (p === 4 ? [] : all.slice((p - 1) * 100, p * 100)) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(900);
    expect(s.log.filter((p) => p === 4)).toHaveLength(2);
    expect(Math.max(...s.log)).toBe(10);
    expect(verdict.kind).toBe('inconsistent');
    expect((verdict as { message: string }).message).toBe(
      "The server's pages do not add up: page 4 of 10 had 0 employees instead of 100 (read twice); 900 of the 1,000 employees announced were found; 900 rows written.",
    );
  });

  it('page 4 short (50 items): inconsistent, 950 found', async () => {
    const s = server(1000, 100, { items: (p, all) => all.slice((p - 1) * 100, p * 100 - (p === 4 ? 50 : 0)) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(950);
    expect((verdict as { message: string }).message).toContain('page 4 of 10 had 50 employees instead of 100 (read twice); 950 of the 1,000');
  });

  it('a short page that comes back whole when read again is recovered', async () => {
    let first = true;
    const s = server(1000, 100, {
      items: (p, all) => {
        const page = all.slice((p - 1) * 100, p * 100);
        if (p === 4 && first) {
          first = false;
          return page.slice(0, 50);
        }
        return page;
      },
    });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(new Set(ids).size).toBe(1000);
    expect(ids).toHaveLength(1000);
    expect(findings.recovered).toBe(50);
    expect(verdict.kind).toBe('ok');
  });

  it('page 3 repeats 10 items of page 1: written once each, 990 found, exit-worthy', async () => {
    const s = server(1000, 100, { items: (p, all) => (p === 3 ? [...all.slice(0, 10), ...all.slice(210, 300)] : all.slice((p - 1) * 100, p * 100)) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(990);
    expect(new Set(ids).size).toBe(990);
    expect(findings.duplicates).toBe(10);
    expect(findings.duplicatePages).toEqual([3]);
    expect(verdict.kind).toBe('inconsistent');
    expect((verdict as { message: string }).message).toContain('10 employees already sent on earlier pages came again (page 3) and were written once');
    expect((verdict as { message: string }).message).toContain('990 of the 1,000 employees announced were found');
  });

  it('repeats 7 pages apart are caught too: the id set is exact, not a window', async () => {
    const s = server(1000, 100, { items: (p, all) => (p === 9 ? [...all.slice(100, 110), ...all.slice(800, 900)] : all.slice((p - 1) * 100, p * 100)) });
    const { ids, findings } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(findings.duplicates).toBe(10);
    expect(findings.duplicatePages).toEqual([9]);
    // Every id once and the count right: only a warning.
    expect(judgeWalk(findings)).toEqual({ kind: 'ok', warnings: ['10 employees already sent on earlier pages came again (page 9) and were written once.'] });
  });

  it('a server that ignores `page` stops the walk after one more read, fatally', async () => {
    const s = server(1000, 100, { items: (_p, all) => all.slice(0, 100), pagination: () => ({ currentPage: 1 }) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(100);
    // Page 1, its second read, and what the window (4 in flight, 2 more held) had asked for: never endless.
    expect(s.log.length).toBeLessThanOrEqual(2 + 4 + 2 + 1);
    expect(verdict.kind).toBe('fatal');
    expect((verdict as { message: string }).message).toBe('Asked for page 2, the server answered page 1 (twice): it seems to ignore the page parameter; 100 rows written.');
  });

  it('a server that ignores `page` but echoes it: all repeats, found out by the count', async () => {
    const s = server(1000, 100, { items: (_p, all) => all.slice(0, 100) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(100);
    expect(verdict.kind).toBe('inconsistent');
    expect((verdict as { message: string }).message).toContain('100 of the 1,000 employees announced were found');
  });

  it('hasNextPage always true: reads page 11 once to see, finds it empty: every row once, with a warning', async () => {
    const s = server(1000, 100, { pagination: () => ({ hasNextPage: true }) });
    const { ids, verdict } = await walk(s.fetchPage);
    expect(ids).toHaveLength(1000);
    expect(s.log.filter((p) => p > 10)).toEqual([11]);
    expect(verdict).toEqual({ kind: 'ok', warnings: ['The server said page 10 had a next page, past the 10 pages it announced; stopped there.'] });
  });

  it('a page count that keeps growing is bounded (never endless)', async () => {
    const s = server(100_000, 100, {
      items: (p) => Array.from({ length: 100 }, (_, i) => ({ id: uuid(p * 1000 + i) })),
      pagination: (p) => ({ totalItems: 1000 + p * 200, totalPages: 10 + p * 2 }),
    });
    const { verdict } = await walk(s.fetchPage);
    expect(s.log.length).toBeLessThan(40);
    expect(verdict.kind).toBe('fatal');
    expect((verdict as { message: string }).message).toMatch(/^The server's page count kept growing \(from 12 to \d+ pages\): stopped at page \d+;/);
  });

  it('no totals at all: follows hasNextPage, and a page of repeats only stops it', async () => {
    const s = server(1000, 100, {
      items: (p, all) => all.slice(((p - 1) % 3) * 100, ((p - 1) % 3) * 100 + 100),
      pagination: () => ({ totalPages: undefined as unknown as number, totalItems: undefined as unknown as number, hasNextPage: true }),
    });
    const { ids, verdict } = await walk(s.fetchPage, 2);
    expect(ids).toHaveLength(300);
    expect(s.log.length).toBeLessThan(10);
    expect(verdict.kind).toBe('fatal');
    expect((verdict as { message: string }).message).toContain('Page 4 repeated earlier pages only');
  });

  it('--limit stops early and judges nothing', async () => {
    const s = server(1000, 100, { items: (p, all) => (p === 1 ? all.slice(0, 100) : []) });
    const { ids, findings, verdict } = await walk(s.fetchPage, 1, { limit: 150 });
    expect(ids).toHaveLength(100);
    expect(findings.complete).toBe(true);
    expect(verdict.kind).toBe('inconsistent');
    const limited = await walk(server(1000, 100).fetchPage, 1, { limit: 150 });
    expect(limited.ids).toHaveLength(150);
    expect(limited.findings.complete).toBe(false);
    expect(limited.verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('--limit reached within the first page: no other page asked for, nothing judged', async () => {
    const s = server(45, 100);
    const { ids, findings, verdict } = await walk(s.fetchPage, 8, { limit: 20 });
    expect(ids).toEqual(s.all.slice(0, 20).map((x) => x.id));
    expect(s.log).toEqual([1]);
    expect(findings.complete).toBe(false);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('--limit reached within a later page ends the walk there, unjudged, with no re-read', async () => {
    const s = server(1000, 100);
    const { ids, findings, verdict } = await walk(s.fetchPage, 4, { limit: 250 });
    expect(ids).toHaveLength(250);
    expect([...new Set(s.log)].sort((a, b) => a - b)).toEqual([1, 2, 3]);
    expect(findings.complete).toBe(false);
    expect(findings.rereads).toBe(0);
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('a walk from --page 3 expects the rest only', async () => {
    const s = server(1000, 100);
    const { ids, verdict } = await walk(s.fetchPage, 3, { startPage: 3 });
    expect(ids).toEqual(s.all.slice(200).map((x) => x.id));
    expect(verdict.kind).toBe('ok');
  });
});

describe('walk integrity: a company that changes under the walk', () => {
  /** A live list: mutate() is called before each page is answered. */
  function live(initial: number, size: number, mutate: (page: number, call: number, list: Item[]) => void) {
    const list = Array.from({ length: initial }, (_, i) => ({ id: uuid(i + 1) }));
    const log: number[] = [];
    const fetchPage = async (page: number): Promise<Page<Item>> => {
      log.push(page);
      mutate(page, log.length, list);
      const totalPages = Math.ceil(list.length / size);
      return {
        data: list.slice((page - 1) * size, page * size),
        pagination: { currentPage: page, pageSize: size, totalPages, totalItems: list.length, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
      };
    };
    return { fetchPage, log, list };
  }

  it('an employee deleted from an early page: the shifted item is picked up by re-reading, and the drift reported', async () => {
    // Before page 5 is answered, item 150 (page 2) goes: items after it shift left by one.
    const s = live(1000, 100, (page, call, list) => {
      if (page === 5 && call === 5) list.splice(149, 1);
    });
    const { ids, findings, verdict } = await walk(s.fetchPage, 1);
    expect(new Set(ids).size).toBe(ids.length);
    // All 999 present now were written, plus the one that went (written before it went).
    expect(ids).toHaveLength(1000);
    for (const x of s.list) expect(ids).toContain(x.id);
    expect(findings.changedTotal).toBeDefined();
    expect(findings.recovered).toBe(1);
    // Pages 1-4 were read under the old total: read again, once.
    expect(s.log.slice(10).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(verdict.kind).toBe('drift');
    expect((verdict as { message: string }).message).toBe('The company changed during the export: its total went from 1,000 to 999 employees (0 appeared, 1 disappeared); 1,000 rows written. Re-run to get a consistent snapshot.');
  });

  it('employees created at the end: the walk grows to include them, reported as drift', async () => {
    const s = live(1000, 100, (page, call, list) => {
      if (call === 3) for (let i = 0; i < 3; i++) list.push({ id: uuid(5000 + i) });
    });
    const { ids, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(1003);
    expect(new Set(ids).size).toBe(1003);
    expect((verdict as { message: string }).message).toBe('The company changed during the export: its total went from 1,000 to 1,003 employees (3 appeared, 0 disappeared); 1,003 rows written. Re-run to get a consistent snapshot.');
  });

  it('3 appeared and 1 disappeared, in the words of the issue', async () => {
    const s = live(1000, 100, (page, call, list) => {
      if (call === 4) {
        list.splice(10, 1);
        for (let i = 0; i < 3; i++) list.push({ id: uuid(7000 + i) });
      }
    });
    const { ids, verdict } = await walk(s.fetchPage, 1);
    expect(new Set(ids).size).toBe(ids.length);
    expect((verdict as { message: string }).message).toContain('its total went from 1,000 to 1,002 employees (3 appeared, 1 disappeared); 1,003 rows written.');
  });

  it('with --allow-drift the rows are kept and the drift is a warning; without, an error that leaves the file untouched', () => {
    const f: WalkFindings = { ...newFindings(), pageSize: 100, firstTotal: 1000, lastTotal: 1002, announcedPages: 10, emitted: 1003, complete: true, changedTotal: { page: 4, total: 1002 } };
    const strict = settleWalk(f, { rows: 1003, file: 'employees.csv', allowDrift: false });
    expect(strict.error?.exitCode).toBe(1);
    expect(strict.error?.message).toBe('The company changed during the export: its total went from 1,000 to 1,002 employees (3 appeared, 1 disappeared); 1,003 rows fetched, employees.csv left untouched. Re-run to get a consistent snapshot.');
    expect(strict.error?.hint).toContain('--allow-drift');
    const loose = settleWalk(f, { rows: 1003, file: 'employees.csv', allowDrift: true });
    expect(loose.error).toBeUndefined();
    expect(loose.warnings).toEqual(['The company changed during the export: its total went from 1,000 to 1,002 employees (3 appeared, 1 disappeared); 1,003 rows written. Kept as seen (--allow-drift).']);
    expect(settleWalk({ ...f, fatal: 'Asked for page 2, the server answered page 1 (twice)' }, { rows: 100, allowDrift: true }).error?.code).toBe('EXPORT_INCONSISTENT');
  });

  it('as many appeared as disappeared: the total is said to have stayed, and the rows beyond it are the ones gone', () => {
    const f: WalkFindings = { ...newFindings(), pageSize: 10, firstTotal: 45, lastTotal: 45, emitted: 46, complete: true, changedTotal: { page: 3, total: 46 } };
    expect((judgeWalk(f) as { message: string }).message).toBe(
      'The company changed during the export: its total stayed at 45 employees (1 appeared, 1 disappeared); 46 rows written. Re-run to get a consistent snapshot.',
    );
  });

  it('a shrinking company: the employees listed now but not written are counted', () => {
    const f: WalkFindings = { ...newFindings(), pageSize: 100, firstTotal: 1000, lastTotal: 990, emitted: 985, complete: true, changedTotal: { page: 7, total: 990 } };
    expect((judgeWalk(f) as { message: string }).message).toBe(
      'The company changed during the export: its total went from 1,000 to 990 employees (0 appeared, 10 disappeared); 985 rows written, 5 employees listed now were not written. Re-run to get a consistent snapshot.',
    );
  });
});

describe('walk integrity: what the server leaves out', () => {
  it('no totals and an honest hasNextPage: every row, exactly the 10 pages', async () => {
    const s = server(1000, 100, { pagination: (p) => ({ totalPages: undefined as unknown as number, totalItems: undefined as unknown as number, hasNextPage: p < 10 }) });
    const { ids, findings, verdict } = await walk(s.fetchPage, 3);
    expect(ids).toHaveLength(1000);
    expect(s.log.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(findings.announcedPages).toBeUndefined();
    expect(verdict).toEqual({ kind: 'ok', warnings: [] });
  });

  it('no totals, hasNextPage always true, then empty pages: ends at the first empty page', async () => {
    const s = server(1000, 100, { pagination: () => ({ totalPages: undefined as unknown as number, totalItems: undefined as unknown as number, hasNextPage: true }) });
    const { ids, findings, verdict } = await walk(s.fetchPage, 1);
    expect(ids).toHaveLength(1000);
    // Page 11 is read twice (an empty page before the next one hasNextPage promised), then the walk ends.
    expect(s.log).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11]);
    expect(findings.complete).toBe(true);
    expect(findings.fatal).toBeUndefined();
    // Every row came: no short page, only a word about the claim.
    expect(verdict).toEqual({ kind: 'ok', warnings: ['The server said there was a next page, but page 11 was empty (read twice); stopped there.'] });
  });

  it('no pageSize in the answers: the size asked for, else the first page length', async () => {
    const noSize = { pagination: () => ({ pageSize: undefined as unknown as number, totalPages: undefined as unknown as number }) };
    const asked = newFindings();
    for await (const _ of walkPages(server(1000, 100, noSize).fetchPage, { findings: asked, pageSize: 100 })) void _;
    expect(asked.pageSize).toBe(100);
    expect(asked.announcedPages).toBe(10);
    const guessed = newFindings();
    for await (const _ of walkPages(server(1000, 100, noSize).fetchPage, { findings: guessed, pageSize: 0 })) void _;
    expect(guessed.pageSize).toBe(100);
    expect(judgeWalk(guessed).kind).toBe('ok');
  });

  it('an empty company: one request, total 0, ok', async () => {
    const s = server(0, 100, { pagination: () => ({ pageSize: undefined as unknown as number, totalPages: 0 }) });
    const { ids, findings, verdict } = await walk(s.fetchPage);
    expect(ids).toEqual([]);
    expect(s.log).toEqual([1]);
    expect(findings.firstTotal).toBe(0);
    expect(findings.pageSize).toBe(1);
    expect(verdict.kind).toBe('ok');
  });

  it('totals that are not counts (text, negative, fractions) are ignored, not trusted', async () => {
    for (const bad of ['1000', -1, 10.5]) {
      const s = server(300, 100, { pagination: () => ({ totalItems: bad as unknown as number, totalPages: bad as unknown as number, pageSize: bad as unknown as number }) });
      const findings = newFindings();
      const ids: string[] = [];
      for await (const x of walkPages(s.fetchPage, { findings, pageSize: 100 })) ids.push(x.id);
      expect(findings.firstTotal).toBeUndefined();
      expect(findings.pageSize).toBe(100);
      expect(ids).toHaveLength(300);
    }
  });

  it('an answer without pagination, or with currentPage null, is taken on trust', async () => {
    let calls = 0;
    const fetchPage = async (page: number): Promise<Page<Item>> => {
      calls++;
      return page === 1
        ? { data: [{ id: uuid(1) }], pagination: { currentPage: null as unknown as number, pageSize: 1, totalPages: 2, totalItems: 2, hasNextPage: true, hasPreviousPage: false } }
        : ({ data: [{ id: uuid(2) }] } as unknown as Page<Item>);
    };
    const { ids, findings } = await walk(fetchPage, 1);
    expect(ids).toEqual([uuid(1), uuid(2)]);
    expect(calls).toBe(2);
    expect(findings.changedTotal).toBeUndefined();
    expect(findings.fatal).toBeUndefined();
  });

  it('a later page without totalItems is not a change of the company', async () => {
    const s = server(1000, 100, { pagination: (p) => (p === 5 ? { totalItems: undefined as unknown as number } : {}) });
    const { findings, verdict } = await walk(s.fetchPage);
    expect(findings.changedTotal).toBeUndefined();
    expect(findings.rereads).toBe(0);
    expect(verdict.kind).toBe('ok');
  });

  it('items without a usable id: objects are passed on, anything else left out, all counted (nothing to de-duplicate by)', async () => {
    const fetchPage = async (): Promise<Page<Item>> => ({
      data: [null as unknown as Item, {} as Item, { id: uuid(1) }, { id: uuid(1) }, { id: null } as unknown as Item, 'x' as unknown as Item, [] as unknown as Item],
      pagination: { currentPage: 1, pageSize: 7, totalPages: 1, totalItems: 7, hasNextPage: false, hasPreviousPage: false },
    });
    const findings = newFindings();
    const got: unknown[] = [];
    for await (const x of walkPages(fetchPage, { findings })) got.push(x);
    expect(got).toEqual([{}, { id: uuid(1) }, { id: null }]);
    expect(findings.unidentified).toBe(5);
    expect(findings.notObjects).toBe(3);
    expect(findings.unidentifiedPage).toBe(1);
    expect(findings.emitted).toBe(3);
  });

  it('the re-read of a short page answering for another page stops the walk', async () => {
    let fourth = 0;
    const s = server(1000, 100, {
      items: (p, all) => (p === 4 ? all.slice(300, 350) : all.slice((p - 1) * 100, p * 100)),
      pagination: (p) => (p === 4 && ++fourth > 1 ? { currentPage: 1 } : {}),
    });
    const { verdict, findings } = await walk(s.fetchPage, 1);
    expect(verdict.kind).toBe('fatal');
    expect(findings.emitted).toBe(350);
    expect((verdict as { message: string }).message).toContain('Asked for page 4, the server answered page 1 (twice)');
  });

  it('a short page whose re-read shows another total is drift, not a lost page', async () => {
    let fourth = 0;
    const s = server(1000, 100, {
      items: (p, all) => (p === 4 ? all.slice(300, 350) : all.slice((p - 1) * 100, p * 100)),
      pagination: (p) => (p === 4 && ++fourth > 1 ? { totalItems: 950 } : {}),
    });
    const { findings, verdict } = await walk(s.fetchPage, 1);
    expect(findings.shortPages).toEqual([]);
    expect(findings.changedTotal).toBeDefined();
    expect(verdict.kind).toBe('drift');
  });

  it('growth is followed up to the cap (announced + max(10, announced)), and no further', async () => {
    // Announced 2 pages of 10; page 2 says 120 items (12 pages): followed.
    const grows = (to: number) =>
      server(to, 10, { pagination: (p) => (p === 1 ? { totalItems: 20, totalPages: 2, hasNextPage: true } : { totalItems: to, totalPages: Math.ceil(to / 10) }) });
    const ok = await walk(grows(120).fetchPage, 1);
    expect(ok.ids).toHaveLength(120);
    expect(ok.findings.fatal).toBeUndefined();
    const tooMuch = await walk(grows(130).fetchPage, 1);
    expect(tooMuch.findings.fatal).toBe("The server's page count kept growing (from 2 to 13 pages): stopped at page 2");
    // 100 announced pages may grow to 200.
    const big = (to: number) =>
      server(to, 1, { pagination: (p) => (p === 1 ? { totalItems: 100, totalPages: 100, hasNextPage: true } : { totalItems: to, totalPages: to }) });
    expect((await walk(big(200).fetchPage, 8)).findings.fatal).toBeUndefined();
    expect((await walk(big(201).fetchPage, 8)).findings.fatal).toContain('from 100 to 201 pages');
  });

  it('keeps the window full: every page is asked for while the second is consumed', async () => {
    const s = server(500, 100);
    let seenAtPage2: number[] = [];
    for await (const _ of walkPages(s.fetchPage, { concurrency: 10, onPage: (n) => n === 2 && (seenAtPage2 = [...s.log]) })) void _;
    expect(seenAtPage2.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts its re-reads, and the items they bring back are no duplicates', async () => {
    const list = Array.from({ length: 1000 }, (_, i) => ({ id: uuid(i + 1) }));
    let calls = 0;
    const fetchPage = async (page: number): Promise<Page<Item>> => {
      if (++calls === 6) list.splice(150, 1);
      const totalPages = Math.ceil(list.length / 100);
      return { data: list.slice((page - 1) * 100, page * 100), pagination: { currentPage: page, pageSize: 100, totalPages, totalItems: list.length, hasNextPage: page < totalPages, hasPreviousPage: page > 1 } };
    };
    const { findings } = await walk(fetchPage, 1);
    expect(findings.rereads).toBe(5);
    expect(findings.duplicates).toBe(0);
    expect(findings.recovered).toBe(1);
  });
});

describe('judgeWalk wording', () => {
  const base = (): WalkFindings => ({ ...newFindings(), pageSize: 10, firstTotal: 100, lastTotal: 100, announcedPages: 10, emitted: 100, complete: true });

  it('names at most three short pages, then counts the rest', () => {
    const f = { ...base(), emitted: 50, shortPages: [1, 2, 3, 4, 5].map((page) => ({ page, got: 0, expected: 10 })) };
    expect((judgeWalk(f) as { message: string }).message).toBe(
      "The server's pages do not add up: page 1 of 10 had 0 employees instead of 10 (read twice); page 2 of 10 had 0 employees instead of 10 (read twice); page 3 of 10 had 0 employees instead of 10 (read twice); 2 more short pages; 50 of the 100 employees announced were found; 50 rows written.",
    );
  });

  it('lists at most five pages that repeated ids, and speaks of one employee in the singular', () => {
    const f = { ...base(), emitted: 99, duplicates: 1, duplicatePages: [2, 3, 4, 5, 6, 7] };
    expect((judgeWalk(f) as { message: string }).message).toBe(
      "The server's pages do not add up: 1 employee already sent on earlier pages came again (pages 2, 3, 4, 5, 6, …) and was written once; 99 of the 100 employees announced were found; 99 rows written.",
    );
    expect((judgeWalk({ ...base(), firstTotal: 1, lastTotal: 1, emitted: 0 }) as { message: string }).message).toBe("The server's pages do not add up: 0 of the 1 employee announced were found; 0 rows written.");
  });

  it('an unfinished walk (limit, reader gone) is not judged; a fatal one always is', () => {
    expect(judgeWalk({ ...base(), complete: false, emitted: 3 })).toEqual({ kind: 'ok', warnings: [] });
    expect(judgeWalk({ ...base(), complete: false, fatal: 'Stopped', emitted: 1 }, '1 row written')).toEqual({ kind: 'fatal', message: 'Stopped; 1 row written.', warnings: [] });
  });
});
