// The yardstick for a one-page `partner employees list -o table` (issue 24): fetch the page
// (fetch, JSON.parse), and print the same eight columns padded to their widest value by
// String.length (no terminal width, no cutting, no sanitising, no colours).
// Usage: node minimal-table.mjs BASE_URL TOKEN [PAGE_SIZE]
const [base, token, pageSize = '20'] = process.argv.slice(2);
const COLUMNS = [['employeeCode', 'CODE'], ['fullName', 'NAME'], ['workEmail', 'EMAIL'], ['designation', 'DESIGNATION'], ['department', 'DEPARTMENT'], ['status', 'STATUS'], ['country', 'COUNTRY'], ['startDate', 'START']];
const res = await fetch(`${base}/v1/employees?page=1&pageSize=${pageSize}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
if (!res.ok) throw new Error(`HTTP ${res.status}`);
const { data } = await res.json();
const rows = [COLUMNS.map(([, h]) => h), ...data.map((e) => COLUMNS.map(([k]) => String(e[k] ?? '-')))];
const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
process.stdout.write(rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n');
