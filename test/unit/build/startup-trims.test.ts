import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, no declarations
import { onFirstUse } from '../../../scripts/cli-build-options.mjs';

/** Evaluates a module made by onFirstUse with a require that records what it loads. */
function load(code: string, real: Record<string, unknown>) {
  const loaded: string[] = [];
  const module = { exports: {} as Record<string, any> };
  const require = (id: string) => {
    loaded.push(id);
    return real;
  };
  new Function('module', 'require', code)(module, require);
  return { exports: module.exports, loaded };
}

describe('the bundle loads unused built-ins on first use', () => {
  it('loads the built-in once, when first used', () => {
    const real = { spawn: () => 'spawned' };
    const m = load(onFirstUse('child_process'), real);
    expect(m.loaded).toEqual([]);
    expect(m.exports.spawn()).toBe('spawned');
    expect(m.exports.spawn()).toBe('spawned');
    expect(m.loaded).toEqual(['node:child_process']);
  });
});
