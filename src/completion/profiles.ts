// Profile names for shell completion, read straight from the config file:
// nothing is created or tightened, nothing but the names leaves this module
// (never a token), and any problem yields no names rather than an error.
import { readConfigFile } from '../config/file.js';
import { configFile } from '../config/paths.js';

export function profileNames(env: NodeJS.ProcessEnv): string[] {
  let profiles: Record<string, unknown>;
  try {
    // The one reader of the config file: bounded, never through a symbolic link.
    ({ profiles } = readConfigFile(configFile(env)));
  } catch {
    return [];
  }
  // One name per line: names with control characters could break the shell's reading.
  const names = Object.keys(profiles).filter((n) => n !== '' && !/[\u0000-\u001f\u007f]/.test(n));
  // A shell matches what was typed byte for byte: a name saved decomposed (NFD) is also offered
  // precomposed (NFC), as keyboards type it; partner takes either (names are compared NFC).
  return [...new Set(names.flatMap((n) => [n, n.normalize('NFC')]))].sort();
}
