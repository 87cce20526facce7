// `webhook verify --file` in-process (offline key set): verdicts in file
// order through mapOrdered, one record per line through writeList, the
// summary under the table or on stderr, and an empty file refused before
// anything is printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '../../../../src/commands/webhook/verify.js';
import { runInProcess } from '../../../helpers/command.js';
import { ecKey, employeeCreated, signEs } from '../../webhooks/helpers.js';

const k1 = ecKey('k1');
let dir: string;
let jwksFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-verify-'));
  jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [k1.jwk] }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('webhook verify --file', () => {
  it('40 lines, valid and invalid mixed (more than are verified at once): one record per line, in file order', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `junk-${i}` : signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: `ACME-${String(i).padStart(4, '0')}` }), k1.privateKey)));
    const r = await runInProcess(verify, [], { file: file('mixed.jws', lines), jwksFile, output: 'ndjson' });
    expect(r.code).toBe(8);
    const got = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; valid: boolean; subject: string | null });
    expect(got.map((v) => v.line)).toEqual(lines.map((_, i) => i + 1));
    expect(got.map((v) => v.valid)).toEqual(lines.map((_, i) => i % 3 !== 0));
    expect(got[1]!.subject).toBe('ACME-0001');
    expect(r.err).toBe('40 webhooks: 26 valid, 14 invalid (MALFORMED 14)\n');
  });

  it('-o table: a header, a row per line, the summary as the footer; nothing on stderr', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    const r = await runInProcess(verify, [], { file: file('two.jws', [jws, '', 'x.y']), jwksFile, output: 'table' });
    expect(r.code).toBe(8);
    const out = r.out.trimEnd().split('\n');
    expect(out).toHaveLength(4);
    expect(out[1]).toMatch(/^1\s+VALID\s+EMPLOYEE_CREATED\s+ACME-0007\s+ONBOARDING\s+k1\s+-$/);
    expect(out[2]).toMatch(/^3\s+MALFORMED\s+-\s+-\s+-\s+-\s+\S/);
    expect(out[3]).toBe('2 webhooks: 1 valid, 1 invalid (MALFORMED 1)');
    expect(r.err).toBe('');
  });

  it('all valid: exit 0; a file of blank lines: a usage error', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    const ok = await runInProcess(verify, [], { file: file('ok.jws', [jws, jws]), jwksFile, output: 'json' });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toHaveLength(2);
    await expect(runInProcess(verify, [], { file: file('blank.jws', ['', '  ']), jwksFile, output: 'json' })).rejects.toThrow(/holds no JWS/);
  });
});
