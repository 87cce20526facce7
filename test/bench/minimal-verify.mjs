// Baseline for the verification benchmark: a minimal ES512 verifier with
// node:crypto only, on one core: the key imported once, each line split,
// its header checked for alg, the signature verified, the payload parsed.
// Usage: node minimal-verify.mjs JWKS_FILE LINES_FILE
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const [jwksFile, linesFile] = process.argv.slice(2);
const keys = new Map(JSON.parse(readFileSync(jwksFile, 'utf8')).keys.map((k) => [k.kid, createPublicKey({ key: k, format: 'jwk' })]));
let valid = 0;
let invalid = 0;
for (const line of readFileSync(linesFile, 'utf8').split('\n')) {
  if (line === '') continue;
  const [h, p, s] = line.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  const key = header.alg === 'ES512' ? keys.get(header.kid) : undefined;
  const ok = key !== undefined && verify('sha512', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (ok && typeof JSON.parse(Buffer.from(p, 'base64url').toString('utf8')).eventType === 'string') valid++;
  else invalid++;
}
process.stderr.write(`${valid} valid, ${invalid} invalid\n`);
process.exitCode = invalid > 0 ? 8 : 0;
