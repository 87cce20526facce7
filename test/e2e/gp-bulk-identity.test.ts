// Bulk identity, as the operator means a row (the critical case of a form
// without a work e-mail field, which a server may send): against a recording
// server that creates an employee for every POST it takes, `gp create
// --from-csv` run, then the sheet re-saved in Unicode NFD (it looks the
// same): nothing is sent again; then a typo fixed in the created row
// (Lovelase -> Lovelace): BULK_ROWS_CHANGED naming the row and the field,
// exit 2, no second POST. With a work e-mail, the NFD re-save passes too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCode, runCli } from '../helpers/cli.js';
import { recorderEnv, type GpRecorder } from '../helpers/gp-recorder.js';
import { csvText, person, SWE } from '../helpers/bulk-sheet.js';

const NO_MAIL_FORM = {
  type: 'object',
  required: ['personal'],
  properties: {
    personal: {
      type: 'object',
      title: 'Personal',
      required: ['firstName', 'lastName'],
      properties: { firstName: { type: 'string', title: 'First name' }, lastName: { type: 'string', title: 'Last name' }, city: { type: 'string', title: 'City' } },
    },
  },
};
const posts = (rec: GpRecorder) => rec.requests.filter((r) => r.method === 'POST').length;

describe('a form without a work e-mail', () => {
  let rec: GpRecorder;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ rec, env, dir, close } = await recorderEnv('No Mail GmbH', NO_MAIL_FORM));
  });
  afterAll(async () => close?.());

  it('an NFD re-save sends nothing again; a typo fixed in a created row is BULK_ROWS_CHANGED naming the field, never a second POST', async () => {
    const file = join(dir, 'people.csv');
    const sheet = (last: string, form: 'NFC' | 'NFD') => `personal.firstName,personal.lastName,personal.city\r\nAda,${last},Zürich\r\nKurt,Gödel,Brünn\r\n`.normalize(form);
    const run = () => runCli(['gp', 'create', '--entity', 'No Mail GmbH', '--from-csv', file], { env, timeoutMs: 30_000 });
    writeFileSync(file, sheet('Lovelase', 'NFC'));
    expectCode(await run(), 0);
    expect(posts(rec)).toBe(2);

    writeFileSync(file, sheet('Lovelase', 'NFD'));
    const again = await run();
    expectCode(again, 0);
    expect(again.stderr).toContain('0 created, 2 created by an earlier run');
    expect(posts(rec)).toBe(2);

    writeFileSync(file, sheet('Lovelace', 'NFD'));
    const typo = await run();
    expectCode(typo, 2);
    expect(typo.stderr).toContain('BULK_ROWS_CHANGED');
    expect(typo.stderr).toContain('row 2 (personal.lastName; row 2 when sent)');
    expect(posts(rec)).toBe(2);
  });
});

describe('a form with a work e-mail', () => {
  let rec: GpRecorder;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ rec, env, dir, close } = await recorderEnv(SWE));
  });
  afterAll(async () => close?.());

  it('a sheet re-saved in NFD is the same sheet: nothing sent again, nothing refused', async () => {
    const file = join(dir, 'swe.csv');
    const rows = [person('nfd', 1, 'Zoë'), person('nfd', 2, 'Åsa')];
    writeFileSync(file, csvText(rows));
    const run = () => runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env, timeoutMs: 30_000 });
    expectCode(await run(), 0);
    const before = posts(rec);
    writeFileSync(file, csvText(rows).normalize('NFD'));
    const again = await run();
    expectCode(again, 0);
    expect(again.stderr).toContain('0 created, 2 created by an earlier run');
    expect(posts(rec)).toBe(before);
  });
});
