// Whether this is the single-file executable, and its assets (scripts/build-binary.mjs): files
// that a Node single executable application carries inside itself, since it
// can read no module file beside it. Outside the executable (an npm install,
// the sources under test) there are none, and every function here answers
// undefined. node:sea is reached through process.getBuiltinModule, the same
// way from the ES module build and the executable's CommonJS scripts.

/** The part of node:sea used here (injected by tests). */
export interface SeaAssets {
  isSea(): boolean;
  getRawAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

/** node:sea, a built-in reached the same way from every build (undefined on a Node without it). */
export function nodeSea(): SeaAssets | undefined {
  return process.getBuiltinModule?.('node:sea') as SeaAssets | undefined;
}

/** True inside the single-file executable: the one place that asks node:sea. */
export function isSingleExecutable(sea: Pick<SeaAssets, 'isSea'> | undefined = nodeSea()): boolean {
  try {
    return sea?.isSea() === true;
  } catch {
    return false;
  }
}

/** node:sea when this process is the single executable, else undefined. */
export function runningSea(): SeaAssets | undefined {
  const sea = nodeSea();
  return isSingleExecutable(sea) ? sea : undefined;
}

/** The asset `key` as UTF-8 text in the executable; undefined elsewhere. */
export function seaAssetText(key: string): string | undefined {
  return runningSea()?.getAsset(key, 'utf8');
}

/** Asset keys, shared with scripts/build-binary.mjs (which writes them). */
export const SEA_ASSET = {
  /** The jq worker's script (a worker started from this text: `new Worker(code, { eval: true })`). */
  jqWorker: 'js/jq-worker.cjs',
  /** jq-wasm's emscripten module (jq 1.7 with its WebAssembly inlined), which output/jq-engine.ts patches. */
  jqModule: 'js/jq-wasm.cjs',
} as const;

/**
 * A CommonJS module's exports from its source text: what require() does for a
 * file, here for an asset. Its require() reaches Node's built-ins only (all
 * an asset needs: its own dependencies are bundled inside it).
 */
export function evalCommonJs(source: string, filename: string): unknown {
  const { compileFunction } = process.getBuiltinModule('node:vm');
  const fn = compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename }) as (...a: unknown[]) => void;
  const module = { exports: {} as unknown };
  fn(module.exports, builtinRequire, module, filename, '/');
  return module.exports;
}

/** require() for Node's built-ins, throwing as require() does for anything else. */
export function builtinRequire(id: string): unknown {
  const m = process.getBuiltinModule(id);
  if (m === undefined) throw Object.assign(new Error(`Cannot find module '${id}' (the single executable carries its modules inside)`), { code: 'MODULE_NOT_FOUND' });
  return m;
}
