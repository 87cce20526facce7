import { Option, type Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

function addKeyOptions(cmd: Command): Command {
  return cmd
    .option('--jwks-url <url>', 'fetch the key set here (default: <base URL>/v1/partner/.well-known/jwks.json of the active profile)')
    .option('--jwks-file <path>', 'use this saved key set (offline; never refetched)')
    .option('--no-cache', 'do not use or write the on-disk key-set cache (otherwise reused for at most 1 hour)');
}

export function registerWebhook(program: Command, runtime: Runtime): void {
  const webhook = program.command('webhook').description('verify signed webhook events (ES512 JWS) and receive them locally');
  webhook.addHelpText('after', `
Examples:
  $ partner webhook verify --file captured.jws
  $ partner webhook listen --port 4242 --forward-to http://localhost:3000/webhooks`);

  const verify = webhook
    .command('verify')
    .description('verify one webhook JWS (argument, stdin or a paste), or a file of them (one per line)')
    .argument('[jws]', 'the compact JWS (the raw body, also as a JSON string); "-" or none reads stdin')
    .option('--file <path>', 'verify every JWS in this file, one per line, and print a summary');
  addKeyOptions(verify);
  verify
    .addOption(new Option('-o, --output <format>', 'output format (default: a verdict block on a terminal, json when piped)').choices(['table', 'json', 'ndjson']))
    .addHelpText(
      'after',
      `
Checks: compact JWS only; alg ES512 with an EC P-521 key; the key named by
kid (an unknown kid refetches the key set once, at most every 30 s), or any
key of the set when there is no kid; payload JSON with eventType and data;
the event's shape per the spec. Input over 1 MiB is refused.

Exit status: 0 valid, 8 invalid (any invalid with --file), 2 usage, 1 key set unavailable.
JSON (-o json): {valid, reason, message, signatureValid, kid, alg, header, eventType, meaning, timestamp, payload, warnings, errors}.
Reasons: MALFORMED, TOO_LARGE, UNSUPPORTED_CRIT, UNSUPPORTED_ALG, UNKNOWN_KID, WRONG_KEY_TYPE,
BAD_SIGNATURE, PAYLOAD_NOT_JSON, PAYLOAD_SHAPE, EVENT_SHAPE (the last three: the signature is genuine).

Examples:
  $ partner webhook verify eyJhbGciOiJFUzUxMiIsImtpZCI6...
  $ pbpaste | partner webhook verify -o json
  $ partner webhook verify --file captured.jws --jwks-file jwks.json
  $ partner sandbox emit EMPLOYEE_CREATED --print | partner webhook verify   # against a running sandbox`,
    )
    .action(lazyAction(runtime, () => import('./verify.js')));

  const listen = webhook
    .command('listen')
    .description('run a local receiver that verifies every POSTed webhook and can forward it to your app')
    .option('--port <port>', 'port to listen on (default: any free port, printed at start)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--path <path>', 'URL path webhooks are POSTed to', '/')
    .option('--forward-to <url>', 'POST each valid event, decoded, as JSON to this URL and print its status')
    .option('--events <types>', 'comma-separated event types to report and forward, from those of `partner sandbox emit --help` (default: all; others are acknowledged and ignored)')
    .option('--forward-timeout <duration>', 'total time limit of one forward, like 5s or 500ms (default: 5s)')
    .option('--spool <dir>', 'keep every verified event in this directory (append-only, fsync\'d journal, mode 0700) before acknowledging it; forward from there with retries')
    .option('--max-age <duration>', 'refuse events whose timestamp is older than this, like 10m (replay protection; default: off)');
  addKeyOptions(listen);
  listen
    .addOption(new Option('-o, --output <format>', 'a line per event, or one JSON object per line').choices(['table', 'ndjson']).default('table'))
    .addHelpText(
      'after',
      `
Answers 200 for a valid event, 401 for a bad signature, algorithm or key,
400 for a malformed body or payload, 413 for a body over 1 MiB. Each event
prints a line: time, HTTP status, event type, employee code (or approval
request id), status. Ctrl-C stops it.

With --forward-to, 200 means the event is safely kept: the target answered
2xx (within --forward-timeout), or, with --spool, it is on disk and will be
forwarded with retries. Otherwise the sender gets 503 with Retry-After and
should retry; a copy of an event already delivered is acknowledged again but
not forwarded twice. 503 with Retry-After also answers a key that may have
just rotated while the key-set refetch is held back (at most one per 30 s).

Examples:
  $ partner webhook listen --port 4242 --forward-to http://localhost:3000/webhooks
  $ partner webhook listen --events EMPLOYEE_CREATED,EMPLOYEE_UPDATED -o ndjson
  $ partner sandbox start --port 8080 &   # then, with PARTNER_BASE_URL=http://127.0.0.1:8080:
  $ partner webhook listen --port 4242 & partner sandbox emit EMPLOYEE_CREATED --to http://127.0.0.1:4242/`,
    )
    .action(lazyAction(runtime, () => import('./listen.js')));

  webhook
    .command('replay')
    .description('re-deliver events kept by `webhook listen --spool`, in arrival order')
    .option('--spool <dir>', 'the spool directory of `webhook listen --spool`')
    .option('--since <time>', 'only events received since this ISO 8601 time, or this long ago (like 2h)')
    .option('--event-type <types>', 'only these comma-separated event types')
    .option('--to <url>', 'POST them here (default: the --forward-to each was received with)')
    .addHelpText(
      'after',
      `
Every matching event is sent once, whether or not it was delivered before.
Exit status: 0 all delivered (2xx), 1 any not delivered, 2 usage.

Examples:
  $ partner webhook replay --spool ~/.partner-spool --since 2h --to http://localhost:3000/webhooks
  $ partner webhook replay --spool ./spool --event-type EMPLOYEE_CREATED,EMPLOYEE_UPDATED`,
    )
    .action(lazyAction(runtime, () => import('./replay.js')));
}
