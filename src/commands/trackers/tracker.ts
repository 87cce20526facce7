// The two tracker commands share one declaration: the spec gives both the
// same two filters (combined with AND). Run: ./tracker.run.ts.
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { path, text, uuid } from '../../flags.js';
import { CHANGE_FIELDS, changesFlags } from '../changes-flags.js';

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
      changesSince: path('print only what changed since this earlier export (JSON, NDJSON or CSV by partner) or --state file: each item with change (added, changed, removed) and changedFields', { role: 'input' }),
      state: path('compare with this state file and replace it once the output is whole (created on the first run)', { role: 'output' }),
      outputFile: path('with --changes-since or --state: write to this file instead of stdout, atomically', { role: 'output' }),
    },
    output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: [...TRACKER_FIELDS[kind], ...CHANGE_FIELDS], fileFlag: 'outputFile' },
    refine: (p, env) => {
      // The answer is every item at once: a whole list, so no --all is needed.
      const changes = changesFlags(p, env, { walksAll: true });
      if (p.outputFile !== undefined && !changes) throw new UsageError('--output-file applies with --changes-since or --state', 'Redirect stdout to a file for a plain tracker listing.');
      return { kind, query: { employeeId: p.employeeId, employeeCode: p.employeeCode }, changes, outputFile: p.outputFile };
    },
    load: () => import('./tracker.run.js'),
  });
}
