// The wizard's edges through a real pseudo-terminal, against a small server
// serving a form the sandbox does not have (test/fixtures/forms/
// required-empty-2020.json): a required object whose fields are all optional
// left empty (no dead end: sent as {}), a multi-line textarea (exact body,
// one line on the review, kept in the draft), and Esc after --resume going
// back past the resume point (the secret asked again, never stored).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useLoopbackServer } from '../helpers/loopback-server.js';
import { CTRL_C, DOWN, ENTER, hasScript, ptySessions } from '../helpers/pty.js';

const ESC = '\x1b';
const ENTITY = 'Edge Cases Ltd';
const FORM = readFileSync(join(import.meta.dirname, '../fixtures/forms/required-empty-2020.json'), 'utf8');

const posts: unknown[] = [];

const server = useLoopbackServer((req, res, body) => {
  const path = (req.url ?? '').split('?')[0];
  res.setHeader('content-type', 'application/json');
  if (req.method === 'GET' && path === '/v1/employees/dynamic-details/schema') return void res.end(FORM);
  if (req.method === 'POST' && path === '/v1/employees/gp-employments') {
    posts.push(JSON.parse(body));
    res.statusCode = 201;
    return void res.end(JSON.stringify({ id: `emp-${posts.length}`, employeeCode: `EDGE-${posts.length}`, status: 'ONBOARDING' }));
  }
  res.statusCode = 404;
  res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'no such route' }));
});

const sessions = ptySessions(() => server.url, 'edge-test-token');
const session = () => sessions.session();

// Registered after the server's own (hooks after tests run last-registered first): the sessions end before the server closes.
afterAll(() => sessions.close());

