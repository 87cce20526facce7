// no word broken, at 40, 80 and 120 columns, on a real
// pseudo-terminal (util-linux script, `stty cols`) with COLUMNS and LINES not
// in the environment, as in a shell that does not export them. Each case of
// the catalogue below (every message the issue names, the sandbox's banner,
// `sandbox emit`'s report, the listener's lines, the wizard's question, and
// the errors of a table of sample invocations) is shown at each width and
// compared with the same output on a terminal 1000 columns wide (nothing
// wrapped): every line break must fall at a space of that text, and a
// command, code, id or URL is never cut unless it is wider than the row it
// starts (test/helpers/word-breaks.ts). Against the sandbox over real HTTP;
// receivers on OS-chosen loopback ports.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { closedPort, useLoopbackServer } from '../helpers/loopback-server.js';
import { CTRL_C, ENTER, hasScript, Pty } from '../helpers/pty.js';
import { screenOf } from '../helpers/screen.js';
import { brokenWords, plain, terminalRows } from '../helpers/word-breaks.js';

const WIDTHS = [40, 80, 120] as const;
const WIDE = 1000;
const DEU = 'Acme Deutschland GmbH';
const VALUES = join(ROOT, 'test/fixtures/forms/deu-values.json');
const INVALID = join(ROOT, 'test/fixtures/forms/deu-invalid.json');

let sandbox: Sandbox;
// A receiver for `sandbox emit`: 200, or a refusal with a message when the path says so.
const receiver = useLoopbackServer((req, res) => {
  if (req.url === '/refuse') res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'REJECTED', message: 'The signature was made with a key this receiver does not know; it is checked again after the next key rotation.' }));
  else res.writeHead(200).end('ok');
});
/** A loopback port nothing listens on (refused at once). */
let refused: number;
let dir: { path: string; cleanup: () => void };
const ptys: Pty[] = [];

/** A shell that exports neither COLUMNS nor LINES; no colour (the checker reads text). */
function env(extra: Record<string, string | undefined> = {}, home = dir.path): NodeJS.ProcessEnv {
  return isolatedEnv(home, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm', COLUMNS: undefined, LINES: undefined, ...extra });
}

function pty(args: string[], e: NodeJS.ProcessEnv, columns: number): Pty {
  const p = new Pty(args, e, { columns, rows: 50 });
  ptys.push(p);
  return p;
}

/** What the terminal was sent by `partner ARGS` run to its end at `columns`, as text. */
async function shown(args: string[], columns: number, e: NodeJS.ProcessEnv = env()): Promise<string> {
  const p = pty(args, e, columns);
  const timer = setTimeout(() => p.kill(), 30_000);
  await p.done;
  clearTimeout(timer);
  return plain(p.raw).replace(/\n+$/, '');
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  refused = await closedPort();
  // Ada exists before the conflict case runs (its every run is then the same 409).
  const ada = await runCli(['gp', 'create', '--entity', DEU, '--from-file', VALUES, '-o', 'json'], { env: env() });
  expect(ada.code, ada.stderr).toBe(0);
  writeFileSync(join(dir.path, 'bad.csv'), 'personal.firstName,personal.lastName,employment.workEmail\nAda,,not-an-email-address-at-all-really\n');
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await sandbox.close();
  dir.cleanup();
});

/**
 * Sample invocations: the messages the issue names, and a CliError of each
 * kind (usage, flag values, files, the API's answers, the network).
 */
