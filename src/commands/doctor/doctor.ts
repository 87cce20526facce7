// `partner doctor` (run: ./doctor.run.ts).
import { defineCommand } from '../../command.js';
import { path } from '../../flags.js';

export const doctor = defineCommand({
  name: 'doctor',
  summary: 'check your set-up: Node.js, config file, profile, token, webhook keys, clock, proxy',
  flags: {
    spool: path('also check this `webhook listen --spool` directory: events, undelivered ones, journal lines that could not be read', { placeholder: 'dir', role: 'dir' }),
  },
  output: { formats: ['table', 'json'], recordFields: ['ok', 'exitCode', 'checks'] },
  needsToken: false,
  details: `Each line is OK, WARN, FAIL (with a fix) or -- (not applicable). Checks: the Node.js version (20.18 or newer), the config file and its permissions (0600 in a 0700 directory), the active profile and base URL (https, or loopback; it must answer), the token (present, and accepted by one GET /v1/employees?pageSize=1), the webhook key set (reachable; kids; the age of the cached copy), clock skew against the server's Date header (warns over 60 s) and the proxy variables in use (credentials masked). With --spool DIR, a receiver's spool too: its events, how many are undelivered and how many of those are parked (dead letters: WARN, replay them with \`webhook replay --failed\`), and journal lines that could not be read (damaged on disk), which webhook listen keeps aside in DIR/journal.unreadable.ndjson with their offsets (WARN).

Exit status: 0 when nothing failed (warnings allowed); otherwise the worst failure's code: 3 no or refused token, 4 forbidden, 1 anything else.`,
  examples: ['partner doctor', 'partner --sandbox doctor', 'partner --sandbox doctor -o json --jq .ok'],
  load: () => import('./doctor.run.js'),
});
