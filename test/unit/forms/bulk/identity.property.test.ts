// Bulk identity without a work e-mail (fast-check): a form whose rows are
// known only by their values. Over random sheets, random edits between runs
// (a typo fixed in a row, sent or not; a new row inserted anywhere), re-saves
// in NFC or NFD and with other line endings, and runs stopped at random
// (Ctrl-C after the k-th POST: rows in flight finish; or killed once the
// server took the k-th POST, its answer lost: the next run finds that
// employee by name and start date): no employee is POSTed
// twice, a run after a sent row was edited is BULK_ROWS_CHANGED naming the
// field and sends nothing, and once such edits are put back every row is
// created exactly once. A real loopback server takes the requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../../src/context.js';
import { testIO } from '../../../../src/io.js';
import { bulkOnboard, graceSignal } from '../../../../src/forms/bulk/onboard.js';
import { sheetOf } from '../../../../src/forms/bulk/read.js';
import { loadSchema } from '../../../../src/forms/schema.js';
import { CliError } from '../../../../src/errors.js';
import { useLoopbackServer } from '../../../helpers/loopback-server.js';

// No work e-mail: a row is its values.
const form = loadSchema({
  type: 'object',
  required: ['personal'],
  properties: {
    personal: {
      type: 'object',
      required: ['firstName', 'lastName', 'idNumber'],
      properties: { firstName: { type: 'string' }, lastName: { type: 'string' }, idNumber: { type: 'string' }, startDate: { type: 'string' } },
    },
  },
});
const COLUMNS = ['personal.firstName', 'personal.lastName', 'personal.idNumber', 'personal.startDate'];
const LAST = ['Lovelase', 'Gödel', 'Ångström', 'Noether', 'Erdős', 'Zoë'];

interface Person {
  id: number;
  /** How many typos were fixed in its last name. */
  edits: number;
}
type Edit = { kind: 'typo'; at: number } | { kind: 'insert'; at: number };
interface Run {
  edit?: Edit;
  nfd: boolean;
  eol: '\r\n' | '\n' | 'mixed';
  stopAfter?: number;
  /** The run is killed after the server took its k-th POST: that employee exists, the answer is lost. */
  loseAt?: number;
}

const cellsOf = (p: Person) => [`P${p.id}`, `${LAST[p.id % LAST.length]}${'e'.repeat(p.edits)}`, `ID-${1000 + p.id}`, '2025-01-01'];

function sheetText(people: Person[], run: Run): string {
  const lines = [COLUMNS.join(','), ...people.map((p) => cellsOf(p).map((c) => (run.nfd ? c.normalize('NFD') : c)).join(','))];
  return lines.map((l, i) => l + (run.eol === 'mixed' ? (i % 2 ? '\n' : '\r\n') : run.eol)).join('');
}

let posts: { first: string; last: string }[] = [];
/** The POST (counted from 1 over the whole test) whose answer is dropped after it took effect. */
let loseAtPost: number | undefined;
let dir: string;
const server = useLoopbackServer((req, res, text) => {
  if (req.method === 'POST') {
    const body = JSON.parse(text) as { personal: { firstName: string; lastName: string } };
    posts.push({ first: body.personal.firstName, last: body.personal.lastName.normalize('NFC') });
    if (posts.length === loseAtPost) {
      // As a kill -9 after the request went out: the employee exists, the client never hears so.
      req.socket.destroy();
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `00000000-0000-4000-8000-${String(posts.length).padStart(12, '0')}`, employeeCode: `C-${posts.length}` }));
    return;
  }
  if (req.method === 'GET' && req.url!.startsWith('/v1/employees?')) {
    // The whole list on one page: what a re-run looks a lost POST up in (by name and start date: no e-mail).
    const data = posts.map((p, i) => ({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, employeeCode: `C-${i + 1}`, firstName: p.first, lastName: p.last, startDate: '2025-01-01' }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, pagination: { currentPage: 1, pageSize: 100, totalPages: 1, totalItems: data.length, hasNextPage: false, hasPreviousPage: false } }));
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no"}');
});
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-identity-prop-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const edit: fc.Arbitrary<Edit> = fc.oneof(fc.record({ kind: fc.constant('typo' as const), at: fc.nat(10) }), fc.record({ kind: fc.constant('insert' as const), at: fc.nat(10) }));
const runArb: fc.Arbitrary<Run> = fc.record({ edit: fc.option(edit, { nil: undefined }), nfd: fc.boolean(), eol: fc.constantFrom('\r\n' as const, '\n' as const, 'mixed' as const), stopAfter: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), loseAt: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) });

