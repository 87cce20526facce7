// The operating system's keyring as partner uses it: get, set and delete one
// secret by service and account. The system backend is keyring-system.ts
// (loaded only when a keyring call is made); tests inject their own backend
// (Context init `keyring`).

export interface KeyringBackend {
  /** The secret, or null when there is none. Throws KeyringError when the keyring cannot be used. */
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  /** True when there was an entry to delete. */
  delete(service: string, account: string): Promise<boolean>;
}

export type KeyringOp = 'get' | 'set' | 'delete';

/** What the parent sends the child on its stdin. */
export interface KeyringRequest {
  op: KeyringOp;
  service: string;
  account: string;
  secret?: string;
}

/** What the child writes to its stdout. */
export type KeyringReply = { ok: true; value: string | boolean | null } | { ok: false; message: string };

/** The keyring could not be used: `timeout` when it did not answer in time. */
export class KeyringError extends Error {
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'timeout',
  ) {
    super(message);
    this.name = 'KeyringError';
  }
}

/** A backend for where no keyring may be used: every call fails as "unavailable". */
export const noKeyring: KeyringBackend = {
  get: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable')),
  set: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable')),
  delete: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable')),
};
