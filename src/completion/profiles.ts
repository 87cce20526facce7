// Profile names for shell completion, read straight from the config file:
// nothing is created or tightened, nothing but the names leaves this module
// (never a token), and any problem yields no names rather than an error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';

export function profileNames(env: NodeJS.ProcessEnv): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(join(configDir(env), 'config.json'), 'utf8'));
  } catch {
    return [];
  }
  const profiles = (doc as { profiles?: unknown } | null)?.profiles;
  if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) return [];
  // One name per line: names with control characters could break the shell's reading.
  const names = Object.keys(profiles).filter((n) => n !== '' && !/[\u0000-\u001f\u007f]/.test(n));
  // A shell matches what was typed byte for byte: a name saved decomposed (NFD) is also offered
  // precomposed (NFC), as keyboards type it; partner takes either (names are compared NFC).
  return [...new Set(names.flatMap((n) => [n, n.normalize('NFC')]))].sort();
}
