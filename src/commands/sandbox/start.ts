// `partner sandbox start` (run: ./start.run.ts).
import { defineCommand } from '../../command.js';
import { isLoopback } from '../../api/urls.js';
import { UsageError } from '../../errors.js';
import { decimal, httpUrl, int, textOr } from '../../flags.js';

export const start = defineCommand({
  name: 'start',
  summary: 'serve the sandbox API on loopback in the foreground until Ctrl-C',
  flags: {
    port: int('port to listen on (default: any free port)', { min: 0, max: 65535, placeholder: 'port' }),
    host: textOr('loopback address to bind (default 127.0.0.1)', { default: '127.0.0.1', placeholder: 'host' }),
    employees: int('employees of the first company (default 45)', { min: 0, max: 1_000_000 }),
    seed: int('seed of the generated data (default 1)', { min: 0 }),
    latencyMs: int('delay added to every response (default 0)', { min: 0, max: 60_000, placeholder: 'ms' }),
    failRate: decimal('share of requests answered 503 with Retry-After, 0 to 1 (default 0)', { min: 0, max: 1, placeholder: 'r' }),
    resetRate: decimal('share of requests whose connection is dropped, 0 to 1 (default 0)', { min: 0, max: 1, placeholder: 'r' }),
    html502Rate: decimal('share of requests answered with a proxy-style HTML 502, 0 to 1 (default 0)', { min: 0, max: 1, placeholder: 'r' }),
    driftRate: decimal('share of employee-list requests before which an employee is created or ended, 0 to 1 (default 0): the company moves under an export', { min: 0, max: 1, placeholder: 'r' }),
    webhookUrl: httpUrl('POST signed events here when employees are created or updated (default: none)', 'http://127.0.0.1:4242/'),
  },
  needsToken: false,
  refine: (o) => {
    if (!isLoopback(o.host)) throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1, localhost), not "${o.host}"`, 'The sandbox is for local use only.');
    return o;
  },
  examples: ['partner sandbox start --port 8080', 'partner sandbox start --employees 20000 --latency-ms 50'],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./start.run.js'),
});
