// Doctor's checks of the webhook key set: fetched live through the run's HTTP
// client (reachability, the kids, the Date header for the clock check), then
// the disk cache `webhook verify` uses, read through the same loader.
import { CliError, ExitCode } from '../../errors.js';
import { configDir, cacheDir } from '../../config/paths.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { cacheSecret } from '../../webhooks/cache-secret.js';
import { type Check, describeError, formatAge, headerText, keyAge } from './checks.js';
import type { DoctorSession } from './session.js';

/** The key set's URL under the base URL (its path kept: an API behind a prefix). */
async function jwksUrl(baseUrl: string): Promise<string> {
  const { JWKS_PATH } = await import('../../webhooks/jwks.js');
  const base = new URL(baseUrl);
  return new URL(base.pathname.replace(/\/$/, '') + JWKS_PATH, base).toString();
}

export async function webhookKeys(s: DoctorSession): Promise<Check | undefined> {
  if (s.serverDown) return { name: 'webhook keys', status: 'skip', message: 'not checked: the server could not be reached' };
  const client = s.http;
  if (!client || !s.baseUrl) return undefined;
  s.keySetTried = true;
  const { JWKS_PATH, KeyStore } = await import('../../webhooks/jwks.js');
  const url = await jwksUrl(s.baseUrl);
  const { ctx } = s;
  const live = new KeyStore({
    source: {
      kind: 'url',
      url,
      fetch: async () => {
        const started = ctx.clock.now();
        const res = await client.send('GET', JWKS_PATH, { signal: ctx.signal }).catch((err: unknown) => {
          s.noted(err);
          throw err;
        });
        s.answered = true;
        const date = Date.parse(headerText(res.headers.date) ?? '');
        if (!Number.isNaN(date)) s.serverDate = { date, localMid: (started + ctx.clock.now()) / 2 };
        return { body: res.body, cacheControl: headerText(res.headers['cache-control']) };
      },
    },
    useCache: false,
    now: () => ctx.clock.now(),
  });
  try {
    const snap = await live.current();
    const now = ctx.clock.now();
    const keys = snap.keys.map((k) => ({ kid: k.kid ?? null, usable: k.usable, problem: k.problem ?? null, ageSeconds: keyAge(k.jwk as Record<string, unknown>, now) }));
    const usable = keys.filter((k) => k.usable);
    const kidText = keys.map((k) => `${sanitizeTerminal(k.kid ?? '(no kid)')}${k.ageSeconds === null ? '' : ` ${formatAge(k.ageSeconds)} old`}${k.usable ? '' : ' (unusable)'}`).join(', ');
    const details = { url, keys };
    if (usable.length === 0) {
      return { name: 'webhook keys', status: 'fail', message: `${url}: no ES512 (EC P-521) key among ${keys.length}${kidText ? `: ${kidText}` : ''}`, fix: 'Webhooks cannot be verified with this key set; check the base URL.', exitCode: ExitCode.FAILURE, details };
    }
    const ageNote = keys.some((k) => k.ageSeconds !== null) ? '' : '; key ages not published';
    return { name: 'webhook keys', status: keys.length > usable.length ? 'warn' : 'ok', message: `reachable, ${keys.length} key(s): ${kidText}${ageNote}`, details };
  } catch (err) {
    if (err instanceof CliError && err.code === 'INTERRUPTED') throw err;
    return { name: 'webhook keys', status: 'fail', message: `${url}: ${describeError(err)}`, fix: err instanceof CliError ? err.hint : 'Check the base URL and your network.', exitCode: ExitCode.FAILURE };
  }
}

class NoCachedCopy extends Error {}

/** The age of the copy `webhook verify` cached on disk (whenever the live key set was asked for); never fetches. */
export async function keyCache(s: DoctorSession): Promise<Check | undefined> {
  if (!s.keySetTried || !s.baseUrl) return undefined;
  const { KeyStore, MAX_CACHE_MS } = await import('../../webhooks/jwks.js');
  const { ctx } = s;
  const cached = new KeyStore({
    source: { kind: 'url', url: await jwksUrl(s.baseUrl), fetch: () => Promise.reject(new NoCachedCopy()) },
    cacheDir: cacheDir(ctx.env),
    cacheKey: () => cacheSecret(configDir(ctx.env), undefined, { create: false }),
    now: () => ctx.clock.now(),
  });
  try {
    const snap = await cached.current();
    const age = Math.max(0, Math.round((ctx.clock.now() - snap.fetchedAt) / 1000));
    return { name: 'key cache', status: 'ok', message: `${snap.keys.length} key(s) cached ${formatAge(age)} ago; used for up to ${Math.round(Math.min(MAX_CACHE_MS, snap.maxAgeMs) / 60000)} min` };
  } catch (err) {
    if (!(err instanceof NoCachedCopy)) throw err;
    return { name: 'key cache', status: 'ok', message: 'no fresh cached copy (kept at most 1 h); `webhook verify` fetches the key set when needed' };
  }
}
