// `85.000` typed for the EUR salary is refused, naming
// both readings (85 or 85000) and what to type, instead of being taken as 85;
// the review shows the amount grouped, with its currency.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { ENTITY_FORMS } from '../../src/sandbox/schemas.js';
import { DraftStore } from '../../src/forms/drafts.js';
import { loadSchema } from '../../src/forms/schema.js';
import { allFields } from '../../src/forms/questions.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { DOWN, ENTER, hasScript, Pty } from '../helpers/pty.js';

const DEU = 'Acme Deutschland GmbH';

let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
const ptys: Pty[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, TERM: 'xterm' });
  // A draft with every answer but the salary, so --resume asks the salary first.
  const form = loadSchema(ENTITY_FORMS.find((f) => f.name === DEU)!.schema);
  const answers: Record<string, Record<string, unknown>> = {
    personal: { firstName: 'Erika', lastName: 'Mustermann', dateOfBirth: '1990-04-12', gender: 'FEMALE', maritalStatus: 'MARRIED', nationality: 'DEU' },
    contact: { personalEmail: 'erika.m@mail.example', personalPhoneNumber: '+49 151 2345 6789', emergencyContactName: 'Max Mustermann', emergencyContactPhone: '+49 160 1111 2222', emergencyContactRelationship: 'SPOUSE' },
    address: { addressLine1: 'Hauptstraße 5', city: 'Berlin', subdivision: 'DE-BE', postalCode: '10115' },
    employment: { workEmail: 'erika.numbers@acme.example', startDate: '2026-03-01', designation: 'Software Engineer', department: 'Engineering', type: 'EMPLOYEE', term: 'PERMANENT', weeklyHours: 40 },
    compensation: { currency: 'EUR', payFrequency: 'MONTHLY', hasSigningBonus: false },
    bank: { accountHolderName: 'Erika Mustermann', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankName: 'Commerzbank' },
  };
  const asked = new Set(allFields(form, answers).map((f) => f.id));
  for (const s of form.sections) asked.add(`section:${s.key}`);
  for (const s of form.sections) if (!s.required && answers[s.key] === undefined) asked.add(`skip:${s.key}`);
  asked.delete('compensation.baseSalary');
  new DraftStore(env).saveGp('0000abcd', { entity: DEU, answers, asked: [...asked], history: [] });
});

afterAll(async () => {
  for (const p of ptys) p.kill();
  await sandbox.close();
  dir.cleanup();
});

describe.skipIf(!hasScript)('numbers in the wizard', () => {
  it('85.000 for a EUR salary is refused naming 85 and 85000; 85000 is shown as "85 000 EUR" on the review', async () => {
    const p = new Pty(['gp', 'create', '--entity', DEU, '--resume'], env);
    ptys.push(p);
    await p.expect(/\? Annual gross base salary \[EUR\]/);
    await p.type('85.000');
    await p.expect(/Annual gross base salary is ambiguous: "85\.000" could be 85 or 85000\. Type 85000 for 85000, or 85 for 85/);
    await p.expect(/\? Annual gross base salary \[EUR\]/);
    // The refused text is still in the prompt: clear it, then type the amount meant.
    p.send('\x7f'.repeat(6));
    await p.type('85000');
    await p.expect(/Review your answers/);
    await p.expect(/Annual gross base salary: 85 000 EUR/);
    expect(p.out).not.toMatch(/Annual gross base salary: 85 EUR/);
    await p.answer(/\? What next\?/, `${DOWN}${DOWN}${ENTER}`); // Save the draft and quit
    expect(await p.done).toBe(130);
    const drafts = join(dir.path, 'config', 'drafts');
    const draft = JSON.parse(readFileSync(join(drafts, readdirSync(drafts)[0]), 'utf8'));
    expect(draft.answers.compensation).toEqual({ baseSalary: 85000, currency: 'EUR', payFrequency: 'MONTHLY', hasSigningBonus: false });
  }, 60_000);
});
