// `partner webhook listen` (run: ./listen.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { bool, custom, httpUrl, int, path, textOr } from '../../flags.js';
import { parseDuration } from '../../webhooks/duration.js';
import { EVENT_TYPES } from '../../webhooks/event-catalogue.js';
import { KEY_FLAGS, keyFlags } from './key-flags.js';
import { VERDICT_FIELDS } from './verify.js';

/** The fields of one received event (webhooks/render.ts eventRecord): the verdict's, and what became of it. */
export const LISTEN_FIELDS = ['time', 'httpStatus', ...VERDICT_FIELDS.filter((f) => f !== 'line'), 'forward', 'spooled', 'problem', 'delivery', 'target'] as const;
import { DEFAULT_FORWARD_CONCURRENCY, MAX_FORWARD_CONCURRENCY } from '../../webhooks/forward-limits.js';
import { ALWAYS_WAIT_5XX } from '../../webhooks/target-health.js';

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

/** --metrics-listen: `port`, `host:port` or `[v6]:port` (a bare port binds loopback). */
function hostPort(raw: string, name: string): { host: string; port: number } {
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):)?(\d{1,5})$/.exec(raw.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`${name} must be an address like 127.0.0.1:9464 or a port, not "${raw.slice(0, 40)}"`, 'Bind it where only your monitoring reaches (loopback, or a private network).');
  return { host: m[1] ?? m[2] ?? '127.0.0.1', port };
}

/** --park-on: 5xx statuses, never one that always means the target is down. */
function parkOnList(raw: string, name: string): number[] {
  const statuses = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (statuses.length === 0) throw new UsageError(`${name} needs at least one status, like 500,501`);
  return statuses.map((s) => {
    const n = /^\d{3}$/.test(s) ? Number(s) : NaN;
    if (!(n >= 500 && n <= 599)) throw new UsageError(`${name}: "${s.slice(0, 20)}" is not a 5xx status`, 'Any 4xx but 408 and 429 already refuses an event; name the 5xx statuses your app answers for an event it will never take.');
    if (ALWAYS_WAIT_5XX.includes(n)) throw new UsageError(`${name}: ${n} means the target is down or busy, so events wait for it and are never parked`, `Name other 5xx statuses, like 500,501.`);
    return n;
  });
}

/** Well under the 10 s after which common senders give up and retry. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;
/** How long a sender may take for its headers, and again for its body. */
export const DEFAULT_READ_TIMEOUT_MS = 10_000;
/**
 * Connections open at once by default (fewer when the descriptor limit is
 * lower): far more than senders use (the benchmark's 200), and each idle one
 * holds about 25 KiB. With the body budget below, a flood of 2,000 half-open
 * connections and 500 stalled 1 MiB bodies peaked at 151-152 MiB on Node 24
 * under load (test/e2e/webhook-bounds.test.ts), against 173-184 MiB with
 * 1,000 connections and 32 MiB of bodies, near the 200 MiB bound.
 */
