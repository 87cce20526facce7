// International text through the wizard, on a real pseudo-terminal, against a
// small server that keeps the exact bytes of every request body:
// an answer holding a ZWNJ and a ZWJ emoji sequence, edited again (Tab takes
// the current value onto the line, " Jr" is typed) after Esc back, after
// "Change an answer" (found by typing the answer exactly) and after
// --resume, is sent as typed plus the edit; digits typed with an IME are
// sent as numbers and ASCII dates; a choice typed in NFD on --set is sent in
// the form's own spelling; one Backspace deletes a whole emoji sequence.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useLoopbackServer } from '../helpers/loopback-server.js';
import { runCli } from '../helpers/cli.js';
import { BACKSPACE, CTRL_C, DOWN, ENTER, hasScript, ptySessions } from '../helpers/pty.js';

const ESC = '\x1b';
const TAB = '\t';
const ENTITY = 'Ålesund Shipping AS';
/** Persian first name with a ZWNJ (U+200C), and a ZWJ emoji sequence (woman, skin tone, ZWJ, laptop). */
const NAME = 'علی\u200cرضا 👩🏽\u200d💻';
/** A last name with a ZWNJ too: typed exactly into the change list's filter, it must be found. */
const LAST = 'نیک\u200cنام';
const NOMINEE = 'सीता देवी 🇮🇳';

const FORM = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  'x-jsf-order': ['personal', 'compensation', 'legal'],
  required: ['personal', 'compensation', 'legal'],
  properties: {
    personal: {
      type: 'object',
      title: 'Personal details',
      additionalProperties: false,
      'x-jsf-order': ['firstName', 'lastName', 'dateOfBirth', 'city'],
      required: ['firstName', 'lastName', 'dateOfBirth', 'city'],
      properties: {
        firstName: { type: 'string', title: 'First name', minLength: 1, maxLength: 100 },
        lastName: { type: 'string', title: 'Last name', minLength: 1, maxLength: 100 },
        dateOfBirth: { type: 'string', format: 'date', title: 'Date of birth' },
        city: { type: 'string', title: 'City', enum: ['Malm\u00f6', 'Z\u00fcrich'] },
      },
    },
    compensation: {
      type: 'object',
      title: 'Compensation',
      additionalProperties: false,
      required: ['baseSalary'],
      properties: { baseSalary: { type: 'number', title: 'Annual gross base salary', minimum: 1 } },
    },
    legal: {
      type: 'object',
      title: 'Legal',
      'x-submit': 'dynamic-details',
      additionalProperties: false,
      required: ['nominee'],
      properties: { nominee: { type: 'string', title: 'Nominee name', minLength: 1 } },
    },
  },
};

interface Seen {
  method: string;
  path: string;
  body: Buffer;
}

/** Requests answered so far, over the whole file (the employees' ids and codes count on). */
let answered = 0;

const server = useLoopbackServer((req, res) => {
  answered += 1;
  const path = (req.url ?? '').split('?')[0];
  res.setHeader('content-type', 'application/json');
  if (req.method === 'GET' && path === '/v1/employees/dynamic-details/schema') return void res.end(JSON.stringify(FORM));
  if (req.method === 'POST' && path === '/v1/employees/gp-employments') {
    res.statusCode = 201;
    return void res.end(JSON.stringify({ id: `00000000-0000-4000-8000-${String(answered).padStart(12, '0')}`, employeeCode: `INTL-${answered}`, status: 'ONBOARDING' }));
  }
  if (req.method === 'PATCH' && /^\/v1\/employees\/[0-9a-f-]{36}\/dynamic-details$/.test(path)) {
    res.statusCode = 204;
    return void res.end();
  }
  res.statusCode = 404;
  res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'no such route' }));
});

/** The requests of the test so far, each body as the exact bytes received. */
const seen = (): Seen[] => server.requests.map((r) => ({ method: r.method, path: r.url.split('?')[0]!, body: r.bytes }));

const sessions = ptySessions(() => server.url, 'intl-test-token');
const session = () => sessions.session();

// Registered after the server's own (hooks after tests run last-registered first): the sessions end before the server closes.
afterAll(() => sessions.close());

/** The bodies of the POST and the PATCH sent since `from`, as the exact bytes received. */
function sent(from: number): { post: Buffer; patch: Buffer } {
  const after = seen().slice(from);
  const post = after.filter((r) => r.method === 'POST');
  const patch = after.filter((r) => r.method === 'PATCH');
  expect(post).toHaveLength(1);
  expect(patch).toHaveLength(1);
  return { post: post[0].body, patch: patch[0].body };
}

