// no runtime warning reaches the user. `profile get` of several
// employees runs dozens of requests at once on one Ctrl-C signal; each used
// to add its own abort listener to it, and Node printed
// "(node:…) MaxListenersExceededWarning … 11 abort listeners added to [AbortSignal]".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = tempDir();
  env = isolatedEnv(dir.path);
});

afterAll(() => dir.cleanup());

function expectNoNodeWarning(stderr: string): void {
  expect(stderr).not.toMatch(/\(node:\d+\)/);
  expect(stderr).not.toMatch(/MaxListenersExceeded|Warning:/);
}

describe('the multi-employee paths print no (node:…) warning', () => {
  it('profile get with two employees named', async () => {
    const r = await runCli(['--sandbox', 'profile', 'get', 'ACME-00007', 'ACME-00001', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expectNoNodeWarning(r.stderr);
  });

  it.each([['-o', 'ndjson'], ['-o', 'table']])('profile get --from-file with twelve employees, --concurrency 8, %s %s', async (flag, format) => {
    const ids = join(dir.path, 'ids.txt');
    writeFileSync(ids, `${Array.from({ length: 12 }, (_, i) => `ACME-${String(i + 1).padStart(5, '0')}`).join('\n')}\n`);
    const r = await runCli(['--sandbox', 'profile', 'get', '--from-file', ids, '--concurrency', '8', flag, format], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ACME-00012/);
    expectNoNodeWarning(r.stderr);
  });
});
