// What build this is, in one place: `partner --version` (the launcher, launch.ts),
// the version command, the help document and the MCP server all read it here.
import { readFileSync } from 'node:fs';

/** What build this is: the package version, the commit it was built from, that commit's date (scripts/build-info.mjs). */
export interface BuildInfo {
  version: string;
  commit: string;
  date: string;
}

/** A JSON file beside the built files (or one level up), read as plain data (no module loader: the launcher's --version loads none). */
function readJson(relative: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** The package version, read from package.json (one directory above the built files). */
export function packageVersion(): string {
  return readJson('../package.json').version as string;
}

/** dist/build-info.json, written by the build beside the built files; from the sources (tests), the version alone. */
export function buildInfo(): BuildInfo {
  try {
    const info = readJson('./build-info.json');
    if (typeof info.version === 'string' && typeof info.commit === 'string' && typeof info.date === 'string') return { version: info.version, commit: info.commit, date: info.date };
  } catch {
    // Not built (the sources under test): nothing more is known.
  }
  return { version: packageVersion(), commit: 'unknown', date: 'unknown' };
}

/** `partner --version`: the version first (what scripts read), then the build: "0.1.0 (commit 1a2b3c4d5e6f, built 2026-11-28)". */
export function versionLine(info: BuildInfo): string {
  return info.commit === 'unknown' && info.date === 'unknown' ? info.version : `${info.version} (commit ${info.commit}, built ${info.date})`;
}