/** The exact bytes a body must be: JSON.stringify writes every character of these strings as itself, in UTF-8 (the text first, for a readable difference). */
function expectBytes(body: Buffer, value: unknown): void {
  expect(body.toString('utf8')).toBe(JSON.stringify(value));
  expect(body.equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasScript)('international text, edited again in the wizard, is sent exactly', () => {
  it('Esc back and "Change an answer": Tab takes the real answer onto the line; the change list finds an answer typed exactly; IME digits are numbers', async () => {
    const from = seen().length;
    const p = session().start(['gp', 'create', '--entity', ENTITY]);
    await p.expect(/\? First name/);
    await p.type(NAME);
    await p.answer(/\? Last name/, ESC); // back to the first name
    await p.answer(/\? First name/, TAB); // the current answer onto the line
    await pause(100);
    await p.type(' Jr');
    await p.expect(/\? Last name/);
    await p.type(LAST);
    await p.expect(/\? Date of birth \[YYYY-MM-DD\]/);
    await p.type('１９９０-０５-０５'); // fullwidth digits, as a Japanese IME types them
    await p.answer(/\? City/, `${DOWN}${ENTER}`); // Zürich
    await p.expect(/\? Annual gross base salary/);
    await p.type('۶۰۰۰۰'); // Persian digits
    await p.expect(/\? Nominee name/);
    // One Backspace takes the whole emoji sequence typed last, not only its last code point.
    await p.type(`${NOMINEE}👩🏽\u200d💻${BACKSPACE}`);
    await p.expect(/Review your answers/);
    await p.expect(/Date of birth: 1990-05-05/);
    await p.expect(/Annual gross base salary: 60000/);
    await p.answer(/\? What next\?/, `${DOWN}${ENTER}`); // Change an answer
    await p.answer(/\? Which answer\? \(type to filter\)/, LAST);
    await p.expect(/› Last name: /); // found: the filter matched the real answer, not the text shown
    await pause(300);
    p.send(ENTER);
    await p.answer(/\? Last name/, TAB);
    await pause(100);
    await p.type('-زاده');
    await p.answer(/\? What next\?/, `${DOWN}${ENTER}`); // Change an answer
    await p.answer(/\? Which answer\? \(type to filter\)/, 'nominee');
    await p.expect(/› Nominee name: /);
    await pause(300);
    p.send(ENTER);
    await p.answer(/\? Nominee name/, TAB);
    await pause(100);
    await p.type(' ji');
    await p.answer(/\? What next\?/, ENTER); // Submit
    await p.expect(/Created INTL-\d+ \(ONBOARDING\)/);
    expect(await p.done).toBe(0);

    const { post, patch } = sent(from);
    expect(post.includes(Buffer.from('\ufffd', 'utf8'))).toBe(false);
    expectBytes(post, { entity: ENTITY, personal: { firstName: `${NAME} Jr`, lastName: `${LAST}-زاده`, dateOfBirth: '1990-05-05', city: 'Z\u00fcrich' }, compensation: { baseSalary: 60000 } });
    expectBytes(patch, { legal: { nominee: `${NOMINEE} ji` } });
  }, 90_000);

  it('--resume of a saved draft: Esc back past the resume point, Tab and typing edit the answer saved in the draft', async () => {
    const s = session();
    const p = s.start(['gp', 'create', '--entity', ENTITY]);
    await p.expect(/\? First name/);
    await p.type(NAME);
    await p.expect(/\? Last name/);
    await p.type(LAST);
    await p.expect(/\? Date of birth/);
    p.send(CTRL_C);
    expect(await p.done).toBe(130);
    const [file] = readdirSync(s.drafts);
    expect(JSON.parse(readFileSync(join(s.drafts, file), 'utf8')).answers).toEqual({ personal: { firstName: NAME, lastName: LAST } });

    const from = seen().length;
    const r = s.start(['gp', 'create', '--entity', ENTITY, '--resume']);
    await r.answer(/\? Date of birth/, ESC); // back to the last name
    await r.answer(/\? Last name/, ESC); // and the first
    await r.answer(/\? First name/, TAB);
    await pause(100);
    await r.type(' Jr');
    await r.answer(/\? Last name/, ENTER); // kept as it is
    await r.expect(/\? Date of birth/);
    await r.type('١٩٩١-٠٢-٠٣'); // Arabic-Indic digits
    await r.answer(/\? City/, ENTER); // Malmö
    await r.expect(/\? Annual gross base salary/);
    await r.type('६००००'); // Devanagari digits
    await r.expect(/\? Nominee name/);
    await r.type(NOMINEE);
    await r.answer(/\? What next\?/, ENTER); // Submit
    await r.expect(/Created INTL-\d+/);
    expect(await r.done).toBe(0);

    const { post, patch } = sent(from);
    expectBytes(post, { entity: ENTITY, personal: { firstName: `${NAME} Jr`, lastName: LAST, dateOfBirth: '1991-02-03', city: 'Malm\u00f6' }, compensation: { baseSalary: 60000 } });
    expectBytes(patch, { legal: { nominee: NOMINEE } });
    expect(readdirSync(s.drafts)).toEqual([]);
  }, 90_000);

  it('--set: a choice typed in NFD and digits of other scripts are sent in the form\'s spelling and as numbers', async () => {
    const s = session();
    const from = seen().length;
    const r = await runCli(
      ['gp', 'create', '--entity', ENTITY, '--set', `personal.firstName=${NAME}`, '--set', `personal.lastName=${LAST}`, '--set', 'personal.dateOfBirth=۱۹۸۸-۰۸-۰۸', '--set', 'personal.city=Zu\u0308rich', '--set', 'compensation.baseSalary=٧٥٠٠٠', '--set', `legal.nominee=${NOMINEE}`, '-o', 'json'],
      { env: s.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const { post, patch } = sent(from);
    expectBytes(post, { entity: ENTITY, personal: { firstName: NAME, lastName: LAST, dateOfBirth: '1988-08-08', city: 'Z\u00fcrich' }, compensation: { baseSalary: 75000 } });
    expectBytes(patch, { legal: { nominee: NOMINEE } });
  }, 60_000);
});
