// The one place that loads @napi-rs/keyring (a native module: macOS Keychain,
// Windows Credential Manager, Linux Secret Service). Loaded only when a
// keyring call is made, and only in the keyring child process
// (keyring-child.ts), never at start-up. A single-file build that carries the
// native module as an asset wires its loader here.
import type * as Keyring from '@napi-rs/keyring';

export type KeyringModule = typeof Keyring;

export async function loadKeyringModule(): Promise<KeyringModule> {
  return import('@napi-rs/keyring');
}
