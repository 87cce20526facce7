#!/usr/bin/env node
// Microbenchmark of the CSV writer's per-row work (csvRecord over the
// employee columns), the hot path of `employees list --all -o csv` (200,000
// rows in an export). Compares the working tree with a git revision, both
// bundled from src/ by esbuild and run alternately in this one process, so a
// busy machine slows both alike:
//
//   node test/bench/csv-record.mjs [REV]     (REV defaults to HEAD)
//
// 20,000 realistic rows (names, e-mails, ids, dates, nulls, 1 in 20 with a
// formula start, an escape sequence or non-ASCII text), written to a file
// (formulas neutralised) and to a terminal (sanitised too). Never part of `npm test`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const rev = process.argv[2] ?? 'HEAD';
const ROWS = 20_000;
const ROUNDS = 15;
const TMP = mkdtempSync(join(tmpdir(), 'partner-bench-csv-'));

const FIELDS = ['id', 'employeeCode', 'employeeId', 'firstName', 'middleName', 'lastName', 'fullName', 'displayName', 'workEmail', 'designation', 'department', 'status', 'type', 'startDate', 'endDate', 'country', 'customerId', 'customerName', 'entity'];
const FIRST = ['Priya', 'José', 'Zoë', 'Łukasz', '小龙', 'Anna', 'Olivia', 'Renée', 'Karthik', 'Greta'];
const LAST = ['Sharma', 'García, Jr.', 'Müller', 'Brzęczyszczykiewicz', '李', 'Schmidt', "O'Connor", 'Dubois', 'Iyer', 'Hoffmann'];
const ODD = ['=HYPERLINK("http://x")', '+SUM(1,2)', '-2+3', '@SUM(A1:A2)', '\u001b[31mEngineering\u001b[0m', 'Product Designer\u001b[2J', 'Marie\nLouise', ' =1+1'];

function rows() {
  const out = [];
  for (let i = 0; i < ROWS; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i * 7) % LAST.length];
    const odd = i % 20 === 0 ? ODD[(i / 20) % ODD.length] : undefined;
    out.push({
      id: `5e1f${String(i).padStart(4, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
      employeeCode: `ACME-${String(i).padStart(5, '0')}`,
      employeeId: i % 3 ? `EMP${i}` : null,
      firstName: first,
      middleName: i % 9 ? null : 'Marie',
      lastName: last,
      fullName: `${first} ${last}`,
      displayName: i % 5 ? null : `${first} "${last}"`,
      workEmail: `${first.toLowerCase()}.${i}@acme.example`,
      designation: odd ?? 'Senior Software Engineer',
      department: i % 4 ? 'Engineering' : 'Finance',
      status: 'ACTIVE',
      type: 'EMPLOYEE',
      startDate: '2023-04-01',
      endDate: null,
      country: 'DEU',
      customerId: '0b7a4c2e-1111-4222-8333-444455556666',
      customerName: 'Acme GmbH',
      entity: i % 2,
    });
  }
  return out;
}

async function bundle(srcDir, name) {
  const outfile = join(TMP, `${name}.mjs`);
  await build({ entryPoints: [join(srcDir, 'output/csv.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent' });
  return import(pathToFileURL(outfile).href);
}

function timeRun(csvRecord, data, opts) {
  const start = process.hrtime.bigint();
  let bytes = 0;
  for (const item of data) bytes += csvRecord(FIELDS.map((f) => item[f]), opts).length;
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const revDir = join(TMP, 'rev');
  execFileSync('sh', ['-c', `mkdir -p '${revDir}' && git -C '${ROOT}' archive '${rev}' src | tar -x -C '${revDir}'`]);
  const base = await bundle(join(revDir, 'src'), 'base');
  const work = await bundle(join(ROOT, 'src'), 'work');
  const data = rows();
  for (const [label, opts] of [['file', {}], ['terminal', { terminal: true }]]) {
    const times = { base: [], work: [] };
    // Warm up both, then alternate.
    for (let r = 0; r < 3; r++) {
      timeRun(base.csvRecord, data, opts);
      timeRun(work.csvRecord, data, opts);
    }
    for (let r = 0; r < ROUNDS; r++) {
      times.base.push(timeRun(base.csvRecord, data, opts).ms);
      times.work.push(timeRun(work.csvRecord, data, opts).ms);
    }
    const b = median(times.base);
    const w = median(times.work);
    console.log(`${label.padEnd(8)} ${ROWS} rows: ${rev} ${b.toFixed(1)} ms, working tree ${w.toFixed(1)} ms (${w >= b ? '+' : ''}${(((w - b) / b) * 100).toFixed(1)} %), median of ${ROUNDS}`);
  }
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
