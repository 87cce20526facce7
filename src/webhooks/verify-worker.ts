// A worker thread of `webhook verify --file`: verifies batches of lines with
// a fixed copy of the key set (the main thread re-checks, with refetching,
// any line whose verdict a newer key set could change).
import { parentPort, workerData } from 'node:worker_threads';
import { KeyStore } from './jwks.js';
import { verifyWebhook, type Verdict } from './verify.js';

interface Data {
  jwks: { keys: unknown[] };
  origin: string;
}

const { jwks, origin } = workerData as Data;
const store = new KeyStore({ source: { kind: 'static', jwks, origin } });

parentPort!.on('message', async (msg: { id: number; lines: string[] }) => {
  const verdicts: (Verdict | null)[] = await Promise.all(msg.lines.map((line) => verifyWebhook(line, store).catch(() => null)));
  parentPort!.postMessage({ id: msg.id, verdicts });
});
