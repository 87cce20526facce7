// `partner audit list`: the local audit log of writes (run: ./list.run.ts; the log: src/audit/).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { custom } from '../../flags.js';
import { AUDIT_FIELDS, parseSince } from '../../audit/fields.js';

export const list = defineCommand({
  name: 'list',
  summary: 'the writes partner sent from this machine: who, when, what, and the answer',
  flags: {
    since: custom('only writes sent since then: a duration back from now (90m, 24h, 7d, 2w), or a date (YYYY-MM-DD) or an ISO 8601 time', 'when', (raw, name) => {
      const at = parseSince(raw, Date.now());
      if (at === undefined) throw new UsageError(`${name} must be a duration like 24h or 7d, or a date (YYYY-MM-DD), not "${raw.slice(0, 40)}"`, `For example ${name} 7d`, 'INVALID_OPTION');
      return at;
    }),
  },
  output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: [...AUDIT_FIELDS] },
  needsToken: false,
  details: `Every request partner sends that changes something (POST, PATCH, PUT, DELETE: gp create, dynamic-details submit, each row of a bulk onboarding, partner api with such a method, the MCP write tools) is recorded in the audit log before it goes out, and its outcome when it is known: answered (with the HTTP status and correlation id), failed (no answer came: it may or may not have taken effect) or unknown (partner was stopped before it knew: kill -9, a crash, a power cut). Never a token, a form value or a query string.
The log is audit.ndjson in partner's state directory ($XDG_STATE_HOME/partner, else ~/.local/state/partner; ~/Library/Application Support/partner on macOS, %LOCALAPPDATA%\\partner\\State on Windows; PARTNER_STATE_DIR overrides), 0600 in a 0700 directory, rotated past 1 MiB (4 older files kept). Each record is written whole or not at all: a record a full disk cut short is set aside in audit.cut.ndjson before the next write, and every whole record is listed; lines that cannot be read are counted on stderr. Oldest first; -q prints the ids.
To turn it off for a profile, set "audit": false in that profile of config.json (partner auth status shows where it is); the embedded sandbox is never recorded.`,
  examples: ['partner audit list', 'partner audit list --since 7d', 'partner audit list --since 24h -o csv', 'partner audit list -o json --jq \'[.[] | select(.outcome != "answered")]\''],
  load: () => import('./list.run.js'),
});
