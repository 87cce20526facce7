// `employees list --all --changes-since FILE | --state FILE`: the same walk
// as a plain --all export (list.run.ts), collected whole and judged before
// the diff is written (src/changes/ does the rest).
import type { Context } from '../../context.js';
import type { AdaptiveConcurrency } from '../../api/adaptive-concurrency.js';
import type { HttpClient } from '../../api/http.js';
import { judgeWalk, verdictError } from '../../api/walk-audit.js';
import { EMPLOYEE_FIELDS, type Employee } from '../../api/types.js';
import { exportChanges } from '../../changes/export-changes.js';
import { countOf } from '../../text/count.js';
import { rawRows } from '../../json/raw-rows.js';
import { changesTargetOf, type ChangesChoice } from '../changes-flags.js';
import { EMPLOYEE_COLUMNS, startWalk, type ListOptions } from './list.run.js';

export async function listChanges(opts: ListOptions, changes: ChangesChoice, ctx: Context, http: HttpClient, adaptive: AdaptiveConcurrency | undefined): Promise<void> {
  const spec = { columns: EMPLOYEE_COLUMNS, csvColumns: EMPLOYEE_FIELDS.map((key) => ({ key })) };
  // Each row's text as the server sent it (json/raw-rows.ts), when the page was compact JSON.
  const raw = new WeakMap<object, string>();
  const collect = async (): Promise<Employee[]> => {
    const walk = startWalk(opts, ctx, { http, sink: undefined, io: ctx.io, spec }, adaptive);
    const all: Employee[] = [];
    try {
      for await (const page of walk.pages) {
        const texts = rawRows(page);
        for (let k = 0; k < page.length; k++) {
          all.push(page[k]!);
          if (texts) raw.set(page[k]!, texts[k]!);
        }
      }
    } finally {
      walk.progress?.done();
    }
    // As a plain export judges its walk, but nothing is written yet: a walk that was not whole writes no diff.
    const verdict = judgeWalk(walk.findings, `${countOf(all.length, 'row')} fetched, no changes written`);
    for (const w of verdict.warnings) ctx.log.warn(w);
    const error = verdictError(verdict, false);
    if (error) throw error;
    return all;
  };
  const { page: _page, pageSize: _size, ...filters } = opts.query;
  await exportChanges(changes, {
    ...(await changesTargetOf(ctx, changes, { out: opts.out, outputFile: opts.outputFile, spec })),
    command: 'employees list',
    filters: filters as Record<string, string | undefined>,
    recordFields: EMPLOYEE_FIELDS,
    noun: 'employee',
    paged: true,
    rawOf: (r) => (r !== null && typeof r === 'object' ? raw.get(r) : undefined),
  }, collect);
}
