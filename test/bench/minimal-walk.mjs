// The "true ceiling" for the export benchmark: the least a client
// can do to walk every page with the same 8 pages in flight as `partner
// employees list --all` against the same server: fetch (undici, keep-alive),
// JSON.parse, count the items. No output, no checks, no ordering.
// Usage: node minimal-walk.mjs BASE_URL TOKEN PAGE_SIZE [IN_FLIGHT] -> prints the item count
const [base, token, pageSize = '100', inFlight = '8'] = process.argv.slice(2);
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
const get = async (page) => {
  const res = await fetch(`${base}/v1/employees?page=${page}&pageSize=${pageSize}`, { headers });
  if (!res.ok) throw new Error(`page ${page}: HTTP ${res.status}`);
  return res.json();
};
const first = await get(1);
let items = first.data.length;
const pages = first.pagination.totalPages;
let next = 2;
async function worker() {
  while (next <= pages) {
    const body = await get(next++);
    items += body.data.length;
  }
}
await Promise.all(Array.from({ length: Number(inFlight) }, worker));
process.stdout.write(`${items}\n`);
