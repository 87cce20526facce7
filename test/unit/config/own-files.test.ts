// config/own-files.ts: "the same file" through a relative path, a symlink and
// a hard link, a file not there yet; partner's own files by directory, link
// and content; and the refusal's codes and order (own files first).
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFiles, ownFile, sameFile } from '../../../src/config/own-files.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
const at = (...p: string[]) => join(dir.path, ...p);

beforeEach(() => {
  dir = tempDir();
  env = { PARTNER_CONFIG_DIR: at('cfg'), PARTNER_CACHE_DIR: at('cache') };
  mkdirSync(at('cfg'));
  writeFileSync(at('cfg', 'config.json'), '{"profiles":{}}');
  writeFileSync(at('a.csv'), 'x');
  writeFileSync(at('b.csv'), 'x');
});
afterEach(() => dir.cleanup());

describe('sameFile', () => {
  it('by path, relative path, symlink and hard link; not two files with the same content', () => {
    expect(sameFile(at('a.csv'), at('a.csv'))).toBe(true);
    expect(sameFile(at('a.csv'), relative(process.cwd(), at('a.csv')))).toBe(true);
    symlinkSync(at('a.csv'), at('l.csv'));
    linkSync(at('a.csv'), at('h.csv'));
    expect(sameFile(at('l.csv'), at('a.csv'))).toBe(true);
    expect(sameFile(at('h.csv'), at('a.csv'))).toBe(true);
    expect(sameFile(at('a.csv'), at('b.csv'))).toBe(false);
  });

  it('a file not there yet: by the real path of its directory', () => {
    symlinkSync(dir.path, at('here'));
    expect(sameFile(at('new.csv'), at('here', 'new.csv'))).toBe(true);
    expect(sameFile(at('new.csv'), at('other.csv'))).toBe(false);
    expect(sameFile(at('missing', 'x.csv'), at('missing', 'x.csv'))).toBe(true);
    expect(sameFile(at('new.csv'), at('a.csv'))).toBe(false);
  });
});

describe('ownFile', () => {
  it('anything in the config or cache directory, also through a symlink or not there yet', () => {
    expect(ownFile(at('cfg', 'config.json'), env)).toContain("in partner's config directory");
    expect(ownFile(at('cfg', 'drafts', 'new.json'), env)).toContain("in partner's config directory");
    expect(ownFile(at('cfg'), env)).toContain("in partner's config directory");
    expect(ownFile(at('cache', 'jwks.json'), env)).toContain("in partner's cache directory");
    symlinkSync(at('cfg'), at('innocent'));
    expect(ownFile(at('innocent', 'x.csv'), env)).toContain("in partner's config directory");
    symlinkSync(at('cfg', 'config.json'), at('c.json'));
    expect(ownFile(at('c.json'), env)).toContain("in partner's config directory");
    expect(ownFile(at('cfg-other.json'), env)).toBeUndefined();
    expect(ownFile(at('a.csv'), env)).toBeUndefined();
  });

  it('a hard link to one of its files, a bulk journal, a spool journal', () => {
    linkSync(at('cfg', 'config.json'), at('hard.json'));
    expect(ownFile(at('hard.json'), env)).toBe("a hard link to a file in partner's config directory (profiles, tokens, drafts)");
    linkSync(at('a.csv'), at('a2.csv'));
    expect(ownFile(at('a2.csv'), env)).toBeUndefined();
    writeFileSync(at('r.journal'), '{"kind":"partner-bulk-journal","version":2,"entity":"A"}\n');
    expect(ownFile(at('r.journal'), env)).toContain('bulk onboarding journal');
    writeFileSync(at('not.journal'), '{"kind":"other"}\n');
    expect(ownFile(at('not.journal'), env)).toBeUndefined();
    mkdirSync(at('spool'));
    writeFileSync(at('spool', 'journal.ndjson'), '');
    expect(ownFile(at('spool', 'journal.ndjson'), env)).toBe('the journal of a webhook spool');
  });
});

describe('checkFiles', () => {
  it('an output that is an input or another output: SAME_FILE; stdin is no file', () => {
    expect(() => checkFiles([{ flag: '--in', path: at('a.csv'), role: 'input' }, { flag: '--out', path: at('a.csv'), role: 'output' }], env)).toThrow(expect.objectContaining({ code: 'SAME_FILE', exitCode: 2, message: `--out ${at('a.csv')} is the same file as the input --in ${at('a.csv')}: it would be replaced` }));
    expect(() => checkFiles([{ flag: '--x', path: at('b.csv'), role: 'output' }, { flag: '--y', path: at('b.csv'), role: 'output' }], env)).toThrow(expect.objectContaining({ code: 'SAME_FILE', message: expect.stringContaining('the output --y') }));
    expect(() => checkFiles([{ flag: '--in', path: at('a.csv'), role: 'input' }, { flag: '--in2', path: at('a.csv'), role: 'input' }], env)).not.toThrow();
    expect(() => checkFiles([{ flag: '--in', path: '-', role: 'input' }, { flag: '--out', path: '-', role: 'output' }], env)).not.toThrow();
    expect(() => checkFiles([{ flag: '--in', path: at('a.csv'), role: 'input' }, { flag: '--out', path: at('b.csv'), role: 'output' }], env)).not.toThrow();
  });

  it("partner's own files: OWN_FILE, read or written", () => {
    expect(() => checkFiles([{ flag: '--input', path: at('cfg', 'config.json'), role: 'input' }], env)).toThrow(expect.objectContaining({ code: 'OWN_FILE', exitCode: 2, message: expect.stringContaining('partner never reads or sends its own files') }));
    expect(() => checkFiles([{ flag: '--output-file', path: at('cfg', 'config.json'), role: 'output' }], env)).toThrow(expect.objectContaining({ code: 'OWN_FILE', message: expect.stringContaining('partner never writes its output over its own files') }));
  });
});
