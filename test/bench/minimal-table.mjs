// The yardstick for a one-page `partner employees list -o table`: fetch the page
// with node:http on a keep-alive agent (fetch would load undici, the very cost partner's own
// loading is measured against), JSON.parse it, and print the same eight columns padded to their
// widest value by String.length (no terminal width, no cutting, no sanitising, no colours).
// Usage: node minimal-table.mjs BASE_URL TOKEN [PAGE_SIZE]
import http from 'node:http';

const [base, token, pageSize = '20'] = process.argv.slice(2);
const COLUMNS = [['employeeCode', 'CODE'], ['fullName', 'NAME'], ['workEmail', 'EMAIL'], ['designation', 'DESIGNATION'], ['department', 'DEPARTMENT'], ['status', 'STATUS'], ['country', 'COUNTRY'], ['startDate', 'START']];
const agent = new http.Agent({ keepAlive: true });
const body = await new Promise((resolve, reject) => {
  const req = http.get(`${base}/v1/employees?page=1&pageSize=${pageSize}`, { agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
    if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
  req.on('error', reject);
});
agent.destroy();
const { data } = JSON.parse(body);
const rows = [COLUMNS.map(([, h]) => h), ...data.map((e) => COLUMNS.map(([k]) => String(e[k] ?? '-')))];
const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
process.stdout.write(rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n');
