// The sandbox's webhook signer: P-521 key pairs (ES512) made at start, a
// published key set (JWKS) and compact JWS signing. rotate() makes a new key
// the signing key and keeps the old ones published unless told to drop them.
import { randomBytes } from 'node:crypto';
import { CompactSign, exportJWK, generateKeyPair } from 'jose';

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

export async function createSigner(): Promise<Signer> {
  let counter = 1;
  // keys[0] is the current signing key
  let keys: KeyEntry[] = [await newKey(counter)];
  const encoder = new TextEncoder();

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
    async rotate(opts: RotateOptions = {}): Promise<string> {
      counter++;
      const key = await newKey(counter);
      keys = opts.dropOld ? [key] : [key, ...keys];
      return key.kid;
    },
    dropKey(kid: string): boolean {
      if (keys[0]!.kid === kid) return false;
      const before = keys.length;
      keys = keys.filter((k) => k.kid !== kid);
      return keys.length !== before;
    },
  };
}
