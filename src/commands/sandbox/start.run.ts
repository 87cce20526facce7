import type { OptionsOf } from '../../command.js';
import type { start } from './start.js';
import type { Context } from '../../context.js';
import { InterruptedError, listenError } from '../../errors.js';
import { suggestion } from '../../text/command-line.js';
import { wrapMessage } from '../../text/wrap.js';

export async function run(opts: OptionsOf<typeof start>, ctx: Context): Promise<void> {
  const { startSandbox } = await import('../../sandbox/server.js');
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(opts);
  } catch (err) {
    throw listenError(err, `${opts.host ?? '127.0.0.1'}:${opts.port ?? 0}`);
  }
  ctx.onCleanup(() => sandbox.close());
  const { io } = ctx;
  // At stdout's width, between words; the command to try on a line of its own, whole (text/command-line.ts).
  const banner = [
    `Sandbox API listening on ${sandbox.url}`,
    '',
    `  ${sandbox.companies.A.name} token:  ${sandbox.tokens.companyA}`,
    `  ${sandbox.companies.B.name} token:  ${sandbox.tokens.companyB}`,
    `  No-permission token:  ${sandbox.tokens.noPermission}`,
    '',
    suggestion('Try:', `PARTNER_BASE_URL=${sandbox.url} PARTNER_TOKEN=${sandbox.tokens.companyA} partner employees list`),
  ].join('\n');
  io.stdout.write(`${wrapMessage(banner, io.columns)}\n`);
  ctx.log.info('Press Ctrl-C to stop.');
  // Serve until Ctrl-C (or another stop signal) aborts the context's signal.
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // Closed here, not only at cleanup, so the line below is true when it is read: the port is free again.
  await sandbox.close();
  // Said for a stop signal only: a closed or failed stdout has its own ending (a quiet exit, or one line of failure).
  if (ctx.signal.reason instanceof InterruptedError) ctx.log.info(`Stopped the sandbox at ${sandbox.url}.`);
}
