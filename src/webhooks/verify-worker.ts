// A worker thread of `webhook verify --file`: verifies batches of lines with
// a fixed copy of the key set (the main thread re-checks, with refetching,
// any line whose verdict a newer key set could change).
import { parentPort, workerData } from 'node:worker_threads';
import { KeyStore } from './jwks.js';
import { verifyWebhook, type Verdict } from './verify.js';
import { LosslessNumber } from '../json/lossless-number.js';

interface Data {
  jwks: { keys: unknown[] };
  origin: string;
}

const { jwks, origin } = workerData as Data;
const store = new KeyStore({ source: { kind: 'static', jwks, origin } });

parentPort!.on('message', async (msg: { id: number; lines: string[] }) => {
  const verdicts: (Verdict | null)[] = await Promise.all(msg.lines.map((line) => verifyWebhook(line, store).then(passable, () => null)));
  parentPort!.postMessage({ id: msg.id, verdicts });
});

/**
 * A verdict that can cross to the main thread as it is, or null (the main
 * thread verifies the line again): a number kept as signed (LosslessNumber)
 * would arrive as a plain object, its class lost in the copy. Rare: the walk
 * happens only once such a number was met at all.
 */
function passable(v: Verdict): Verdict | null {
  return LosslessNumber.seen && holdsLossless(v.payload) ? null : v;
}

function holdsLossless(v: unknown): boolean {
  if (v instanceof LosslessNumber) return true;
  if (v === null || typeof v !== 'object') return false;
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (holdsLossless(x)) return true;
  return false;
}
