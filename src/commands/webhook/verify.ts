// `partner webhook verify` (run: ./verify.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { arg, path } from '../../flags.js';
import { KEY_FLAGS, keyFlags } from './key-flags.js';

/** The fields of a verdict (webhooks/render.ts verdictJson); `line` with --file. */
export const VERDICT_FIELDS = ['line', 'valid', 'reason', 'message', 'signatureValid', 'kid', 'alg', 'header', 'eventType', 'meaning', 'timestamp', 'subject', 'status', 'payload', 'warnings', 'errors', 'normalized'] as const;

export const verify = defineCommand({
  name: 'verify',
  summary: 'verify one webhook JWS (argument, stdin or a paste), or a file of them (one per line)',
  args: { jws: arg.optional('the compact JWS (the raw body, also as a JSON string); "-" or none reads stdin') },
  flags: {
    file: path('verify every JWS in this file, one per line, and print a summary'),
    ...KEY_FLAGS,
  },
  output: { formats: ['table', 'json', 'ndjson', 'csv'], recordFields: VERDICT_FIELDS },
  needsToken: false,
  refine: (o) => {
    if (o.jws !== undefined && o.file !== undefined) throw new UsageError('Give the JWS as an argument or with --file, not both');
    return { keys: keyFlags(o), jws: o.jws, file: o.file };
  },
  details: `Checks: compact JWS only; alg ES512 with an EC P-521 key; the key named by kid (an unknown kid refetches the key set, unless this run fetched it less than 30 s ago: UNKNOWN_KID means the key set as published now has no such kid, never that a check was put off), or any key of the set when there is no kid; payload JSON with eventType and data; the event's shape per the spec. Input over 1 MiB is refused.

Exit status: 0 valid, 8 invalid (any invalid with --file), 2 usage, 1 key set unavailable.
JSON (-o json): {valid, reason, message, signatureValid, kid, alg, header, eventType, meaning, timestamp, subject, status, payload, warnings, errors}; --fields picks from it, --jq filters it.
With --file, one record per JWS line ({line, ...the verdict}): a table row each and the summary below it; -o json an array, -o ndjson one per line, -o csv one row per line (header, payload left out); the summary then goes to stderr.
Reasons: MALFORMED, TOO_LARGE, UNSUPPORTED_CRIT, UNSUPPORTED_ALG, UNKNOWN_KID, WRONG_KEY_TYPE, BAD_SIGNATURE, PAYLOAD_NOT_JSON, PAYLOAD_SHAPE, EVENT_SHAPE (the last three: the signature is genuine).`,
  examples: [
    'partner webhook verify --file captured.jws --jwks-file jwks.json',
    'pbpaste | partner webhook verify -o json',
    'partner sandbox emit EMPLOYEE_CREATED --print | partner webhook verify',
  ],
  load: () => import('./verify.run.js'),
});
