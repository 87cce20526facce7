// `partner webhook replay` (run: ./replay.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { bool, custom, httpUrl, path, text } from '../../flags.js';
import { KEY_FLAGS, keyFlags } from './key-flags.js';

/** The fields of one replayed event (webhooks/render.ts replayRecord). */
export const REPLAY_FIELDS = ['id', 'receivedAt', 'eventType', 'to', 'status', 'error', 'delivered'] as const;

export const replayCommand = defineCommand({
  name: 'replay',
  summary: 're-deliver events kept by `webhook listen --spool`, in arrival order',
  flags: {
    spool: path('the spool directory of `webhook listen --spool` (required)', { placeholder: 'dir', role: 'dir' }),
    since: text('only events received since this ISO 8601 time, or this long ago (like 2h)', { placeholder: 'time' }),
    eventType: custom('only these comma-separated event types', 'types', (raw) => {
      const types = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (types.length === 0) throw new UsageError('--event-type needs at least one event type');
      return types;
    }),
    to: httpUrl('POST them here (default: the --forward-to each was received with)', 'http://localhost:3000/webhooks'),
    failed: bool('only parked events (dead letters of `webhook listen --max-attempts`); each one the target takes is unparked'),
    ...KEY_FLAGS,
  },
  output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: REPLAY_FIELDS },
  needsToken: false,
  refine: (o) => {
    if (o.spool === undefined) throw new UsageError('--spool DIR is required', 'Pass the directory given to `partner webhook listen --spool`.', 'MISSING_OPTION');
    return { spool: o.spool, since: o.since, eventTypes: o.eventType, to: o.to, failed: o.failed, keys: keyFlags(o) };
  },
  details: `Every matching event is sent once, whether or not it was delivered before, with its usual x-partner-event-id and x-partner-redelivery: 1 (the target may have it already). One record per event sent, printed as it is known: {id, receivedAt, eventType, to, status, error, delivered} (a table row on a terminal; -q prints the spool ids); the count goes to stderr.
Each record is verified again before it is sent, against the key set (the active profile's, or --jwks-url / --jwks-file, as for \`webhook listen\`): a record changed after it was verified (its JWS, payload, id, type or kid) or whose key is gone from the set is not sent, and its error says why.
With --failed, only the parked events (an event \`webhook listen --max-attempts\` gave up on, or its target answered with webhook-delivery: abort); each one the target takes (2xx) gets a "delivered" record in the journal, which unparks it (a running receiver stops counting it at its next look, within a few seconds); the others stay parked. Works while the receiver runs (it never forwards a parked event itself). Replays of one spool take turns (a lock, replay.lock in the spool): a second one waits for the first and then reads the journal, so each parked event is delivered once.
Exit status: 0 all delivered (2xx), 1 any not delivered, 2 usage.`,
  examples: [
    'partner webhook replay --spool ~/.partner-spool --since 2h --to http://localhost:3000/webhooks',
    'partner webhook replay --spool ./spool --event-type EMPLOYEE_CREATED,EMPLOYEE_UPDATED',
    'partner webhook replay --spool ./spool --failed --to http://localhost:3000/webhooks',
  ],
  load: () => import('./replay.run.js'),
});
