import { constants as http2 } from 'node:http2';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, no declarations
import { HTTP2_CONSTANTS, onFirstUse } from '../../../scripts/cli-build-options.mjs';

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
  it('knows the HTTP/2 constants undici reads at load exactly as node:http2 has them', () => {
    for (const [k, v] of Object.entries(HTTP2_CONSTANTS)) expect(v, k).toBe((http2 as Record<string, unknown>)[k]);
  });

  it('answers known constants without loading the built-in, and loads it for anything else', () => {
    const real = { constants: { OTHER: 42, HTTP2_HEADER_PATH: 'not used' }, connect: () => 'connected' };
    const m = load(onFirstUse('http2', HTTP2_CONSTANTS), real);
    const { HTTP2_HEADER_PATH, NGHTTP2_CANCEL } = m.exports.constants;
    expect([HTTP2_HEADER_PATH, NGHTTP2_CANCEL]).toEqual([':path', 8]);
    expect(m.loaded).toEqual([]);
    expect(m.exports.constants.OTHER).toBe(42);
    expect(m.exports.connect()).toBe('connected');
    expect(m.loaded).toEqual(['node:http2']);
  });

  it('loads a built-in with no known constants once, when first used', () => {
    const real = { spawn: () => 'spawned' };
    const m = load(onFirstUse('child_process'), real);
    expect(m.loaded).toEqual([]);
    expect(m.exports.spawn()).toBe('spawned');
    expect(m.exports.spawn()).toBe('spawned');
    expect(m.loaded).toEqual(['node:child_process']);
  });
});
