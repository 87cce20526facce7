// The two tracker commands share one declaration: the spec gives both the
// same two filters (combined with AND). Run: ./tracker.run.ts.
import { defineCommand } from '../../command.js';
import { text, uuid } from '../../flags.js';

export type TrackerKind = 'onboarding' | 'offboarding';

/** The fields of the spec's tracker items (Onboarding / Offboarding tracker item). */
export const TRACKER_FIELDS: Record<TrackerKind, readonly string[]> = {
  onboarding: ['id', 'employeeCode', 'stage'],
  offboarding: ['id', 'employeeCode', 'stage', 'pendingDocuments'],
};

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
    output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: TRACKER_FIELDS[kind] },
    refine: (p) => ({ kind, query: { employeeId: p.employeeId, employeeCode: p.employeeCode } }),
    load: () => import('./tracker.run.js'),
  });
}
