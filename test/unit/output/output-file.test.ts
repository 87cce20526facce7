import { readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { openOutputFile } from '../../../src/output/output-file.js';
import { writeChunk } from '../../../src/output/stream.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-outfile-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openOutputFile', () => {
  it('writes to a temp file beside the target and renames it on commit', async () => {
    const target = join(dir, 'out.csv');
    const f = await openOutputFile(target);
    expect(f.tempPath.startsWith(join(dir, '.out.csv.'))).toBe(true);
    await writeChunk(f.stream, 'a,b\n');
    await writeChunk(f.stream, '1,2\n');
    expect(readdirSync(dir)).toEqual([f.tempPath.slice(dir.length + 1)]);
    await f.commit();
    expect(readFileSync(target, 'utf8')).toBe('a,b\n1,2\n');
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    await f.abort(); // after commit: nothing happens
    expect(readFileSync(target, 'utf8')).toBe('a,b\n1,2\n');
  });

  it('leaves the previous file untouched and removes the temp file on abort', async () => {
    const target = join(dir, 'out.ndjson');
    writeFileSync(target, 'previous\n');
    const f = await openOutputFile(target);
    await writeChunk(f.stream, 'half of a new export');
    await f.abort();
    await f.abort();
    expect(readFileSync(target, 'utf8')).toBe('previous\n');
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('keeps the mode of a file it replaces', async () => {
    const target = join(dir, 'shared.csv');
    writeFileSync(target, 'old', { mode: 0o640 });
    const f = await openOutputFile(target);
    await writeChunk(f.stream, 'new');
    await f.commit();
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('refuses a directory that does not exist, with a usage error', async () => {
    const err = await openOutputFile(join(dir, 'missing', 'out.csv')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe('OUTPUT_FILE');
    expect((err as CliError).exitCode).toBe(2);
    expect((err as Error).message).toContain('the directory does not exist');
  });

  it('refuses a path that is a directory', async () => {
    const err = await openOutputFile(dir).catch((e: unknown) => e);
    expect((err as CliError).code).toBe('OUTPUT_FILE');
    expect(readdirSync(dir)).toEqual([]);
  });
});
