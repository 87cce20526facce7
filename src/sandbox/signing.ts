// The sandbox's webhook signer: P-521 key pairs (ES512) made at start, a
// published key set (JWKS) and compact JWS signing. rotate() makes a new key
// the signing key and keeps the old ones published unless told to drop them.
//
// The embedded sandbox (`--sandbox`) is a new process per command, so its
// keys are kept in a file (`keysFile`, in the user's cache directory, 0600 in
// a 0700 directory): `partner --sandbox sandbox emit --print` and then
// `partner --sandbox webhook verify` sign and verify with the same keys. The
// file is used only when it is ours (owner, mode, not a symbolic link);
// otherwise the keys are throwaway, and the caller is told why.
import { readFully } from '../input.js';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { ensurePrivateDir, writePrivateFile } from '../config/secure-files.js';
import { untrustedReason } from '../webhooks/trust.js';

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-521';
  kid: string;
  x: string;
  y: string;
  alg: 'ES512';
}

export interface Jwks {
  keys: PublicJwk[];
}

export interface RotateOptions {
  /** remove every older key from the published set (default false) */
  dropOld?: boolean;
}

export interface SignOptions {
  /** sign with this published key instead of the current one */
  kid?: string;
}

export interface Signer {
  /** kid of the current signing key */
  readonly kid: string;
  /** compact JWS with protected header {alg:'ES512', kid}; objects are JSON-encoded, strings and bytes taken as is */
  sign(payload: unknown, opts?: SignOptions): Promise<string>;
  /** the published key set: public keys only, newest first */
  jwks(): Jwks;
  /** makes a new key the signing key; returns its kid */
  rotate(opts?: RotateOptions): Promise<string>;
  /** removes a key from the published set (not the current one); true if removed */
  dropKey(kid: string): boolean;
}

interface KeyEntry {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: PublicJwk;
}

