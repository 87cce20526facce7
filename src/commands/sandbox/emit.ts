// `partner sandbox emit` (run: ./emit.run.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { arg, bool, custom, httpUrl } from '../../flags.js';
import { EVENT_TYPES, type EventType } from '../../webhooks/event-catalogue.js';
import { hasLegacyShape } from '../../webhooks/samples.js';

function eventTypeArg() {
  return {
    ...arg.oneOf(EVENT_TYPES, 'the event type, as the spec names it'),
    parse: (raw: unknown): EventType => {
      const text = raw === undefined ? '' : String(raw).trim();
      const hit = EVENT_TYPES.find((t) => t.toLowerCase() === text.toLowerCase());
      if (!hit) throw new UsageError(text ? `EVENT_TYPE "${text.slice(0, 40)}" is not an event type of the spec` : 'EVENT_TYPE is required', `One of: ${EVENT_TYPES.join(', ')}`, 'INVALID_OPTION');
      return hit;
    },
  };
}

function jsonObject(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError('--data must be a JSON object, e.g. \'{"employeeCode":"ACME-00007"}\'');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--data must be a JSON object');
  return parsed as Record<string, unknown>;
}

export const emit = defineCommand({
  name: 'emit',
  summary: 'send a signed webhook event of any type of the spec to a URL, signed by a running sandbox',
  args: { eventType: eventTypeArg() },
  flags: {
    to: httpUrl('POST the signed JWS here (for example `partner webhook listen`)', 'http://127.0.0.1:4242/'),
    print: bool('print the signed JWS on stdout'),
    legacy: bool('use the earlier published shape (employeeId for employeeCode; id for contractId)'),
    data: custom('JSON object merged over the generated data, e.g. \'{"updateType":"BANK_DETAILS"}\'', 'json', jsonObject),
    rotateKey: bool('make the sandbox rotate to a new signing key first (the old one stays published)'),
  },
  output: { formats: ['table', 'json'], fields: false },
  refine: (o) => {
    if (o.print && o.out.chosen) throw new UsageError('-o applies to the delivery report; --print writes the signed JWS itself', 'Drop -o (the report then goes to stderr), or drop --print.');
    if (!o.to && !o.print) throw new UsageError('Nowhere to send the event', 'Pass --to URL (a receiver such as `partner webhook listen`), or --print to print the signed JWS.');
    if (o.legacy && !hasLegacyShape(o.eventType)) throw new UsageError(`--legacy: ${o.eventType} has no earlier published shape`, 'Earlier shapes exist for the employee events (employeeId) and the contract events (id).');
    return o;
  },
  details: `With --to, the report of the delivery (event type, kid, receiver, its HTTP status) is printed (-o json: {eventType, legacy, kid, to, status}); with --print, stdout carries only the JWS and the report goes to stderr.

The sandbox of the active profile signs the event with its own P-521 key (ES512, kid in the header) and keeps publishing the key set at /v1/partner/.well-known/jwks.json, so a receiver pointed at the same base URL can verify it. Start one with \`partner sandbox start\`.

With --sandbox, the embedded sandbox signs with keys kept across runs in the cache directory (sandbox-signing-keys.json, mode 0600): \`partner --sandbox webhook verify\` and \`partner --sandbox webhook listen\` verify what it signed.`,
  examples: [
    'partner sandbox emit EMPLOYEE_CREATED --to http://127.0.0.1:4242/',
    'partner sandbox emit CONTRACT_ACTIVATED --legacy --to http://127.0.0.1:4242/',
    'partner sandbox emit APPROVAL_REQUEST_APPROVED --print | partner webhook verify',
    'partner --sandbox sandbox emit EMPLOYEE_CREATED --print | partner --sandbox webhook verify',
  ],
  load: () => import('./emit.run.js'),
});
