import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

export function registerSandbox(program: Command, runtime: Runtime): void {
  const sandbox = program.command('sandbox').description('the embedded mock of the whole API, for demos, tests and integration work');
  sandbox
    .command('start')
    .description('serve the sandbox API on loopback in the foreground until Ctrl-C')
    .option('--port <port>', 'port to listen on (default: any free port)')
    .option('--host <host>', 'loopback address to bind', '127.0.0.1')
    .option('--employees <n>', 'employees of the first company (default 45)')
    .option('--seed <n>', 'seed of the generated data (default 1)')
    .option('--latency-ms <ms>', 'delay added to every response')
    .option('--fail-rate <r>', 'share of requests answered 503 with Retry-After, 0 to 1')
    .option('--reset-rate <r>', 'share of requests whose connection is dropped, 0 to 1')
    .option('--html502-rate <r>', 'share of requests answered with a proxy-style HTML 502, 0 to 1')
    .option('--webhook-url <url>', 'POST signed events here when employees are created or updated')
    .addHelpText(
      'after',
      `
Examples:
  $ partner sandbox start --port 8080
  $ partner sandbox start --employees 20000 --latency-ms 50
  $ PARTNER_BASE_URL=http://127.0.0.1:8080 PARTNER_TOKEN=<printed token> partner employees list`,
    )
    .action(lazyAction(runtime, () => import('./start.js')));
}
