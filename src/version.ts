import { createRequire } from 'node:module';

/** The package version, read from package.json (one directory above the built files). */
export function packageVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}
