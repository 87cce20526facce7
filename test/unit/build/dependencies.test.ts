// Every runtime dependency earns its place: some module of src/ imports it, through its public
// entry (a file past it may move in any release); and the package is built once, by partner's own
// scripts: npm installs the dependencies (none bundled inside the tarball), and nothing in scripts/
// leans on npm's internals.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; bundleDependencies?: unknown; bundledDependencies?: unknown; files: string[] };
const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
/** Every module specifier of src/: static and dynamic imports, `import type` included. */
const specifiers = sources.flatMap((s) => [...s.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!));
const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

describe('package.json dependencies', () => {
  it('each is imported by src/', () => {
    const imported = new Set(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')).map(packageOf));
    // @napi-rs/keyring: loaded by the keyring module of helper/keyring, and by the single executable (src/runtime/native-addon.ts, scripts/build-binary.mjs).
    const unused = Object.keys(pkg.dependencies).filter((d) => !imported.has(d) && d !== '@napi-rs/keyring');
    expect(unused).toEqual([]);
  });

  it('no package is imported past its public entry (a file past it may move in any release)', () => {
    // (ajv/dist/2020.js is ajv's documented entry for JSON Schema 2020-12.)
    const deep = specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:') && /\/(lib|src)\//.test(s));
    expect(deep).toEqual([]);
  });

  it('one HTTP stack: node:http, no undici (neither a dependency nor imported)', () => {
    expect(Object.keys(pkg.dependencies)).not.toContain('undici');
    expect(specifiers.filter((s) => packageOf(s) === 'undici')).toEqual([]);
  });

  it('none is bundled inside the package: npm installs them from the registry', () => {
    expect(pkg.bundleDependencies).toBeUndefined();
    expect(pkg.bundledDependencies).toBeUndefined();
  });
});

describe('the package build', () => {
  const scripts = readdirSync(join(ROOT, 'scripts')).map((f) => ({ f, text: readFileSync(join(ROOT, 'scripts', f), 'utf8') }));

  it("scripts/ names none of npm's internals (pacote's variables, its cache layout, a global install's settings)", () => {
    for (const { f, text } of scripts) expect(text.match(/_PACOTE_\w*|_cacache|git-clone|npm_config_(global|prefix)\b/g), f).toBeNull();
  });

  it("the files packed leave out the single executable's build (dist/partner-*, SHA256SUMS, dist/sea)", () => {
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', '!dist/partner-*', '!dist/SHA256SUMS', '!dist/sea']));
  });
});
