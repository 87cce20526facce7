// `partner doctor`: checks the set-up a command depends on, one line each,
// OK or a fix. Read-only except for what any command does anyway (opening
// the config tightens a too-wide file, and says so). Exit code: the worst
// failure's (3 no/refused token, 4 forbidden, 1 anything else); warnings
// alone exit 0.
import type { Context } from '../../context.js';
import { ExitCode, worstExitCode } from '../../errors.js';
import { writeRecord } from '../../output/writer.js';
import { secretRedactor } from '../../api/redact.js';
import { type Check, renderChecks } from './checks.js';
import { DoctorSession, type DoctorOptions, type DoctorStep } from './session.js';
import * as step from './steps.js';
import { keyCache, webhookKeys } from './webhook-keys.js';

export type { DoctorOptions } from './session.js';

/**
 * The checks, in the order they run and are shown. A check that calls the
 * server notes whether it answered; `base URL answer` then settles the base
 * URL's line, and the clock reads the Date header the key set came with.
 */
export const STEPS: readonly DoctorStep[] = [
  { name: 'Node.js', run: step.nodeVersion },
  { name: 'config file', run: step.configFile },
  { name: 'profile', run: step.profile },
  { name: 'base URL', run: step.baseUrl },
  { name: 'connection', run: step.connection },
  { name: 'token', run: step.token },
  { name: 'webhook keys', run: webhookKeys },
  { name: 'key cache', run: keyCache },
  { name: 'base URL answer', run: step.baseUrlAnswer },
  { name: 'clock', run: step.clock },
  { name: 'proxy', run: step.proxy },
  { name: 'keyring', run: step.keyring },
  { name: 'spool', run: step.spool },
];

export async function run(opts: DoctorOptions, ctx: Context): Promise<number> {
  const session = new DoctorSession(ctx, opts);
  const checks: Check[] = [];
  for (const { run: check } of STEPS) {
    const result = await check(session);
    if (result) checks.push(result);
  }
  // Anything a server said (error bodies, headers) may echo the token: mask any run of 8+ of its characters.
  const token = session.profile?.token;
  if (token) {
    const redact = secretRedactor(token);
    for (const c of checks) {
      c.message = redact(c.message);
      if (c.fix) c.fix = redact(c.fix);
    }
  }
  const code = worstExitCode(checks.filter((c) => c.status === 'fail').map((c) => c.exitCode ?? ExitCode.FAILURE));
  await writeRecord(ctx.io, ctx.io.stdout, { ok: code === 0, exitCode: code, checks }, opts.out, { table: () => renderChecks(checks, ctx) });
  return code;
}
