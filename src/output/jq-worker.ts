// The worker thread of `--jq` (dist/jq-worker.js): runs one jq job per
// message, so the CLI's main thread stays free to answer Ctrl-C and to
// terminate this thread when a filter never ends (see jq.ts).
import { parentPort } from 'node:worker_threads';
import { JqLimitExceeded, loadJqRunner, type JqLimits } from './jq-engine.js';

export interface JqJob {
  input: string;
  args: string[];
  limits: JqLimits;
}

export type JqReply =
  | { ok: true; stdout: string; stderr: string; status: number }
  | { ok: false; limit: 'output' | 'memory' }
  | { ok: false; error: string };

parentPort!.on('message', async (job: JqJob) => {
  let reply: JqReply;
  try {
    const res = await (await loadJqRunner())(job.input, job.args, job.limits);
    reply = { ok: true, ...res };
  } catch (e) {
    reply = e instanceof JqLimitExceeded ? { ok: false, limit: e.what } : { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
