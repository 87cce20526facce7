import type { Command } from 'commander';
import { lazyAction, type Runtime } from '../../command.js';

export function registerSandbox(program: Command, runtime: Runtime): void {
  const sandbox = program.command('sandbox').description('the embedded mock of the whole API, for demos, tests and integration work');
  sandbox.addHelpText('after', `
Examples:
  $ partner sandbox start --port 8080
  $ partner --sandbox employees list`);
  sandbox
    .command('start')
    .description('serve the sandbox API on loopback in the foreground until Ctrl-C')
    .option('--port <port>', 'port to listen on (default: any free port)')
    .option('--host <host>', 'loopback address to bind', '127.0.0.1')
    .option('--employees <n>', 'employees of the first company (default 45)')
    .option('--seed <n>', 'seed of the generated data (default 1)')
    .option('--latency-ms <ms>', 'delay added to every response (default 0)')
    .option('--fail-rate <r>', 'share of requests answered 503 with Retry-After, 0 to 1 (default 0)')
    .option('--reset-rate <r>', 'share of requests whose connection is dropped, 0 to 1 (default 0)')
    .option('--html502-rate <r>', 'share of requests answered with a proxy-style HTML 502, 0 to 1 (default 0)')
    .option('--drift-rate <r>', 'share of employee-list requests before which an employee is created or ended, 0 to 1 (default 0): the company moves under an export')
    .option('--webhook-url <url>', 'POST signed events here when employees are created or updated (default: none)')
    .addHelpText(
      'after',
      `
Examples:
  $ partner sandbox start --port 8080
  $ partner sandbox start --employees 20000 --latency-ms 50
  $ PARTNER_BASE_URL=http://127.0.0.1:8080 PARTNER_TOKEN=<printed token> partner employees list`,
    )
    .action(lazyAction(runtime, () => import('./start.js')));
  sandbox
    .command('emit')
    .description('send a signed webhook event of any type of the spec to a URL, signed by a running sandbox')
    .argument('<event-type>', 'EMPLOYEE_CREATED, EMPLOYEE_ACTIVATED, EMPLOYEE_UPDATED, EMPLOYEE_DEACTIVATED, EMPLOYEE_DELETED, CONTRACT_CREATED, CONTRACT_ACTIVATED (deprecated), APPROVAL_REQUEST_CREATED, APPROVAL_REQUEST_APPROVED, APPROVAL_REQUEST_REJECTED')
    .option('--to <url>', 'POST the signed JWS here (for example `partner webhook listen`)')
    .option('--print', 'print the signed JWS on stdout')
    .option('--legacy', 'use the earlier published shape (employeeId for employeeCode; id for contractId)')
    .option('--data <json>', 'JSON object merged over the generated data, e.g. \'{"updateType":"BANK_DETAILS"}\'')
    .option('--rotate-key', 'make the sandbox rotate to a new signing key first (the old one stays published)')
    .addHelpText(
      'after',
      `
The sandbox of the active profile signs the event with its own P-521 key
(ES512, kid in the header) and keeps publishing the key set at
/v1/partner/.well-known/jwks.json, so a receiver pointed at the same base
URL can verify it. Start one with \`partner sandbox start\`.

Examples:
  $ export PARTNER_BASE_URL=http://127.0.0.1:8080 PARTNER_TOKEN=<sandbox token>
  $ partner sandbox emit EMPLOYEE_CREATED --to http://127.0.0.1:4242/
  $ partner sandbox emit CONTRACT_ACTIVATED --legacy --to http://127.0.0.1:4242/
  $ partner sandbox emit APPROVAL_REQUEST_APPROVED --print | partner webhook verify`,
    )
    .action(lazyAction(runtime, () => import('./emit.js')));
}
