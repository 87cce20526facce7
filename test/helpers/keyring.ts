// An in-memory keyring for unit tests (Context init `keyring`): entries by
// service and account, every call recorded, and a failure to inject
// ("unavailable": no D-Bus, a locked collection; "timeout": nobody answered).
import { KeyringError, type KeyringBackend, type KeyringProblem } from '../../src/config/keyring.js';

export interface MemoryKeyring extends KeyringBackend {
  entries: Map<string, string>;
  calls: string[];
  /** Every call from now on fails this way (undefined: works again). */
  fail?: 'unavailable' | 'timeout';
  /** With `fail`: only these operations fail (a keyring that reads and refuses writes: locked). */
  failOps?: ('get' | 'set' | 'delete')[];
  /** With `fail`: the problem partner is told (default: locked; a timeout's is timeout). */
  problem?: KeyringProblem;
}

export const entryKey = (service: string, account: string) => `${service}\u0000${account}`;

export function memoryKeyring(): MemoryKeyring {
  const k: MemoryKeyring = {
    entries: new Map(),
    calls: [],
    async get(service, account) {
      check('get', account);
      return k.entries.get(entryKey(service, account)) ?? null;
    },
    async set(service, account, secret) {
      check('set', account);
      k.entries.set(entryKey(service, account), secret);
    },
    async delete(service, account) {
      check('delete', account);
      return k.entries.delete(entryKey(service, account));
    },
  };
  const check = (op: string, account: string) => {
    k.calls.push(`${op} ${account}`);
    if (!k.fail || (k.failOps && !k.failOps.includes(op as 'get'))) return;
    throw new KeyringError(k.fail === 'timeout' ? 'the keyring did not answer within 10 s' : 'the collection is locked', k.fail, k.problem ?? (k.fail === 'timeout' ? 'timeout' : 'locked'));
  };
  return k;
}