async function newKey(n: number): Promise<KeyEntry> {
  const { publicKey, privateKey } = await generateKeyPair('ES512', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = `sbx-es512-${n}-${randomBytes(4).toString('hex')}`;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('exported EC key lacks x/y');
  return { kid, privateKey, publicJwk: { kty: 'EC', crv: 'P-521', kid, x: jwk.x, y: jwk.y, alg: 'ES512' } };
}

export interface SignerOptions {
  /** Keep the keys in this file across processes (the embedded sandbox); absent: keys live as long as the signer. */
  keysFile?: string;
  /** Told when the keys file cannot be used (the keys are then throwaway). */
  warn?: (message: string) => void;
}

/** The embedded sandbox's keys file, in the user's cache directory. */
export const SANDBOX_KEYS_FILE = 'sandbox-signing-keys.json';

/** Keys kept in the file: the newest few (a rotation adds one). */
export const MAX_KEPT_KEYS = 5;
/** A keys file is a few KiB; anything larger is not ours. */
const MAX_KEYS_FILE_BYTES = 64 * 1024;

interface KeysFile {
  version: 1;
  counter: number;
  /** Newest first: [0] signs. */
  keys: { kid: string; jwk: JWK }[];
}

async function serialise(counter: number, keys: KeyEntry[]): Promise<string> {
  const kept = await Promise.all(keys.slice(0, MAX_KEPT_KEYS).map(async (k) => ({ kid: k.kid, jwk: await exportJWK(k.privateKey) })));
  return `${JSON.stringify({ version: 1, counter, keys: kept } satisfies KeysFile)}\n`;
}

async function deserialise(text: string): Promise<{ counter: number; keys: KeyEntry[] }> {
  const f = JSON.parse(text) as KeysFile;
  if (f?.version !== 1 || !Number.isInteger(f.counter) || !Array.isArray(f.keys) || f.keys.length === 0) throw new Error('not a sandbox keys file');
  const keys = await Promise.all(
    f.keys.slice(0, MAX_KEPT_KEYS).map(async ({ kid, jwk }) => {
      if (typeof kid !== 'string' || jwk?.kty !== 'EC' || jwk.crv !== 'P-521' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('not a P-521 key');
      const privateKey = (await importJWK({ kty: 'EC', crv: 'P-521', x: jwk.x, y: jwk.y, d: jwk.d }, 'ES512', { extractable: true })) as CryptoKey;
      return { kid, privateKey, publicJwk: { kty: 'EC', crv: 'P-521', kid, x: jwk.x, y: jwk.y, alg: 'ES512' } } satisfies KeyEntry;
    }),
  );
  return { counter: f.counter, keys };
}

/** The file's text, or undefined when there is none; never through a symbolic link, never a FIFO's wait; bounded. */
function readKeysFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    const size = st.size;
    if (size > MAX_KEYS_FILE_BYTES) throw new Error(`larger than ${MAX_KEYS_FILE_BYTES} bytes`);
    return readFully(fd, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Creates the file only if there is none (two first runs at once keep one set: the loser reads the winner's). */
function createExclusive(path: string, text: string): boolean {
  ensurePrivateDir(dirname(path));
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Keys from the file (made and saved on first use); undefined when the file cannot be trusted or used. */
async function persistentKeys(path: string, warn: (m: string) => void): Promise<{ counter: number; keys: KeyEntry[] } | undefined> {
  const why = untrustedReason(dirname(path)) ?? untrustedReason(path);
  if (why) {
    warn(`not keeping the sandbox's signing keys in ${path}: ${why}; this run signs with throwaway keys`);
    return undefined;
  }
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const text = readKeysFile(path);
      if (text !== undefined) {
        try {
          return await deserialise(text);
        } catch (err) {
          // Ours (checked above) but damaged: replaced by a new set.
          warn(`the sandbox's signing keys in ${path} cannot be read (${(err as Error).message}); making new ones`);
          const fresh = { counter: 1, keys: [await newKey(1)] };
          writePrivateFile(path, await serialise(fresh.counter, fresh.keys));
          return fresh;
        }
      }
      const fresh = { counter: 1, keys: [await newKey(1)] };
      if (createExclusive(path, await serialise(fresh.counter, fresh.keys))) return fresh;
      // Another process created it meanwhile: read theirs.
    }
  } catch (err) {
    warn(`cannot keep the sandbox's signing keys in ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); this run signs with throwaway keys`);
  }
  return undefined;
}

export async function createSigner(opts: SignerOptions = {}): Promise<Signer> {
  const warn = opts.warn ?? (() => undefined);
  const kept = opts.keysFile !== undefined ? await persistentKeys(opts.keysFile, warn) : undefined;
  let counter = kept?.counter ?? 1;
  // keys[0] is the current signing key
  let keys: KeyEntry[] = kept?.keys ?? [await newKey(counter)];
  const encoder = new TextEncoder();
  /** After a rotation or a drop: the next run signs and publishes the same set. */
  const save = async () => {
    if (!kept || opts.keysFile === undefined) return;
    try {
      writePrivateFile(opts.keysFile, await serialise(counter, keys));
    } catch (err) {
      warn(`cannot save the sandbox's signing keys in ${opts.keysFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  };

  return {
    get kid() {
      return keys[0]!.kid;
    },
    async sign(payload: unknown, opts: SignOptions = {}): Promise<string> {
      const key = opts.kid === undefined ? keys[0]! : keys.find((k) => k.kid === opts.kid);
      if (!key) throw new Error(`unknown signing key ${opts.kid}`);
      const bytes =
        payload instanceof Uint8Array ? payload : encoder.encode(typeof payload === 'string' ? payload : JSON.stringify(payload));
      return new CompactSign(bytes).setProtectedHeader({ alg: 'ES512', kid: key.kid }).sign(key.privateKey);
    },
    jwks(): Jwks {
      return { keys: keys.map((k) => ({ ...k.publicJwk })) };
    },
    async rotate(how: RotateOptions = {}): Promise<string> {
      counter++;
      const key = await newKey(counter);
      keys = how.dropOld ? [key] : [key, ...keys];
      await save();
      return key.kid;
    },
    dropKey(kid: string): boolean {
      if (keys[0]!.kid === kid) return false;
      const before = keys.length;
      keys = keys.filter((k) => k.kid !== kid);
      if (keys.length !== before) void save();
      return keys.length !== before;
    },
  };
}
