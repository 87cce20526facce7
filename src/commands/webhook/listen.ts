// `partner webhook listen` (run: ./listen.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { custom, httpUrl, int, path, textOr } from '../../flags.js';
import { parseDuration } from '../../webhooks/duration.js';
import { EVENT_TYPES } from '../../webhooks/event-catalogue.js';
import { KEY_FLAGS, keyFlags } from './key-flags.js';
import { VERDICT_FIELDS } from './verify.js';

/** The fields of one received event (webhooks/render.ts eventRecord): the verdict's, and what became of it. */
export const LISTEN_FIELDS = ['time', 'httpStatus', ...VERDICT_FIELDS.filter((f) => f !== 'line'), 'forward', 'spooled', 'problem', 'delivery'] as const;
import { DEFAULT_FORWARD_CONCURRENCY, MAX_FORWARD_CONCURRENCY } from '../../webhooks/forward-limits.js';

function urlPath(raw: string): string {
  let p = raw.trim();
  if (!p.startsWith('/')) p = `/${p}`;
  if (/[\s?#]/.test(p)) throw new UsageError(`--path must be a URL path like /webhooks, not "${p.slice(0, 40)}"`);
  return p;
}

function eventList(raw: string): string[] {
  const events = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  if (events.length === 0) throw new UsageError('--events needs at least one event type', `Event types: ${EVENT_TYPES.join(', ')}`);
  for (const e of events) if (!/^[A-Z0-9_]+$/.test(e)) throw new UsageError(`--events: "${e.slice(0, 40)}" is not an event type name`, `Event types: ${EVENT_TYPES.join(', ')}`);
  return events;
}

/** Well under the 10 s after which common senders give up and retry. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;

export const listen = defineCommand({
  name: 'listen',
  summary: 'run a local receiver that verifies every POSTed webhook and can forward it to your app',
  flags: {
    port: int('port to listen on (default: any free port, printed at start)', { min: 0, max: 65535, default: 0, placeholder: 'port' }),
    host: textOr('address to bind (default 127.0.0.1)', { default: '127.0.0.1', placeholder: 'host' }),
    path: custom('URL path webhooks are POSTed to (default /)', 'path', urlPath),
    forwardTo: httpUrl('POST each valid event, decoded, as JSON to this URL and print its status', 'http://localhost:3000/webhooks'),
    events: custom('comma-separated event types to report and forward (default: all; others are acknowledged and ignored)', 'types', eventList),
    forwardTimeout: custom('total time limit of one forward, like 5s or 500ms (default: 5s)', 'duration', (raw, name) => parseDuration(name, raw, { minMs: 100, maxMs: 600_000 })!),
    spool: path("keep every verified event in this directory (append-only, fsync'd journal, mode 0700) before acknowledging it; forward from there with retries", { placeholder: 'dir', role: 'dir' }),
    forwardConcurrency: int(`with --spool: forwards in flight at most (default ${DEFAULT_FORWARD_CONCURRENCY}); events about one employee still go one at a time, in order`, { min: 1, max: MAX_FORWARD_CONCURRENCY, placeholder: 'n' }),
    maxAge: custom('refuse events whose timestamp is older than this, like 10m (replay protection; default: off)', 'duration', (raw, name) => parseDuration(name, raw, { minMs: 1000, maxMs: 365 * 86_400_000 })!),
    ...KEY_FLAGS,
  },
  // A stream with no end: only formats that print each event as it happens (no JSON array, no CSV header to settle).
  output: { formats: ['table', 'ndjson'], piped: 'ndjson', recordFields: LISTEN_FIELDS },
  needsToken: false,
  refine: (o) => ({
    keys: keyFlags(o),
    host: o.host,
    port: o.port,
    path: o.path ?? '/',
    forwardTo: o.forwardTo,
    events: o.events,
    forwardTimeoutMs: o.forwardTimeout ?? DEFAULT_FORWARD_TIMEOUT_MS,
    spool: o.spool,
    forwardConcurrency: o.forwardConcurrency ?? DEFAULT_FORWARD_CONCURRENCY,
    maxAgeMs: o.maxAge,
  }),
  details: `Answers 200 for a valid event, 401 for a bad signature, algorithm or key, 400 for a malformed body or payload, 413 for a body over 1 MiB. On a terminal each event prints a line as it arrives: time, HTTP status, event type, employee code (or approval request id), status, what became of it; piped (or -o ndjson), one JSON object per line: {time, httpStatus, valid, reason, ..., eventType, subject, status, payload, forward, spooled, problem}. --fields picks from that object (on a terminal, a line of those values); --jq filters each event's object, as jq does over NDJSON. Ctrl-C stops it.

With --spool and --forward-to, the contract is at-least-once: every acknowledged event is forwarded until the target answers 2xx; after a crash (even kill -9) only the forwards that were in flight (at most --forward-concurrency) are sent again, with the same x-partner-event-id header and x-partner-redelivery: 1, so the target can drop a copy it already has. Order: events about one subject (an employee, a contract, an approval request) are forwarded one at a time in the order they arrived, a failed one retried before the next of its subject; events about different subjects are forwarded side by side, in no promised order. Deliveries keep up: when the target takes events more slowly than senders send them and more than 8 per forward in flight wait, a sender's 200 waits for deliveries (at most 2 s; the event is on disk already), so the backlog and memory stay flat; a target that fails is not waited for. Each delivery attempt prints a line (-o ndjson: {time, delivery: {id, eventType, subject, status|error, redelivery, retryInMs}}).

With --forward-to, 200 means the event is safely kept: the target answered 2xx (within --forward-timeout), or, with --spool, it is on disk and will be forwarded with retries. Otherwise the sender gets 503 with Retry-After and should retry; a copy of an event already delivered is acknowledged again but not forwarded twice. 503 with Retry-After also answers a key that may have just rotated while the key-set refetch is held back (at most one per 30 s, counted from this receiver's own refetches: a new receiver refetches for the first unknown kid at once).`,
  examples: [
    'partner webhook listen --port 4242 --forward-to http://localhost:3000/webhooks',
    'partner webhook listen --events EMPLOYEE_CREATED,EMPLOYEE_UPDATED -o ndjson',
    'partner webhook listen --forward-to http://localhost:3000/webhooks --spool ~/.partner-spool',
    'partner webhook listen --forward-to http://localhost:3000/webhooks --spool ~/.partner-spool --forward-concurrency 4',
  ],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./listen.run.js'),
});
