import { createRequire } from 'node:module';

/** What build this is: the package version, the commit it was built from, that commit's date (scripts/build-info.mjs). */
export interface BuildInfo {
  version: string;
  commit: string;
  date: string;
}

/** The package version, read from package.json (one directory above the built files). */
export function packageVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/** dist/build-info.json, written by the build beside the built files; from the sources (tests), the version alone. */
export function buildInfo(): BuildInfo {
  try {
    const info = createRequire(import.meta.url)('./build-info.json') as Partial<BuildInfo>;
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
