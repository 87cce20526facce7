// numbers exactly as the server sent them. A recording
// server answers with numbers JSON.parse would change (9007199254740993 ->
// …992, 1e400 -> Infinity, 1.0 -> 1, -0 -> 0); every command and format that
// passes the answer through prints them digit for digit, and a form whose
// bound a double cannot hold is refused before anything is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { scriptedServer } from '../helpers/scripted-server.js';

const TOKEN = 'tok_numbers_0123456789abcdef';
const ID = '00000000-0000-4000-8000-000000000007';
/** Each token as the server spells it: none of them survives JSON.parse and JSON.stringify. */
const SENT = ['9007199254740993', '1e400', '-0', '1.0', '12345678901234567890', '0.1000000000000000055511151231257827'] as const;

const employee = `{"id":"${ID}","employeeCode":"ACME-7","employeeId":${SENT[0]},"firstName":"Ada","lastName":"Lovelace","fullName":"Ada Lovelace","workEmail":"ada@example.com","designation":${SENT[3]},"department":${SENT[1]},"status":"ACTIVE","country":${SENT[2]},"customerId":${SENT[4]},"customerName":${SENT[5]}}`;
const pagination = '{"currentPage":1,"pageSize":20.0,"totalPages":1,"totalItems":1.0,"hasNextPage":false,"hasPreviousPage":false}';
/** The list page compact (each row's own text can be reused) and pretty-printed (every row is parsed and written again). */
const compactPage = `{"data":[${employee}],"pagination":${pagination}}`;
const prettyPage = `{\n  "data": [\n    ${employee.replace(/,"/g, ', "')}\n  ],\n  "pagination": ${pagination}\n}`;
const compensation = `{"currency":"EUR","annual":${SENT[4]},"ratio":${SENT[5]},"cap":${SENT[1]},"bonus":${SENT[3]},"adjust":${SENT[2]},"history":[${SENT[0]},${SENT[3]}]}`;
const schema = (max: string) =>
  `{"type":"object","required":["personal"],"properties":{"personal":{"type":"object","title":"Personal","required":["firstName"],"properties":{"firstName":{"type":"string","title":"First name"},"salary":{"type":"number","title":"Salary","minimum":1.0,"maximum":${max},"multipleOf":0.10}}}}}`;

const server = scriptedServer();
const tmp = tempDir('partner-numbers-');
afterAll(() => tmp.cleanup());
const env = () => isolatedEnv(tmp.path, { PARTNER_BASE_URL: server.url, PARTNER_TOKEN: TOKEN });

function json(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(text);
}

/** Answers by path, for commands whose requests are not one fixed sequence. */
function routes(table: Record<string, string>, times = 12): void {
  for (let k = 0; k < times; k++) {
    server.queue.push((req: IncomingMessage, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      const body = table[path];
      if (body === undefined) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such route"}');
      else json(res, body);
    });
  }
}

const cli = (args: string[]) => runMain(args, { env: env(), timeoutMs: 20_000 });

function expectAllSent(text: string, tokens: readonly string[] = SENT): void {
  for (const t of tokens) expect(text).toMatch(new RegExp(`(^|[^0-9.eE+-])${t.replace(/[.+-]/g, '\\$&')}($|[^0-9.eE+-])`));
}