export const DEFAULT_MAX_CONNECTIONS = 512;
/** MiB of request bodies held at once by default: 16 webhooks of the largest size (1 MiB), thousands of usual ones. */
export const DEFAULT_MAX_BODY_MEMORY_MIB = 16;
/** On SIGTERM, requests and forwards in flight get --forward-timeout to finish, at most this long. */
export const MAX_DRAIN_MS = 30_000;

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
    readTimeout: custom('a sender has this long for its headers, and as long again for its body, like 10s (default: 10s; 408 when over)', 'duration', (raw, name) => parseDuration(name, raw, { minMs: 500, maxMs: 120_000 })!),
    maxConnections: int(`sender connections open at once (default ${DEFAULT_MAX_CONNECTIONS}, and under the open-files limit); at the cap an idle or slow one is closed to make room`, { min: 16, max: 100_000, placeholder: 'n' }),
    maxBodyMemory: int(`MiB of request bodies held at once (default ${DEFAULT_MAX_BODY_MEMORY_MIB}); past it a sender gets 503 with Retry-After`, { min: 2, max: 4096, placeholder: 'mib' }),
    metrics: bool('serve Prometheus metrics at GET /metrics on the listening port (or on --metrics-listen)'),
    metricsListen: custom('serve GET /healthz and GET /metrics (implies --metrics) on this address instead of the webhook port, like 127.0.0.1:9464 or 9464 (loopback); the webhook port then answers them 404', 'host:port', hostPort),
    maxAttempts: int('with --spool: park an event (a dead letter, kept in the spool) after the target refused it this many times (a 4xx but 408 and 429, or a status of --park-on), so it no longer holds back its subject; a target that cannot be reached never counts. `webhook replay --failed` sends parked events again (default: retry for ever)', { min: 1, max: 1_000_000, placeholder: 'n' }),
    parkOn: custom(`with --max-attempts: comma-separated 5xx statuses that refuse an event, like 500,501 (default: none; other 5xx, and ${ALWAYS_WAIT_5XX.join(', ')} always, mean the target is down: events wait)`, 'statuses', parkOnList),
    maxAge: custom('refuse events whose timestamp is older than this, like 10m (replay protection; default: off)', 'duration', (raw, name) => parseDuration(name, raw, { minMs: 1000, maxMs: 365 * 86_400_000 })!),
    ...KEY_FLAGS,
  },
  // A stream with no end: only formats that print each event as it happens (no JSON array, no CSV header to settle).
  output: { formats: ['table', 'ndjson'], piped: 'ndjson', recordFields: LISTEN_FIELDS },
  needsToken: false,
  // SIGTERM winds down (forwards in flight get up to MAX_DRAIN_MS) and exits 0.
  service: { graceMs: 2 * MAX_DRAIN_MS },
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
    readTimeoutMs: o.readTimeout ?? DEFAULT_READ_TIMEOUT_MS,
    maxConnections: o.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxHeldBytes: (o.maxBodyMemory ?? DEFAULT_MAX_BODY_MEMORY_MIB) * 1024 * 1024,
    metrics: o.metrics || o.metricsListen !== undefined,
    metricsListen: o.metricsListen,
    maxAttempts: ((): number | undefined => {
      if (o.maxAttempts !== undefined && (o.spool === undefined || o.forwardTo === undefined)) throw new UsageError('--max-attempts needs --spool and --forward-to', 'Parked events are kept in the spool: pass --spool DIR and --forward-to URL.');
      if (o.parkOn !== undefined && o.maxAttempts === undefined) throw new UsageError('--park-on needs --max-attempts', 'The statuses of --park-on count towards --max-attempts: pass --max-attempts N too.');
      return o.maxAttempts;
    })(),
    parkOn: new Set(o.parkOn ?? []),
  }),
  details: `Answers 200 for a valid event, 401 for a bad signature, algorithm or key, 400 for a malformed body or payload, 413 for a body over 1 MiB. On a terminal each event prints a line as it arrives: time, HTTP status, event type, employee code (or approval request id), status, what became of it; piped (or -o ndjson), one JSON object per line: {time, httpStatus, valid, reason, ..., eventType, subject, status, payload, forward, spooled, problem}. --fields picks from that object (on a terminal, a line of those values); --jq filters each event's object, as jq does over NDJSON. Ctrl-C stops it.

With --spool and --forward-to, the contract is at-least-once: every acknowledged event is forwarded until the target answers 2xx; after a crash (even kill -9) only the forwards that were in flight (at most --forward-concurrency) are sent again, with the same x-partner-event-id header and x-partner-redelivery: 1, so the target can drop a copy it already has. Order: events about one subject (an employee, a contract, an approval request) are forwarded one at a time in the order they arrived, a failed one retried before the next of its subject; events about different subjects are forwarded side by side, in no promised order. Deliveries keep up: when the target takes events more slowly than senders send them and more than 8 per forward in flight wait, a sender's 200 waits for deliveries (at most 2 s; the event is on disk already), so the backlog and memory stay flat; a target that fails is not waited for. Each delivery attempt prints a line (-o ndjson: {time, delivery: {id, eventType, subject, status|error, redelivery, retryInMs, parked}}).

Bounds for a receiver others can reach: a sender has --read-timeout for its headers and again for its body (408, connection closed); at most --max-connections are open (kept under the open-files limit), and at the cap the connection that does least is closed to make room (first one with no request under way, then the slowest body), or, when every one is busy, the new one gets 503; bodies held at once are capped at --max-body-memory MiB (the declared length counts at once; past it: 503 with Retry-After, connection closed).

GET /healthz on the same port answers 200 {"status":"ok"} while events are taken and (with --spool) the spool can be written, 503 {"status":"unavailable","reasons":[...]} otherwise (stopping, spool unwritable or replaced, disk full, key set unreachable past its cache, and, without --spool, a forward target that cannot be reached: its events are answered 503). With --spool a target that cannot be reached is said too, but the answer stays 200, with "status": "degraded" and "target": {"reachable": false, "unreachableSince": ...}: events are still kept. With --metrics, GET /metrics serves Prometheus text (partner_webhook_*: events received, verified, refused by reason, forwards by status, retries, backlog, oldest undelivered age, parked events, whether the target is up and since when it is not, key-set refetches, request durations). Both answer anyone who can reach the port (they never show an event, a payload or a token, but they tell how busy the receiver is and whether its target is down); --metrics-listen 127.0.0.1:9464 serves them on that address instead (the webhook port then answers them 404), so senders cannot read them.

Dead letters are for refusals, not outages. A target that cannot be reached (connection refused or reset, no answer in time, 408, 429, 502, 503, 504, and any 5xx not named in --park-on) is retried for as long as the spool holds, every forward waiting together (backoff up to 10 s, or the target's Retry-After up to 5 minutes); it is never parked for it, and the listener says once that the target cannot be reached and once that it answers again, not per attempt. With --max-attempts N, an event the target refused N times (a 4xx but 408 and 429, or a 5xx named in --park-on) is parked: kept in the spool (a "parked" record), shown on its delivery line, counted in /metrics and doctor --spool, and no longer holding back its subject; a refused event is retried after its own backoff while the others go. A target can park an event at once by answering it with the header webhook-delivery: abort. \`partner webhook replay --spool DIR --failed\` sends parked events again and unparks those the target takes.

SIGTERM (a service manager stopping it) stops taking connections, lets forwards in flight finish for up to --forward-timeout (the others stay in the spool, resent at the next start), and exits 0; Ctrl-C exits 130 at once.

With --forward-to, 200 means the event is safely kept: the target answered 2xx (within --forward-timeout), or, with --spool, it is on disk and will be forwarded with retries. Otherwise the sender gets 503 with Retry-After and should retry; a copy of an event already delivered is acknowledged again but not forwarded twice. 503 with Retry-After also answers a key that may have just rotated while the key-set refetch is held back (at most one per 30 s, counted from this receiver's own refetches: a new receiver refetches for the first unknown kid at once).`,
  examples: [
    'partner webhook listen --port 4242 --forward-to http://localhost:3000/webhooks',
    'partner webhook listen --events EMPLOYEE_CREATED,EMPLOYEE_UPDATED -o ndjson',
    'partner webhook listen --forward-to http://localhost:3000/webhooks --spool ~/.partner-spool',
    'partner webhook listen --forward-to http://localhost:3000/webhooks --spool ~/.partner-spool --forward-concurrency 4',
    'partner webhook listen --host 0.0.0.0 --port 8080 --forward-to http://localhost:3000/webhooks --spool /var/lib/partner-webhooks --metrics --max-attempts 10',
  ],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./listen.run.js'),
});
