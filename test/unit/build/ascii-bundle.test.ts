// The CLI's scripts are ASCII (scripts/cli-build-options.mjs says why: V8 keeps
// them as one-byte strings, read as latin1 by src/launcher/code-cache.ts). esbuild
// escapes strings and names but leaves a regular expression's characters and some
// comments as written; a source that brings one back is named here, to be
// written as a \u escape. The launcher reads a script that is not ASCII as UTF-8
// all the same: this costs time, never a wrong character.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

describe('the built scripts', () => {
  it.each(['cli.cjs', 'help.cjs', 'launch.cjs'])('dist/%s is ASCII', (name) => {
    const lines = readFileSync(join(ROOT, 'dist', name), 'utf8').split('\n');
    const offending = lines.flatMap((l, i) => (/[^\x00-\x7f]/.test(l) ? [`line ${i + 1}: ${l.trim().slice(0, 120)}`] : []));
    expect(offending).toEqual([]);
  });
});