describe.skipIf(!hasScript)('wizard edges through a pseudo-terminal', () => {
  it('a required object of optional fields left empty is sent as {} (Submit offered at once); a textarea keeps its lines', async () => {
    const p = session().start(['gp', 'create', '--entity', ENTITY]);
    await p.answer(/\? Name/, `Ada${ENTER}`);
    await p.answer(/\? Badge PIN \(optional\)/, ENTER);
    await p.expect(/Several lines: a blank line ends the text/);
    await p.answer(/\? Notes \(optional\)/, `First line${ENTER}`);
    await p.answer(/\? …/, `  second line, indented${ENTER}`);
    // The line prompt re-renders on every key: wait for the second line to be done and the third prompt shown.
    await p.answer(/✔ … +second line, indented\n\? …/, ENTER); // a blank line ends the text
    await p.expect(/Postal address\n\s*Only if it differs from the home address\./);
    await p.answer(/\? Address line 2 \(optional\)/, ENTER);
    await p.answer(/\? PO box \(optional\)/, ENTER); // (leave empty)
    await p.answer(/\? Skills \[comma-separated; Enter for none\]/, ENTER);
    await p.answer(/\? Nickname \(optional\)/, ENTER); // the one entry Children needs, left empty
    await p.answer(/\? Add another entry to Children\? \(1 so far\)/, ENTER);
    await p.answer(/\? Hobby \(optional\)/, ENTER); // a required section of optional fields
    await p.answer(/\? Fill in Perks\? \(optional\)/, `n${ENTER}`);
    await p.expect(/Review your answers/);
    await p.expect(/Notes: First line ↵ {3}second line, indented \(2 lines\)/);
    await p.answer(/\? What next\?/, ENTER);
    await p.expect(/Created EDGE-\d+ \(ONBOARDING\)/);
    expect(await p.done).toBe(0);
    expect(p.out).not.toMatch(/need(s)? attention|Fix these answers/);
    expect(posts.at(-1)).toEqual({ entity: ENTITY, profile: { name: 'Ada', notes: 'First line\n  second line, indented', address: {}, skills: [], children: [{}] }, extras: {} });
  }, 60_000);

  it('Ctrl-C, then --resume: the textarea is kept in the draft, the secret asked again, and Esc goes back past the resume point', async () => {
    const s = session();
    const before = posts.length;
    const p = s.start(['gp', 'create', '--entity', ENTITY]);
    await p.answer(/\? Name/, `Grace${ENTER}`);
    await p.answer(/\? Badge PIN \(optional\)/, `4711${ENTER}`);
    await p.answer(/\? Notes \(optional\)/, `Alpha${ENTER}`);
    await p.answer(/\? …/, `Beta${ENTER}`);
    await p.answer(/✔ … +Beta\n\? …/, ENTER);
    await p.answer(/\? Address line 2 \(optional\)/, `Flat 3${ENTER}`);
    await p.expect(/\? PO box \(optional\)/);
    p.send(CTRL_C);
    expect(await p.done).toBe(130);
    const [file] = readdirSync(s.drafts);
    const text = readFileSync(join(s.drafts, file), 'utf8');
    const draft = JSON.parse(text);
    expect(draft.answers).toEqual({ profile: { name: 'Grace', notes: 'Alpha\nBeta', address: { line2: 'Flat 3' } } });
    expect(draft.history).toEqual(['profile.name', 'profile.notes', 'profile.address.line2']);
    expect(text).not.toContain('4711');

    const r = s.start(['gp', 'create', '--entity', ENTITY, '--resume']);
    await r.expect(/Secret answers \(Badge PIN\) are never stored in drafts; they are asked again\./);
    await r.answer(/\? Badge PIN \(optional\)/, `4712${ENTER}`);
    await r.answer(/\? PO box \(optional\)/, ESC); // back to the question answered just before
    await r.answer(/\? Badge PIN \(optional\)/, `4711${ENTER}`);
    await r.answer(/\? PO box \(optional\)/, ESC);
    await r.answer(/\? Badge PIN \(optional\)/, ESC); // past the resume point: answered before Ctrl-C
    await r.expect(/\? Address line 2 \(optional\) \(Flat 3\)/);
    r.send(ESC);
    await r.expect(/Enter on the first line keeps the current text \(Alpha ↵ Beta\)/);
    await r.answer(/\? Notes \(optional\)/, ENTER); // keeps both lines
    // Then forward in form order through what is not answered now: the PIN (left by Esc), the address line.
    await r.expect(/Press Enter to keep the current value\./);
    await r.answer(/\? Badge PIN \(optional\)/, ENTER); // keeps 4711 (in memory only)
    await r.answer(/\? Address line 2 \(optional\)/, `${'\x7f'.repeat(6)}Flat 4${ENTER}`);
    await r.answer(/\? PO box \(optional\)/, `${DOWN}${ENTER}`); // Yes
    await r.answer(/\? Skills/, `go, rust${ENTER}`);
    await r.answer(/\? Nickname \(optional\)/, `Bo${ENTER}`);
    await r.answer(/\? Add another entry to Children\? \(1 so far\)/, ENTER);
    await r.answer(/\? Hobby \(optional\)/, ENTER);
    await r.answer(/\? Fill in Perks\? \(optional\)/, `n${ENTER}`);
    await r.expect(/Badge PIN: \*{8}/);
    await r.expect(/Notes: Alpha ↵ Beta \(2 lines\)/);
    await r.answer(/\? What next\?/, ENTER);
    await r.expect(/Created EDGE-\d+/);
    expect(await r.done).toBe(0);
    expect(posts.length).toBe(before + 1);
    expect(posts.at(-1)).toEqual({ entity: ENTITY, profile: { name: 'Grace', pin: '4711', notes: 'Alpha\nBeta', address: { line2: 'Flat 4', poBox: true }, skills: ['go', 'rust'], children: [{ nickname: 'Bo' }] }, extras: {} });
    expect(r.raw).not.toContain('4711');
    expect(r.raw).not.toContain('4712');
    expect(readdirSync(s.drafts)).toEqual([]);
  }, 60_000);
});
