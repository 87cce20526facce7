import type { Context } from '../../context.js';
import { listenError, UsageError } from '../../errors.js';
import { isLoopback } from '../../api/http.js';
import { parseInteger } from '../../options.js';
import type { SandboxOptions } from '../../sandbox/server.js';

export function parse(_args: string[], raw: Record<string, unknown>): SandboxOptions {
  const host = String(raw.host ?? '127.0.0.1');
  if (!isLoopback(host)) throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1, localhost), not "${host}"`, 'The sandbox is for local use only.');
  return {
    host,
    port: parseInteger('--port', raw.port, { min: 0, max: 65535 }),
    employees: parseInteger('--employees', raw.employees, { min: 0, max: 1_000_000 }),
    seed: parseInteger('--seed', raw.seed, { min: 0 }),
    latencyMs: parseInteger('--latency-ms', raw.latencyMs, { min: 0, max: 60_000 }),
    failRate: rate('--fail-rate', raw.failRate),
    resetRate: rate('--reset-rate', raw.resetRate),
    html502Rate: rate('--html502-rate', raw.html502Rate),
    driftRate: rate('--drift-rate', raw.driftRate),
    webhookUrl: webhookUrl(raw.webhookUrl),
  };
}

function rate(flag: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (String(raw).trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} must be a number from 0 to 1, not "${String(raw).slice(0, 40)}"`);
  return n;
}

function webhookUrl(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const u = new URL(String(raw));
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    return u.toString();
  } catch {
    throw new UsageError(`--webhook-url must be an http(s) URL, not "${String(raw).slice(0, 80)}"`);
  }
}

export async function run(opts: SandboxOptions, ctx: Context): Promise<void> {
  const { startSandbox } = await import('../../sandbox/server.js');
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(opts);
  } catch (err) {
    throw listenError(err, `${opts.host ?? '127.0.0.1'}:${opts.port ?? 0}`);
  }
  ctx.onCleanup(() => sandbox.close());
  const { io } = ctx;
  io.stdout.write(`Sandbox API listening on ${sandbox.url}\n\n`);
  io.stdout.write(`  ${sandbox.companies.A.name} token:  ${sandbox.tokens.companyA}\n`);
  io.stdout.write(`  ${sandbox.companies.B.name} token:  ${sandbox.tokens.companyB}\n`);
  io.stdout.write(`  No-permission token:  ${sandbox.tokens.noPermission}\n\n`);
  io.stdout.write(`Try:  PARTNER_BASE_URL=${sandbox.url} PARTNER_TOKEN=${sandbox.tokens.companyA} partner employees list\n`);
  io.stderr.write('Press Ctrl-C to stop.\n');
  // Serve until Ctrl-C aborts the context's signal.
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
