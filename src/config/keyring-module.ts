// The one place that loads @napi-rs/keyring (a native module: macOS Keychain,
// Windows Credential Manager, Linux Secret Service). Loaded only when a
// keyring call is made, and only in the keyring child process
// (keyring-child.ts), never at start-up. A single-file build that carries the
// native module as an asset wires its loader here.
import { join } from 'node:path';
import type * as Keyring from '@napi-rs/keyring';
import { cacheDir } from './paths.js';

export type KeyringModule = typeof Keyring;

export async function loadKeyringModule(): Promise<KeyringModule> {
  // In the single-file executable the module is an asset, written to a private, checked directory (runtime/native-addon.ts).
  const { seaNativeAddon } = await import('../runtime/native-addon.js');
  return seaNativeAddon<KeyringModule>('@napi-rs/keyring', { baseDir: () => join(cacheDir(process.env), 'native') }) ?? import('@napi-rs/keyring');
}
