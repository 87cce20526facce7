// The two tracker commands share one declaration: the spec gives both the
// same two filters (combined with AND). Run: ./tracker.run.ts.
import { defineCommand } from '../../command.js';
import { text, uuid } from '../../flags.js';

export type TrackerKind = 'onboarding' | 'offboarding';

export function trackerCommand(kind: TrackerKind, o: { summary: string; details: string; examples: string[] }) {
  return defineCommand({
    name: kind,
    summary: o.summary,
    details: o.details,
    examples: o.examples,
    flags: {
      employeeId: uuid('only this employee id'),
      employeeCode: text('only this employee code (with --employee-id: both must match)', { placeholder: 'code' }),
    },
    output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true },
    refine: (p) => ({ output: p.output, fields: p.fields, quiet: p.quiet, csvRaw: p.csvRaw, jq: p.jq, kind, query: { employeeId: p.employeeId, employeeCode: p.employeeCode } }),
    load: () => import('./tracker.run.js'),
  });
}
