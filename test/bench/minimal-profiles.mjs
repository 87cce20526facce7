// The yardstick for `partner profile get --from-file IDS --concurrency N -o ndjson`:
// the least a client can do with the same requests in flight: N employees at a time, each
// employee's 7 sections fetched at once (node:http, a keep-alive agent with no connection cap;
// not fetch, which loads undici and hides partner's own loading cost), one JSON line per
// employee. No checks, no ordering, no retries.
// Usage: node minimal-profiles.mjs BASE_URL TOKEN IDS_FILE [IN_FLIGHT] -> one line per employee
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [base, token, file, inFlight = '16'] = process.argv.slice(2);
const SECTIONS = ['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation'];
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
const agent = new http.Agent({ keepAlive: true });
const ids = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const get = (id, s) =>
  new Promise((resolve, reject) => {
    const req = http.get(`${base}/v1/employees/${id}/${s}`, { agent, headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${id}/${s}: HTTP ${res.statusCode}`));
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
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
agent.destroy();
process.stdout.write(out);
