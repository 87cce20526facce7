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

/**
 * What the child writes to its stdout. On a failure, `serviceAnswers` says
 * whether the keyring answered a plain read right after (it is there, and
 * refused this call: locked), which partner's words are built on rather than
 * the library's text.
 */
export type KeyringReply = { ok: true; value: string | boolean | null } | { ok: false; message: string; serviceAnswers?: boolean };

/**
 * Why the keyring could not be used, as partner tells it (keyring-words.ts):
 * no D-Bus session bus at all; a bus address whose bus is gone; a bus with no
 * Secret Service on it; a keyring that is there and refused (locked); no
 * answer in time; partner's own helper failing; a refusal on a system where
 * none of these is known (macOS, Windows).
 */
export type KeyringProblem = 'no-bus' | 'bus-gone' | 'no-service' | 'locked' | 'timeout' | 'helper' | 'refused';

/**
 * The keyring could not be used: `timeout` when it did not answer in time.
 * The message is the library's (or D-Bus's) own text, shown only with
 * --debug (as the cause of partner's error); `problem` is what partner says.
 */
export class KeyringError extends Error {
  readonly problem: KeyringProblem;
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'timeout',
    problem?: KeyringProblem,
  ) {
    super(message);
    this.name = 'KeyringError';
    this.problem = problem ?? (reason === 'timeout' ? 'timeout' : 'refused');
  }
}

/** A backend for where no keyring may be used: every call fails as "unavailable". */
export const noKeyring: KeyringBackend = {
  get: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable', 'no-service')),
  set: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable', 'no-service')),
  delete: () => Promise.reject(new KeyringError('no keyring is available here', 'unavailable', 'no-service')),
};
