// Baseline for the export benchmark: the plainest correct export, one page
// after another with fetch, each employee written as one JSON line.
// Usage: node sequential-walk.mjs BASE_URL TOKEN PAGE_SIZE > out.ndjson
const [base, token, pageSize = '100'] = process.argv.slice(2);
for (let page = 1; ; page++) {
  const res = await fetch(`${base}/v1/employees?page=${page}&pageSize=${pageSize}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (!res.ok) throw new Error(`page ${page}: HTTP ${res.status}`);
  const body = await res.json();
  const chunk = body.data.map((e) => `${JSON.stringify(e)}\n`).join('');
  if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
  if (!body.pagination.hasNextPage || body.data.length === 0) break;
}
