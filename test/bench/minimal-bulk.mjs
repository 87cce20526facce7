// The "true ceiling" for the bulk onboarding benchmark: the least
// a client can do to create the same employees with the same rows in flight
// as `partner gp create --from-csv --concurrency N`: fetch the form once,
// then per row its POST, then its PATCH (undici fetch, keep-alive), N rows at
// a time. No CSV, no checks, no journal, no results file.
// Usage: node minimal-bulk.mjs BASE_URL TOKEN ENTITY BODIES.json [IN_FLIGHT] -> prints the number created
import { readFileSync } from 'node:fs';

const [base, token, entity, file, inFlight = '8'] = process.argv.slice(2);
const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' };
const rows = JSON.parse(readFileSync(file, 'utf8'));
const schema = await fetch(`${base}/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=${encodeURIComponent(entity)}`, { headers });
if (!schema.ok) throw new Error(`schema: HTTP ${schema.status}`);
await schema.json();
let next = 0;
let created = 0;
async function worker() {
  while (next < rows.length) {
    const { post, patch } = rows[next++];
    const res = await fetch(`${base}/v1/employees/gp-employments`, { method: 'POST', headers, body: JSON.stringify(post) });
    if (res.status !== 201) throw new Error(`POST: HTTP ${res.status}`);
    const { id } = await res.json();
    const p = await fetch(`${base}/v1/employees/${id}/dynamic-details`, { method: 'PATCH', headers, body: JSON.stringify(patch) });
    if (p.status !== 204) throw new Error(`PATCH: HTTP ${p.status}`);
    await p.arrayBuffer();
    created++;
  }
}
await Promise.all(Array.from({ length: Number(inFlight) }, worker));
process.stdout.write(`${created}\n`);
