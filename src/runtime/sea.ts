// Whether this process is partner's single-file executable (scripts/build-binary.mjs):
// the one place that asks node:sea. There, no file of partner's exists beside the
// script (no worker file, no native addon in node_modules).

/** The part of node:sea partner uses (injected by tests). */
export interface SeaAssets {
  isSea(): boolean;
  getRawAsset(key: string): ArrayBuffer;
}

/** node:sea, a built-in reached the same way from every build (undefined on a Node without it). */
export function nodeSea(): SeaAssets | undefined {
  return process.getBuiltinModule?.('node:sea') as SeaAssets | undefined;
}

/** True inside the single-file executable. */
export function isSingleExecutable(sea?: SeaAssets): boolean {
  try {
    return (sea ?? nodeSea())?.isSea() === true;
  } catch {
    return false;
  }
}