const CASES: { name: string; args: () => string[]; env?: () => Record<string, string | undefined>; expect: RegExp }[] = [
  { name: 'profile get ACME-99999 personal (its hint)', args: () => ['profile', 'get', 'ACME-99999', 'personal'], expect: /or pass the employee id/ },
  { name: 'employees list --employee-code NOPE-1', args: () => ['employees', 'list', '--employee-code', 'NOPE-1'], expect: /No results/ },
  { name: "gp create's Next line", args: () => ['gp', 'create', '--entity', DEU, '--from-file', VALUES, '--set', `employment.workEmail=${uniqueEmail()}`, '-o', 'table'], expect: /Next: follow the onboarding with `partner employees list --employee-code ACME-\d+`/ },
  { name: 'gp create, a conflict (kept as a draft, look for the employee)', args: () => ['gp', 'create', '--entity', DEU, '--from-file', VALUES, '-o', 'json'], expect: /already exists/ },
  { name: 'gp create, a conflict, in colour (chalk opens its style again on the hint\'s command line)', args: () => ['gp', 'create', '--entity', DEU, '--from-file', VALUES, '-o', 'json'], env: () => ({ NO_COLOR: undefined, FORCE_COLOR: '1' }), expect: /already exists/ },
  { name: 'gp create, invalid values', args: () => ['gp', 'create', '--entity', DEU, '--from-file', INVALID], expect: /Invalid values/ },
  { name: 'gp create, an entity the server does not know', args: () => ['gp', 'create', '--entity', 'Nope Industries Holding GmbH', '--from-file', VALUES], expect: /Error/ },
  { name: 'gp create --from-csv with invalid rows', args: () => ['gp', 'create', '--entity', DEU, '--from-csv', join(dir.path, 'bad.csv'), '--dry-run'], expect: /invalid/ },
  { name: 'employees list --page-size 500', args: () => ['employees', 'list', '--page-size', '500'], expect: /--page-size must be/ },
  { name: 'employees list --bogus (commander)', args: () => ['employees', 'list', '--bogus'], expect: /unknown option/ },
  { name: 'employees list --jq .x -o csv', args: () => ['employees', 'list', '--jq', '.x', '-o', 'csv'], expect: /--jq works on JSON/ },
  { name: 'employees list --status BOGUS', args: () => ['employees', 'list', '--status', 'BOGUS'], expect: /Error/ },
  { name: 'a refused token (401)', args: () => ['employees', 'list'], env: () => ({ PARTNER_TOKEN: 'wrong-token-1234567890' }), expect: /token was refused/ },
  { name: 'no token at all', args: () => ['employees', 'list'], env: () => ({ PARTNER_TOKEN: undefined }), expect: /Error/ },
  { name: 'a server that is not there (network)', args: () => ['employees', 'list'], env: () => ({ PARTNER_BASE_URL: `http://127.0.0.1:${refused}` }), expect: /Error/ },
  { name: 'profile get with no employee', args: () => ['profile', 'get'], expect: /Error/ },
  { name: 'drafts discard of an unknown draft', args: () => ['drafts', 'discard', '0badc0de'], expect: /No draft 0badc0de/ },
  { name: 'drafts discard of something not a draft id', args: () => ['drafts', 'discard', 'nosuchdraft'], expect: /must be a draft id/ },
  { name: 'an unknown command', args: () => ['employes', 'list'], expect: /Error/ },
  { name: 'webhook replay of a spool that is not there', args: () => ['webhook', 'replay', '--spool', join(dir.path, 'no-such-spool-directory')], expect: /./ },
  { name: 'webhook verify of a file that is not there', args: () => ['webhook', 'verify', '--file', join(dir.path, 'no-such-file.jws')], expect: /Error/ },
  { name: 'sandbox emit of an unknown event type', args: () => ['sandbox', 'emit', 'EMPLOYEE_PROMOTED', '--to', receiver.url], expect: /Error/ },
  { name: "sandbox emit's report", args: () => ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', `${receiver.url}/a/receiver/path/for/webhooks`], expect: /EMPLOYEE_CREATED signed with kid \S+ -> \S+: HTTP 200/ },
  { name: "sandbox emit's refusal", args: () => ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', `${receiver.url}/refuse`], expect: /refused the event/ },
  { name: 'sandbox emit to a receiver that is not running', args: () => ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', `http://127.0.0.1:${refused}/webhooks`], expect: /Is the receiver running/ },
];

let emails = 0;
/** A work e-mail no other run used, as long as every other (the outputs compare equal, digits aside). */
const uniqueEmail = () => `w${String(++emails).padStart(4, '0')}-${String(process.pid).padStart(7, '0')}@acme.example`;

/** Runs a case at every width and on the wide terminal; the broken words found. */
async function check(args: () => string[], extra: Record<string, string | undefined> | undefined, expected: RegExp): Promise<{ problems: string[]; wrapped40: boolean }> {
  // Each run in a home of its own: what one run leaves (a draft) must not change what the next one says.
  const homes: { path: string; cleanup: () => void }[] = [];
  const fresh = () => {
    const home = tempDir();
    homes.push(home);
    return env(extra, home.path);
  };
  try {
    return await checkEach(args, fresh, expected);
  } finally {
    for (const h of homes) h.cleanup();
  }
}

async function checkEach(args: () => string[], fresh: () => NodeJS.ProcessEnv, expected: RegExp): Promise<{ problems: string[]; wrapped40: boolean }> {
  const original = await shown(args(), WIDE, fresh());
  expect(original, 'the text as written').toMatch(expected);
  const problems: string[] = [];
  let wrapped40 = false;
  for (const columns of WIDTHS) {
    const text = await shown(args(), columns, fresh());
    problems.push(...brokenWords(text, original, columns));
    if (columns === 40) wrapped40 = terminalRows(text, 40).length > original.split('\n').length;
  }
  return { problems, wrapped40 };
}

describe.skipIf(!hasScript)('no word broken, COLUMNS not exported', () => {
  let wrappedAt40 = 0;

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { problems, wrapped40 } = await check(c.args, c.env?.(), c.expect);
    expect(problems).toEqual([]);
    if (wrapped40) wrappedAt40++;
  }, 120_000);

  it('the catalogue bites: most of its messages do not fit in 40 columns', () => {
    expect(wrappedAt40).toBeGreaterThan(CASES.length / 2);
  });

  it("the sandbox's banner: its Try: line and Press Ctrl-C to stop", async () => {
    const run = async (columns: number) => {
      const p = pty(['sandbox', 'start', '--port', '0'], env(), columns);
      await p.expect(/Press Ctrl-C to stop\./);
      p.send(CTRL_C);
      await p.done;
      // The port differs between runs; the checker reads digits as equal.
      return plain(p.raw).replace(/\n+$/, '');
    };
    const original = await run(WIDE);
    expect(original).toMatch(/Try:\s+PARTNER_BASE_URL=http:\/\/127\.0\.0\.1:\d+ PARTNER_TOKEN=\S+ partner employees list/);
    expect(original).toMatch(/Stopped the sandbox/);
    for (const columns of WIDTHS) expect(brokenWords(await run(columns), original, columns)).toEqual([]);
  }, 120_000);

  it("the listener's lines", async () => {
    const run = async (columns: number) => {
      const p = pty(['webhook', 'listen', '--path', '/partner/webhooks/receiver', '-o', 'table'], env(), columns);
      await p.expect(/Press\s+Ctrl-C\s+to\s+stop\./);
      const url = /Listening for webhooks on\s+(\S+)/.exec(p.out)![1]!;
      for (const type of ['EMPLOYEE_CREATED', 'APPROVAL_REQUEST_REJECTED']) {
        const r = await runCli(['sandbox', 'emit', type, '--to', url], { env: env() });
        expect(r.code, r.stderr).toBe(0);
      }
      await p.expect(/APPROVAL_REQUEST_REJECTED/);
      p.send(CTRL_C);
      await p.done;
      return plain(p.raw).replace(/\n+$/, '');
    };
    const original = await run(WIDE);
    expect(original).toMatch(/EMPLOYEE_CREATED/);
    for (const columns of WIDTHS) expect(brokenWords(await run(columns), original, columns)).toEqual([]);
  }, 120_000);

  it("the wizard's question: A draft … exists. Continue it? (Y/n)", async () => {
    const home = tempDir();
    try {
      const e = env({}, home.path);
      const first = pty(['gp', 'create', '--entity', DEU], e, 200);
      await first.answer(/\? First name/, `Kurt${ENTER}`);
      await first.answer(/\? Middle name \(optional\)/, CTRL_C);
      expect(await first.done).toBe(130);
      /** The question as it stands on the screen: its rows, from "? A draft" to "(Y/n)". */
      const question = async (columns: number) => {
        const p = pty(['gp', 'create', '--entity', DEU], e, columns);
        await p.expect(/\(Y\/n\)/);
        await new Promise((r) => setTimeout(r, 100));
        const rows = screenOf(p.raw, columns);
        p.send(CTRL_C);
        await p.done;
        const from = rows.findIndex((r) => r.startsWith('? A draft'));
        const to = rows.findIndex((r, i) => i >= from && r.includes('(Y/n)'));
        expect(from, rows.join('\n')).toBeGreaterThanOrEqual(0);
        return rows.slice(from, to + 1).map((r) => r.trimEnd()).join('\n');
      };
      const original = await question(WIDE);
      expect(original).toMatch(/^\? A draft for Acme Deutschland GmbH \(saved [^)]*\) exists\. Continue it\? \(Y\/n\)$/);
      for (const columns of WIDTHS) {
        const text = await question(columns);
        expect(brokenWords(text, original, columns)).toEqual([]);
        // No row starts with the space the question's end was cut at (` (Y/n)`).
        for (const row of text.split('\n')) expect(row).not.toMatch(/^ \(Y/);
      }
    } finally {
      home.cleanup();
    }
  }, 120_000);
});
