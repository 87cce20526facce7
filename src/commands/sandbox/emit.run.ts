// `partner sandbox emit EVENT_TYPE [--to URL]`: builds a realistic payload
// for any event type of the spec, has the sandbox sign it with its own P-521
// key (so a receiver can check it against the sandbox's published JWKS), and
// POSTs the JWS to --to like the real service does.
//
// Where the keys come from: the sandbox of the active profile (a running
// `partner sandbox start`, via PARTNER_BASE_URL/--base-url) signs through its
// /_sandbox/webhooks/sign endpoint. Its JWKS stays published while it runs,
// so `partner webhook listen` pointed at the same base URL verifies the event.
import type { OptionsOf } from '../../command.js';
import type { emit } from './emit.js';
import { writeRecord } from '../../output/writer.js';
import { DeliveryError } from '../../api/delivery.js';
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode, NetworkError, UsageError } from '../../errors.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { wrapMessage } from '../../text/wrap.js';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../../webhooks/events.js';
import { hasLegacyShape, samplePayload } from '../../webhooks/samples.js';

export const SIGN_PATH = '/_sandbox/webhooks/sign';
export const ROTATE_PATH = '/_sandbox/webhooks/rotate-key';

export type EmitOptions = OptionsOf<typeof emit>;


function sandboxOnly(err: unknown): never {
  if (err instanceof ApiError && (err.status === 404 || err.status === 405)) {
    throw new UsageError('The API at this base URL is not a partner sandbox (it has no webhook signing endpoint)', 'Start one with `partner sandbox start` and point PARTNER_BASE_URL at it, or add --sandbox.', 'NOT_A_SANDBOX');
  }
  throw err;
}

/**
 * A refusal as the receiver gave it, whole: `webhook listen` answers
 * {error, message} (the message says what to do, e.g. when a rotated key will
 * be checked again); anything else is shown as it came, sanitised.
 */
export function refusal(excerpt: string): string {
  const text = excerpt.trim();
  if (text === '') return ')';
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (body && typeof body.message === 'string') return `${typeof body.error === 'string' ? ` ${sanitizeCell(body.error)}` : ''}): ${sanitizeCell(body.message)}`;
  } catch {
    // not JSON: shown as it is
  }
  return `): ${sanitizeCell(text)}`;
}

export async function run(opts: EmitOptions, ctx: Context): Promise<number> {
  const http = await ctx.http();
  if (opts.rotateKey) {
    const res = await http.send<{ kid: string }>('POST', ROTATE_PATH, { body: {} }).catch(sandboxOnly);
    ctx.log.info(`Rotated the sandbox signing key: new kid ${sanitizeCell(String(res.body?.kid))}`);
  }
  const payload = samplePayload(opts.eventType, { legacy: opts.legacy, data: opts.data, now: new Date(ctx.clock.now()) });
  const signed = await http.send<{ jws: string; kid: string }>('POST', SIGN_PATH, { body: { payload } }).catch(sandboxOnly);
  const jws = signed.body?.jws;
  if (typeof jws !== 'string') throw new CliError('The sandbox did not return a signed JWS', { code: 'BAD_RESPONSE', exitCode: ExitCode.FAILURE });
  const kid = sanitizeCell(String(signed.body.kid));
  if (opts.print) ctx.io.stdout.write(`${jws}\n`);
  const deprecated = EVENT_CATALOGUE[opts.eventType].successor;
  if (deprecated) ctx.log.warn(`${opts.eventType} is deprecated; receivers should handle ${deprecated}`);
  if (!opts.to) return ExitCode.OK;

  // Through the delivery client: any http(s) receiver, no token, no retries, --timeout as the total deadline.
  const receiver = await ctx.delivery({ connections: 1 });
  let status: number;
  let excerpt: string;
  try {
    // The body is the JWS string itself, with Content-Type application/json, like the real service sends it.
    ({ status, excerpt } = await receiver.deliver(opts.to, {
      headers: { 'content-type': 'application/json', 'user-agent': `partner-cli/${ctx.version} sandbox-emit` },
      body: jws,
    }));
  } catch (err) {
    if (!(err instanceof DeliveryError)) throw err;
    throw new NetworkError(`Could not deliver ${opts.eventType} to ${opts.to}: ${err.reason}`, 'Is the receiver running? Try `partner webhook listen` in another terminal.', 'DELIVERY_FAILED', err);
  }
  const report = { eventType: opts.eventType, legacy: opts.legacy, kid, to: opts.to, status };
  const line = `${opts.eventType}${opts.legacy ? ' (earlier shape)' : ''} signed with kid ${kid} -> ${opts.to}: HTTP ${status}`;
  // With --print, stdout is the JWS alone (for a pipe into `webhook verify`).
  if (opts.print) ctx.log.info(line);
  else await writeRecord(ctx.io, ctx.io.stdout, report, opts.out, { table: () => `${wrapMessage(line, ctx.io.columns)}\n` });
  ctx.log.debug(`receiver answered: ${sanitizeCell(excerpt)}`);
  // Not delivered is a failure like any other: an error (exit 1), printed by the one error renderer.
  if (status < 200 || status >= 300) throw new CliError(`The receiver refused the event (HTTP ${status}${refusal(excerpt)}`, { code: 'DELIVERY_REFUSED', exitCode: ExitCode.FAILURE });
  return ExitCode.OK;
}