describe('employees list keeps every number as sent', () => {
  it.each([
    ['compact', compactPage],
    ['pretty-printed', prettyPage],
  ])('-o json, %s answer: the record and the pagination, digit for digit', async (_what, page) => {
    server.queue.push((_q, res) => json(res, page));
    const r = await cli(['employees', 'list', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{\n  "data": [\n    ${employee}\n  ],\n  "pagination": ${pagination}\n}\n`);
  });

  it('-o ndjson, and --fields', async () => {
    server.queue.push((_q, res) => json(res, prettyPage));
    server.queue.push((_q, res) => json(res, compactPage));
    const nd = await cli(['employees', 'list', '-o', 'ndjson']);
    expect(nd.code).toBe(0);
    expect(nd.stdout).toBe(`${employee}\n`);
    const picked = await cli(['employees', 'list', '-o', 'ndjson', '--fields', 'employeeId,department,country,customerName']);
    expect(picked.stdout).toBe(`{"employeeId":${SENT[0]},"department":${SENT[1]},"country":${SENT[2]},"customerName":${SENT[5]}}\n`);
  });

  it('-o csv writes each number as its text', async () => {
    server.queue.push((_q, res) => json(res, compactPage));
    const r = await cli(['employees', 'list', '-o', 'csv', '--fields', 'employeeId,designation,department,customerId,customerName,country']);
    expect(r.code).toBe(0);
    // -0 begins with a minus: neutralised like any cell a spreadsheet would take for a formula.
    expect(r.stdout).toBe(`employeeId,designation,department,customerId,customerName,country\r\n${SENT[0]},${SENT[3]},${SENT[1]},${SENT[4]},${SENT[5]},'-0\r\n`);
  });

  it('-o table shows each number as its text', async () => {
    server.queue.push((_q, res) => json(res, compactPage));
    const r = await cli(['employees', 'list', '-o', 'table', '--fields', 'employeeId,designation,department,customerId,customerName,country']);
    expect(r.code).toBe(0);
    expectAllSent(r.stdout);
  });

  it('--jq gets the numbers as sent', async () => {
    server.queue.push((_q, res) => json(res, prettyPage));
    const r = await cli(['employees', 'list', '--jq', '.data[0] | [.employeeId, .customerId, .designation] | map(tostring) | join(" ")']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('9007199254740992');
    expect(r.stdout).toContain(SENT[0]);
  });
});

describe('profile get keeps every number as sent', () => {
  it('-o json and the key/value view', async () => {
    routes({ '/v1/employees': compactPage, [`/v1/employees/${ID}/compensation`]: compensation });
    const r = await cli(['profile', 'get', ID, 'compensation', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"annual": ${SENT[4]},\n`);
    expect(r.stdout).toContain(`"ratio": ${SENT[5]},\n`);
    expect(r.stdout).toContain(`"cap": ${SENT[1]},\n`);
    expect(r.stdout).toContain(`"bonus": ${SENT[3]},\n`);
    expect(r.stdout).toContain(`"adjust": ${SENT[2]},\n`);
    expect(r.stdout).toMatch(new RegExp(`"history": \\[\\s*${SENT[0]},\\s*${SENT[3].replace('.', '\\.')}\\s*\\]`));
    server.queue.length = 0;
    routes({ '/v1/employees': compactPage, [`/v1/employees/${ID}/compensation`]: compensation });
    const t = await cli(['profile', 'get', ID, 'compensation', '-o', 'table']);
    expect(t.code, t.stderr).toBe(0);
    expectAllSent(t.stdout);
  });

  it('-o csv', async () => {
    routes({ '/v1/employees': compactPage, [`/v1/employees/${ID}/compensation`]: compensation });
    const r = await cli(['profile', 'get', ID, 'compensation', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expectAllSent(r.stdout, [SENT[0], SENT[1], SENT[3], SENT[4], SENT[5]]);
  });
});

describe('partner api keeps every number as sent', () => {
  const doc = `{"n":${SENT[0]},"inf":${SENT[1]},"negZero":${SENT[2]},"one":${SENT[3]},"big":${SENT[4]},"long":${SENT[5]},"list":[${SENT.join(',')}]}`;

  it('prints the document with every number as sent (-o json)', async () => {
    server.queue.push((_q, res) => json(res, doc));
    const r = await cli(['api', '/v1/anything']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(doc), null, 2).replace(/"n": \d+/, `"n": ${SENT[0]}`).replace(/"inf": null/, `"inf": ${SENT[1]}`).replace(/"negZero": 0/, `"negZero": ${SENT[2]}`).replace(/"one": 1/, `"one": ${SENT[3]}`).replace(/"big": \d+/, `"big": ${SENT[4]}`).replace(/"long": [\d.]+/, `"long": ${SENT[5]}`).replace(/"list": \[[^\]]*\]/, `"list": [\n    ${SENT.join(',\n    ')}\n  ]`)}\n`);
  });

  it('-o ndjson and -o csv of a list, and --jq', async () => {
    const list = `[{"id":"a","n":${SENT[0]},"inf":${SENT[1]}},{"id":"b","n":${SENT[4]},"inf":${SENT[3]}}]`;
    server.queue.push((_q, res) => json(res, list));
    server.queue.push((_q, res) => json(res, list));
    server.queue.push((_q, res) => json(res, doc));
    const nd = await cli(['api', '/v1/list', '-o', 'ndjson']);
    expect(nd.stdout).toBe(`{"id":"a","n":${SENT[0]},"inf":${SENT[1]}}\n{"id":"b","n":${SENT[4]},"inf":${SENT[3]}}\n`);
    const csv = await cli(['api', '/v1/list', '-o', 'csv']);
    expect(csv.stdout).toBe(`id,n,inf\r\na,${SENT[0]},${SENT[1]}\r\nb,${SENT[4]},${SENT[3]}\r\n`);
    const jq = await cli(['api', '/v1/anything', '--jq', '.n, .big']);
    expect(jq.code).toBe(0);
    expect(jq.stdout).toBe(`${SENT[0]}\n${SENT[4]}\n`);
  });
});

describe('partner api sends numbers as typed', () => {
  it('-F n=1.0 and a long decimal are sent as typed, not as JavaScript spells them', async () => {
    server.queue.push((_q, res) => json(res, '{}'));
    const r = await cli(['api', '-X', 'POST', '/v1/things', '-F', 'n=1.0', '-F', `long=${SENT[5]}`, '-F', 'i=5']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen[0]!.body).toBe(`{"n":1.0,"long":${SENT[5]},"i":5}`);
  });

  it('--input: the body is sent with the numbers of the file', async () => {
    const file = join(tmp.path, 'body.json');
    writeFileSync(file, `{"big": ${SENT[0]}, "x": [${SENT[1]}, ${SENT[2]}]}`);
    server.queue.push((_q, res) => json(res, '{}'));
    const r = await cli(['api', '-X', 'POST', '/v1/things', '--input', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen[0]!.body).toBe(`{"big":${SENT[0]},"x":[${SENT[1]},${SENT[2]}]}`);
  });
});

describe('gp schema and gp create', () => {
  it('gp schema -o json prints the document with its numbers as sent', async () => {
    server.queue.push((_q, res) => json(res, schema('1e400')));
    const r = await cli(['gp', 'schema', '--entity', 'ACME-DE', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"minimum": 1.0,');
    expect(r.stdout).toContain('"maximum": 1e400,');
    expect(r.stdout).toContain('"multipleOf": 0.10\n');
  });

  it('gp create refuses a form bound a double cannot hold: NUMBER_NOT_EXACT naming it, nothing sent', async () => {
    const values = join(tmp.path, 'values.json');
    writeFileSync(values, JSON.stringify({ personal: { firstName: 'Ada', salary: 5 } }));
    server.queue.push((_q, res) => json(res, schema(SENT[0])));
    const r = await cli(['gp', 'create', '--entity', 'ACME-DE', '--from-file', values, '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NUMBER_NOT_EXACT');
    expect(r.stderr).toContain(`${SENT[0]} for properties.personal.properties.salary.maximum of the form from the server`);
    expect(server.seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('gp create still computes with a bound spelt otherwise but held exactly (minimum 1.0)', async () => {
    const values = join(tmp.path, 'low.json');
    writeFileSync(values, JSON.stringify({ personal: { firstName: 'Ada', salary: 0.5 } }));
    server.queue.push((_q, res) => json(res, schema('100.00')));
    const r = await cli(['gp', 'create', '--entity', 'ACME-DE', '--from-file', values, '--dry-run']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'FORM_INVALID', details: [{ field: 'personal.salary', message: 'Salary must be at least 1' }] });
    expect(server.seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('gp create --set sends a number with its digits as written (1.0 stays 1.0; 100000000000000000000000 is not 1e+23)', async () => {
    server.queue.push((_q, res) => json(res, schema('1e30')));
    server.queue.push((_q, res) => res.writeHead(201, { 'content-type': 'application/json' }).end(`{"id":"${ID}","employeeCode":"ACME-7","status":"ONBOARDING"}`));
    const r = await cli(['gp', 'create', '--entity', 'ACME-DE', '--set', 'personal.firstName=Ada', '--set', 'personal.salary=100000000000000000000000', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST']);
    expect(server.seen[1]!.body).toBe('{"entity":"ACME-DE","personal":{"firstName":"Ada","salary":100000000000000000000000}}');
    server.queue.push((_q, res) => json(res, schema('100.00')));
    const d = await cli(['gp', 'create', '--entity', 'ACME-DE', '--set', 'personal.firstName=Ada', '--set', 'personal.salary=2.50', '--dry-run']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain('"salary": 2.50');
  });
});
