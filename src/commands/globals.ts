// The global flags, accepted before or after any command, declared once.
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { bool, custom, negated, seconds, text } from '../flags.js';
import { checkBaseUrl } from '../api/urls.js';
import { envFlag } from '../io.js';
import { flagName } from '../command.js';

export const GLOBAL_FLAGS = {
  profile: text('use this saved profile (env PARTNER_PROFILE)', { placeholder: 'name', max: 100 }),
  baseUrl: custom('API base URL (env PARTNER_BASE_URL); https only, except loopback', 'url', (raw) => {
    checkBaseUrl(raw, '--base-url');
    return raw;
  }),
  sandbox: bool('run against the embedded sandbox (no account needed)'),
  debug: bool('log requests and responses to stderr, token redacted (also PARTNER_DEBUG=1)'),
  timeout: seconds('time limit per request, in seconds (default 30)', { default: 30 }),
  color: negated('no colour in output (also NO_COLOR)'),
  input: negated('never prompt; fail instead, naming the flag to use'),
  pager: negated('no pager for output longer than the terminal (also PARTNER_PAGER with an empty value)'),
};

/** Every global flag's spelling, and those that take a value (to find the command words in argv). */
export const GLOBAL_FLAG_NAMES = new Set(Object.entries(GLOBAL_FLAGS).map(([k, f]) => flagName(k, f)));
export const GLOBAL_VALUE_FLAGS = new Set(Object.entries(GLOBAL_FLAGS).filter(([, f]) => f.kind === 'value').map(([k, f]) => flagName(k, f)));

/** Global flags, typed and validated once, read from wherever they were given. */
export function readGlobals(cmd: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const raw = cmd.optsWithGlobals() as Record<string, unknown>;
  const g = GLOBAL_FLAGS;
  return {
    profile: g.profile.parse(raw.profile, '--profile'),
    baseUrl: g.baseUrl.parse(raw.baseUrl, '--base-url'),
    sandbox: g.sandbox.parse(raw.sandbox, '--sandbox'),
    debug: g.debug.parse(raw.debug, '--debug') || envFlag(env.PARTNER_DEBUG),
    timeout: g.timeout.parse(raw.timeout, '--timeout'),
    color: g.color.parse(raw.color, '--no-color'),
    input: g.input.parse(raw.input, '--no-input'),
    pager: g.pager.parse(raw.pager, '--no-pager'),
  };
}