let tags = 0;

/** One run of `gp create --from-csv` in-process; its Ctrl-C after `stopAfter` POSTs. */
async function runOnce(file: string, text: string, stopAfter: number | undefined, loseAt?: number): Promise<{ code?: number; error?: CliError }> {
  const stop = new AbortController();
  const io = testIO({ tty: false });
  const home = join(dir, 'home');
  const ctx = createContext({
    io,
    env: { PARTNER_BASE_URL: server.url, PARTNER_TOKEN: 'tok', HOME: home, PARTNER_CONFIG_DIR: join(home, 'c'), PARTNER_CACHE_DIR: join(home, 'k'), PARTNER_STATE_DIR: join(home, 's') },
    globals: { sandbox: false, debug: false, timeout: 5, color: false, input: false },
    signal: stop.signal,
  });
  const start = posts.length;
  loseAtPost = loseAt === undefined ? undefined : start + loseAt;
  const timer = setInterval(() => {
    if (stopAfter !== undefined && posts.length - start >= stopAfter) stop.abort();
  }, 1);
  try {
    // As the command does: Ctrl-C lets the rows in flight finish (their answers are not lost).
    const http = await ctx.http({ signal: graceSignal(stop.signal) });
    const sheet = await sheetOf(Buffer.from(text), file);
    return { code: await bulkOnboard(ctx, http, form, { entity: 'E', csvPath: file, skipInvalid: false, sheet, concurrency: 2 }) };
  } catch (err) {
    if (err instanceof CliError) return { error: err };
    throw err;
  } finally {
    clearInterval(timer);
    loseAtPost = undefined;
    await ctx.cleanup();
  }
}

describe('bulk identity without a work e-mail (fast-check)', () => {
  it('no employee POSTed twice; an edited sent row stops the run naming the field; every row created once in the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(runArb, { minLength: 1, maxLength: 4 }), async (n, runs) => {
        posts = [];
        const file = join(dir, `s${++tags}.csv`);
        let next = 100 * tags;
        let people: Person[] = Array.from({ length: n }, () => ({ id: next++, edits: 0 }));
        /** What each person was POSTed as (its last name), by first name. */
        const sentAs = new Map<string, string>();
        const check = () => {
          const seen = new Set<string>();
          for (const p of posts) {
            expect(seen.has(p.first), `P${p.first} POSTed twice`).toBe(false);
            seen.add(p.first);
            if (!sentAs.has(p.first)) sentAs.set(p.first, p.last);
          }
        };
        for (const run of [...runs, { nfd: false, eol: '\r\n' as const }]) {
          if (run.edit?.kind === 'typo') {
            const p = people[run.edit.at % people.length];
            people = people.map((x) => (x === p ? { ...x, edits: x.edits + 1 } : x));
          } else if (run.edit?.kind === 'insert') {
            people = [...people.slice(0, run.edit.at % (people.length + 1)), { id: next++, edits: 0 }, ...people.slice(run.edit.at % (people.length + 1))];
          }
          const edited = people.filter((p) => sentAs.has(cellsOf(p)[0]) && sentAs.get(cellsOf(p)[0]) !== cellsOf(p)[1]);
          const before = posts.length;
          const r = await runOnce(file, sheetText(people, run), run.stopAfter, run.loseAt);
          check();
          if (edited.length) {
            // A sent row edited: refused before anything is sent, naming the field.
            expect(r.error?.code).toBe('BULK_ROWS_CHANGED');
            expect(r.error?.message).toContain('personal.lastName');
            expect(posts.length).toBe(before);
            // The operator puts the rows back as they were sent.
            people = people.map((p) => (edited.includes(p) ? { ...p, edits: p.edits - 1 } : p));
            const again = await runOnce(file, sheetText(people, run), undefined);
            check();
            expect(again.error?.code).toBeUndefined();
          } else if (r.error) {
            // Ctrl-C, or the connection lost with the answer (the run stops; the next one looks the row up).
            expect(['INTERRUPTED', 'BULK_STOPPED']).toContain(r.error.code);
          }
        }
        // The last run went to the end: every row of the sheet created exactly once, as it stands.
        const last = await runOnce(file, sheetText(people, { nfd: true, eol: '\n' }), undefined);
        check();
        expect(last.code).toBe(0);
        expect(posts.map((p) => p.first).sort()).toEqual(people.map((p) => `P${p.id}`).sort());
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});
