// The yardstick for `partner profile get --from-file IDS --concurrency N -o ndjson` (issue 24):
// the least a client can do with the same requests in flight: N employees at a time, each
// employee's 7 sections fetched at once (fetch, keep-alive, no connection cap), one JSON line per
// employee. No checks, no ordering, no retries.
// Usage: node minimal-profiles.mjs BASE_URL TOKEN IDS_FILE [IN_FLIGHT] -> one line per employee
import { readFileSync } from 'node:fs';

const [base, token, file, inFlight = '16'] = process.argv.slice(2);
const SECTIONS = ['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation'];
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
const ids = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const get = async (id, s) => {
  const res = await fetch(`${base}/v1/employees/${id}/${s}`, { headers });
  if (!res.ok) throw new Error(`${id}/${s}: HTTP ${res.status}`);
  return res.json();
};
let next = 0;
let out = '';
async function worker() {
  while (next < ids.length) {
    const id = ids[next++];
    const values = await Promise.all(SECTIONS.map((s) => get(id, s)));
    out += `${JSON.stringify({ id, ...Object.fromEntries(SECTIONS.map((s, i) => [s, values[i]])) })}\n`;
  }
}
await Promise.all(Array.from({ length: Number(inFlight) }, worker));
process.stdout.write(out);
