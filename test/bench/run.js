#!/usr/bin/env node
// Benchmarks, each target measured side by side with its baseline
// in one run: `npm run bench` (builds first), or `node test/bench/run.js
// [walk] [memory] [startup] [verify] [listen] [profile] [table] [bulk] [search]` for some of them. Never part of
// `npm test`. Everything runs against sandboxes started as separate
// processes (`partner sandbox start`) on loopback port 0, and the CLI is
// spawned as a user would run it (bin/partner.js), so every figure includes
// process start-up, as does every baseline.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin', 'partner.js');
const HERE = import.meta.dirname;
const NODE = process.execPath;
const TMP = mkdtempSync(join(tmpdir(), 'partner-bench-'));
const sections = process.argv.slice(2).length ? process.argv.slice(2) : ['walk', 'memory', 'startup', 'verify', 'listen', 'profile', 'table', 'bulk', 'search', 'changes'];
const rows = [];
const notes = [];
const sandboxes = new Set();

function log(msg) {
  process.stderr.write(`${msg}\n`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The median of the ratios a[i] / b[i] of runs made in turn. */
function pairedRatio(a, b) {
  return median(a.map((x, i) => x / b[i]));
}

/** One row of the final table. `higherIsBetter`: ratio is ours/baseline; else baseline/ours or ours/baseline as the goal says. */
function record(row) {
  rows.push(row);
  log(`  ${row.target}: ours ${row.ours}, baseline ${row.baseline}, ratio ${row.ratio.toFixed(2)}× (goal ${row.goal}) ${row.pass ? 'MET' : 'MISSED'}`);
}

function cliEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PARTNER_') && !/_proxy$/i.test(k) && k !== 'CI') env[k] = v;
  return { ...env, PARTNER_CONFIG_DIR: join(TMP, 'config'), PARTNER_CACHE_DIR: join(TMP, 'cache'), PARTNER_STATE_DIR: join(TMP, 'state'), HOME: join(TMP, 'home'), NO_COLOR: '1', ...extra };
}

/** `partner sandbox start` in its own process; resolves with its URL and company A token once it listens. */
function startSandbox(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [BIN, 'sandbox', 'start', '--port', '0', ...args], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    sandboxes.add(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 60_000);
    child.stdout.on('data', (c) => {
      out += c;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const token = /Acme Corporation token:\s+(\S+)/.exec(out)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolvePromise({
          url,
          token,
          close: () =>
            new Promise((r) => {
              if (child.exitCode !== null) return r();
              child.once('exit', () => r());
              child.kill('SIGINT');
            }).then(() => sandboxes.delete(child)),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
}

/** Runs a command to completion; stdout to a file (or ignored); returns wall milliseconds. */
function timed(cmd, args, { env = cliEnv(), stdoutFile, okCodes = [0] } = {}) {
  return new Promise((resolvePromise, reject) => {
    const fd = stdoutFile ? openSync(stdoutFile, 'w') : 'ignore';
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, stdio: ['ignore', fd, 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (typeof fd === 'number') closeSync(fd);
      if (!okCodes.includes(code)) reject(new Error(`${[cmd, ...args].join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else resolvePromise(ms);
    });
  });
}

const HAVE_GNU_TIME = spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { stdio: 'ignore' }).status === 0;

/** Peak RSS (KiB) of one CLI run: GNU time's %M, else VmHWM polled from /proc. */
async function peakRss(args, env) {
  if (HAVE_GNU_TIME) {
    const file = join(TMP, `rss-${randomUUID()}`);
    await timed('/usr/bin/time', ['-f', '%M', '-o', file, NODE, BIN, ...args], { env, stdoutFile: '/dev/null' });
    return Number(readFileSync(file, 'utf8').trim().split('\n').pop());
  }
  const child = spawn(NODE, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'ignore'] });
  let peak = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch {
      // exited
    }
  }, 20);
  await new Promise((r) => child.on('exit', r));
  clearInterval(poll);
  return peak;
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * The CLI again, built the way scripts/bundle.mjs builds it but with employees
 * list walking through test/bench/unchecked-pages.ts (no integrity checks),
 * in its own directory beside a copy of package.json and a link to
 * node_modules. Returns the command line that runs it.
 */
async function buildUnchecked() {
  const { build } = await import('esbuild');
  const dir = join(TMP, 'unchecked');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const { cliBuildOptions } = await import(join(ROOT, 'scripts', 'cli-build-options.mjs'));
  const unchecked = join(HERE, 'unchecked-pages.ts');
  await build({
    ...cliBuildOptions,
    // The launcher's steps too (src/launcher/launch.ts), which find the CLI beside them.
    entryPoints: { cli: join(ROOT, 'src', 'cli.ts'), launch: join(ROOT, 'src', 'launcher', 'launch.ts') },
    outdir: join(dir, 'dist'),
    // The same plugins as the real build (start-up trims), plus the swap.
    plugins: [
      ...cliBuildOptions.plugins,
      {
        name: 'walk-without-checks',
        setup(b) {
          b.onResolve({ filter: /api\/pages\.js$/ }, (args) => (/list\.run\.ts$/.test(args.importer) ? { path: unchecked } : undefined));
        },
      },
    ],
  });
  // Run by a copy of bin/, which runs dist/launch.cjs beside it: compiled from the code cache and the
  // export on a worker thread (started early from dist/worker-rules.json) as in the product, so only the checks differ.
  mkdirSync(join(dir, 'bin'), { recursive: true });
  for (const file of readdirSync(join(ROOT, 'bin'))) if (/\.(js|json)$/.test(file)) copyFileSync(join(ROOT, 'bin', file), join(dir, 'bin', file));
  for (const file of ['worker-rules.json', 'build-info.json']) copyFileSync(join(ROOT, 'dist', file), join(dir, 'dist', file));
  return join(dir, 'bin', 'partner.js');
}

// 1. The walk: against a sequential walk with plain fetch (≥ 6× faster), and
// against the true ceiling, a minimal client with the same 8 pages in flight
// that only counts items (at most 1.05× its time, integrity checks on);
// and the checks' cost: the same CLI built without them (≤ 5% slower with them).
async function walk() {
  const EMPLOYEES = 20_000;
  const LATENCY = 50;
  const RUNS = Number(process.env.BENCH_WALK_RUNS ?? 7);
  log(`walk: ${EMPLOYEES} employees, page size 100, sandbox latency ${LATENCY} ms, ${RUNS} interleaved runs`);
  const uncheckedBin = await buildUnchecked();
  const sbx = await startSandbox(['--employees', String(EMPLOYEES), '--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const ours = [];
    const base = [];
    const ceiling = [];
    const unchecked = [];
    const uncheckedFile = join(TMP, 'unchecked.ndjson');
    const baseFile = join(TMP, 'sequential.ndjson');
    const oursFile = join(TMP, 'ours.ndjson');
    const countFile = join(TMP, 'count.txt');
    // Interleaved, so load on the shared machine hits all three alike.
    for (let i = 0; i < RUNS; i++) {
      if (i < 3) base.push(await timed(NODE, [join(HERE, 'sequential-walk.mjs'), sbx.url, sbx.token, '100'], { env, stdoutFile: baseFile }));
      ceiling.push(await timed(NODE, [join(HERE, 'minimal-walk.mjs'), sbx.url, sbx.token, '100', '8'], { env, stdoutFile: countFile }));
      ours.push(await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100'], { env, stdoutFile: oursFile }));
      unchecked.push(await timed(NODE, [uncheckedBin, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100'], { env, stdoutFile: uncheckedFile }));
    }
    const identical = sha256(baseFile) === sha256(oursFile);
    const lines = readFileSync(oursFile, 'utf8').split('\n').length - 1;
    const counted = Number(readFileSync(countFile, 'utf8').trim());
    const ratio = median(base) / median(ours);
    record({
      target: `export --all -o ndjson, ${EMPLOYEES.toLocaleString('en-US')} employees, ${LATENCY} ms latency, default --concurrency 8`,
      ours: `${(median(ours) / 1000).toFixed(2)} s`,
      baseline: `${(median(base) / 1000).toFixed(2)} s (sequential fetch walk)`,
      ratio,
      goal: '≥ 6× faster, identical bytes',
      pass: ratio >= 6 && identical && lines === EMPLOYEES,
    });
    // Ratios against the ceiling and against the build without checks: the median of the ratios of
    // the runs made one after the other (load on the shared machine drifts; each pair shares it).
    const vsCeiling = pairedRatio(ours, ceiling);
    record({
      target: `same export vs the true ceiling (8 pages in flight, parse and count only)`,
      ours: `${(median(ours) / 1000).toFixed(2)} s`,
      baseline: `${(median(ceiling) / 1000).toFixed(2)} s (test/bench/minimal-walk.mjs)`,
      ratio: vsCeiling,
      goal: '≤ 1.05× its time (median of paired runs)',
      pass: vsCeiling <= 1.05 && counted === EMPLOYEES,
    });
    const checksCost = pairedRatio(ours, unchecked);
    record({
      target: `the integrity checks' cost: same export, the CLI built without them (test/bench/unchecked-pages.ts)`,
      ours: `${(median(ours) / 1000).toFixed(2)} s`,
      baseline: `${(median(unchecked) / 1000).toFixed(2)} s (no checks)`,
      ratio: checksCost,
      goal: '≤ 1.05× its time (median of paired runs)',
      pass: checksCost <= 1.05 && sha256(uncheckedFile) === sha256(oursFile),
    });
    notes.push(`walk: output ${identical ? 'byte-identical to' : 'DIFFERENT from'} the sequential walk (${lines} lines, sha256 ${sha256(oursFile).slice(0, 16)}…); the minimal client counted ${counted}; runs (s): ours ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; ceiling ${ceiling.map((x) => (x / 1000).toFixed(2)).join(', ')}; sequential ${base.map((x) => (x / 1000).toFixed(2)).join(', ')}; without checks ${unchecked.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  } finally {
    await sbx.close();
  }
}

// 2. Constant memory: peak RSS for 200,000 vs 20,000 employees, CSV and NDJSON.
async function memory() {
  log('memory: peak RSS exporting 20,000 and 200,000 employees');
  const small = await startSandbox(['--employees', '20000']);
  const large = await startSandbox(['--employees', '200000']);
  try {
    for (const format of ['ndjson', 'csv']) {
      const args = ['employees', 'list', '--all', '-o', format];
      const peaks = { small: [], large: [] };
      for (let i = 0; i < 2; i++) {
        peaks.small.push(await peakRss(args, cliEnv({ PARTNER_BASE_URL: small.url, PARTNER_TOKEN: small.token })));
        peaks.large.push(await peakRss(args, cliEnv({ PARTNER_BASE_URL: large.url, PARTNER_TOKEN: large.token })));
      }
      const s = median(peaks.small);
      const l = median(peaks.large);
      record({
        target: `peak RSS, --all -o ${format}, 200,000 vs 20,000 employees`,
        ours: `${(l / 1024).toFixed(1)} MiB (200,000)`,
        baseline: `${(s / 1024).toFixed(1)} MiB (20,000)`,
        ratio: l / s,
        goal: '≤ 1.3× (no forced collections)',
        pass: l / s <= 1.3,
      });
    }
    notes.push(`memory: peak RSS by ${HAVE_GNU_TIME ? 'GNU time %M' : 'polling VmHWM in /proc'}, median of 2 runs each, output to /dev/null`);
  } finally {
    await Promise.all([small.close(), large.close()]);
  }
}

// 3. Start-up: --version and --help against `node -e 0`, interleaved, median. When
// `npm run build:binary` has built the single executable, its --version against
// `node bin/partner.js --version`, pair by pair.
async function startup() {
  const RUNS = 21;
  const EXE = join(ROOT, 'dist', 'partner-linux-x64');
  log(`startup: ${RUNS} interleaved runs each`);
  const cmds = { node: [NODE, '-e', '0'], version: [NODE, BIN, '--version'], help: [NODE, BIN, '--help'] };
  if (existsSync(EXE)) cmds.binary = [EXE, '--version'];
  const t = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
  const env = cliEnv();
  for (let i = 0; i < RUNS; i++) {
    for (const [k, [cmd, ...args]] of Object.entries(cmds)) t[k].push(await timed(cmd, args, { env }));
  }
  const n = median(t.node);
  for (const [k, goal] of [
    ['version', 1.2],
    ['help', 1.3],
  ]) {
    const ratio = median(t[k]) / n;
    record({ target: `partner --${k} wall time`, ours: `${median(t[k]).toFixed(1)} ms`, baseline: `${n.toFixed(1)} ms (node -e 0)`, ratio, goal: `≤ ${goal}×`, pass: ratio <= goal });
  }
  if (t.binary) {
    const ratio = pairedRatio(t.binary, t.version);
    record({ target: 'dist/partner-linux-x64 --version (single executable)', ours: `${median(t.binary).toFixed(1)} ms`, baseline: `${median(t.version).toFixed(1)} ms (node bin/partner.js --version)`, ratio, goal: '≤ 1× (median of paired runs)', pass: ratio <= 1 });
  }
}

// 4. webhook verify --file over 10,000 JWS lines vs. a minimal node:crypto verifier.
async function verify() {
  const LINES = 10_000;
  const DISTINCT = 500;
  log(`verify: ${LINES} JWS lines (${DISTINCT} distinct signatures, repeated)`);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
  const kid = 'bench-key-1';
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES512', use: 'sig' }] };
  const jwksFile = join(TMP, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify(jwks));
  // Employee events shaped as the spec describes them (kept here so the bench
  // depends only on the CLI as users run it, not on its internals).
  const EVENTS = [
    ['EMPLOYEE_CREATED', 'ONBOARDING'],
    ['EMPLOYEE_ACTIVATED', 'ACTIVE'],
    ['EMPLOYEE_UPDATED', 'ACTIVE'],
    ['EMPLOYEE_DEACTIVATED', 'ENDED'],
    ['EMPLOYEE_DELETED', 'DELETED'],
  ];
  const distinct = [];
  for (let i = 0; distinct.length < DISTINCT; i++) {
    const [eventType, status] = EVENTS[i % EVENTS.length];
    const data = { id: randomUUID(), customerId: randomUUID(), employeeCode: `ACME-${String(i + 1).padStart(5, '0')}`, status, type: 'EMPLOYEE', country: 'DEU' };
    if (eventType === 'EMPLOYEE_UPDATED') data.updateType = 'PERSONAL_DETAILS';
    const payload = { eventType, timestamp: new Date().toISOString(), data };
    const h = Buffer.from(JSON.stringify({ alg: 'ES512', kid })).toString('base64url');
    const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const s = sign('sha512', Buffer.from(`${h}.${p}`), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    distinct.push(`${h}.${p}.${s}`);
  }
  const linesFile = join(TMP, 'webhooks.jws');
  writeFileSync(linesFile, `${Array.from({ length: LINES }, (_, i) => distinct[i % DISTINCT]).join('\n')}\n`);
  const env = cliEnv();
  const ours = [];
  const base = [];
  // One pair: each run verifies 10,000 P-521 signatures (~20 s on a slow core); enough to be stable.
  for (let i = 0; i < 1; i++) {
    base.push(await timed(NODE, [join(HERE, 'minimal-verify.mjs'), jwksFile, linesFile], { env }));
    ours.push(await timed(NODE, [BIN, 'webhook', 'verify', '--file', linesFile, '--jwks-file', jwksFile, '-o', 'ndjson'], { env }));
  }
  const oursRate = LINES / (median(ours) / 1000);
  const baseRate = LINES / (median(base) / 1000);
  record({
    target: `webhook verify --file, ${LINES.toLocaleString('en-US')} ES512 JWS lines`,
    ours: `${Math.round(oursRate).toLocaleString('en-US')} /s`,
    baseline: `${Math.round(baseRate).toLocaleString('en-US')} /s (node:crypto, one core)`,
    ratio: oursRate / baseRate,
    goal: '≥ 1.8×',
    pass: oursRate / baseRate >= 1.8,
  });
  notes.push(`verify: ${DISTINCT} distinct signed events repeated to ${LINES} lines; runs (s): ours ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; minimal ${base.map((x) => (x / 1000).toFixed(2)).join(', ')}; every line valid in both (exit 0)`);
}

// 5. webhook listen --spool: verified, fsync'd and forwarded events per second, 200 concurrent senders,
// a local target. Acknowledgement rate (the senders' 200s) against the same receiver verifying only
// (no --forward-to, no --spool); delivery rate (the target's receipts over the same time) against the
// acknowledgement rate (goal: deliveries keep up, >= 0.9x); the receiver's RSS sampled over the run (flat).
// The spooled receiver runs with its bounds on (the defaults) and --metrics, scraped every second.
// BENCH_LISTEN_EVENTS sets the number of distinct signed events timed (default 12,000: ~24 s at 500/s).
// The rates are a receiver's steady state, as a service runs for weeks: each receiver first takes
// BENCH_LISTEN_WARMUP other events (default 3,000) from the same senders, untimed (its first seconds cost
// it more: V8 compiles the hot paths, more of them with a spool and forwards, the connections to the
// target open, the heap grows). The rate from the first event (warm-up included) is printed too. Both
// receivers then run side by side and take the timed events in turns (BENCH_LISTEN_ROUNDS, default 4),
// so that the machine's other load, which moves either rate by 20% between runs here, falls on both.
async function listen() {
  const EVENTS = Number(process.env.BENCH_LISTEN_EVENTS ?? 12_000);
  const WARMUP = Number(process.env.BENCH_LISTEN_WARMUP ?? 3_000);
  const ROUNDS = Number(process.env.BENCH_LISTEN_ROUNDS ?? 4);
  const SENDERS = 200;
  log(`listen: ${EVENTS} distinct signed events timed after ${WARMUP} untimed, ${SENDERS} concurrent senders`);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
  const jwksFile = join(TMP, 'listen-jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'lk1', alg: 'ES512' }] }));
  const h = Buffer.from(JSON.stringify({ alg: 'ES512', kid: 'lk1' })).toString('base64url');
  const bodies = [];
  for (let i = 0; i < WARMUP + EVENTS; i++) {
    // 1,000 employees: several events per employee, so the per-employee order is exercised.
    const data = { id: randomUUID(), customerId: randomUUID(), employeeCode: `L-${i % 1000}`, status: 'ONBOARDING', type: 'EMPLOYEE', country: 'DEU', n: i };
    const p = Buffer.from(JSON.stringify({ eventType: 'EMPLOYEE_UPDATED', timestamp: new Date().toISOString(), data })).toString('base64url');
    bodies.push(`${h}.${p}.${sign('sha512', Buffer.from(`${h}.${p}`), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`);
  }
  const { createServer, get: httpGet } = await import('node:http');
  // Scrapes with node:http, as the baselines: fetch() loads Node's own copy of undici, and V8 then
  // optimises its HTTP parser (WebAssembly) in the background, CPU of this process's that landed in the
  // spooled run only (the one scraped): 0.1 ms an event in three runs with and without --metrics.
  const getText = (u) =>
    new Promise((resolveText, rejectText) => {
      httpGet(u, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolveText(text));
      }).on('error', rejectText);
    });
  let delivered = 0;
  let allDelivered;
  let deliveryGoal = EVENTS; // allDelivered() is called when the target has this many
  const target = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200).end();
      if (++delivered === deliveryGoal) allDelivered?.();
    });
  });
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${target.address().port}/hooks`;
  const { Agent, request } = await import(join(ROOT, 'node_modules', 'undici', 'index.js'));
  const rssMiB = (pid) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };

  // CPU seconds a process has used (every thread: WebCrypto verifies on libuv's pool), from /proc.
  const cpuSeconds = (pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return NaN;
    }
  };

  // A receiver in its own process, started and warmed up; `program`: its command line after node (the
  // CLI's, or the floor's minimal-listen.mjs); `forwards`: it delivers to the target. Its `segment(from,
  // to)` sends bodies[from, to) and adds the acknowledgements, time and CPU to its totals.
  async function start(args, { program = [BIN, 'webhook', 'listen', '--jwks-file', jwksFile], forwards = args.includes('--forward-to') } = {}) {
    const child = spawn(NODE, [...program, ...args], { env: cliEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    sandboxes.add(child);
    const url = await new Promise((res, rej) => {
      let err = '';
      // Only the start-up lines are read: the receiver prints a line an event after that, and
      // keeping and searching them all cost this process (counted in its CPU an event) O(n²).
      const startUp = (c) => {
        err += c;
        const m = /Listening for webhooks on (\S+)/.exec(err);
        if (!m) return;
        child.stderr.off('data', startUp);
        child.stderr.resume();
        res(m[1]);
      };
      child.stderr.on('data', startUp);
      child.once('exit', () => rej(new Error(`listen exited: ${err}`)));
    });
    const rss = [];
    const sampler = setInterval(() => rss.push(rssMiB(child.pid)), 500);
    // --metrics is served while the senders send, as a Prometheus server would scrape it.
    let scrapes = 0;
    const scraper = args.includes('--metrics')
      ? setInterval(() => {
          getText(new URL('/metrics', url))
            .then((t) => t.includes('partner_webhook_events_received_total') && scrapes++, () => undefined);
        }, 1000)
      : undefined;
    const agent = new Agent({ connections: SENDERS });
    // The senders post bodies[from, to) and count the 200s; with forwards, then waits for every delivery.
    const send = async (from, to) => {
      delivered = 0;
      deliveryGoal = to - from;
      let next = from;
      let acked = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < to) {
            const body = bodies[next++];
            const r = await request(url, { method: 'POST', body, dispatcher: agent });
            await r.body.dump();
            if (r.statusCode === 200) acked++;
          }
        }),
      );
      const ackedMs = performance.now() - t0;
      const deliveredAtAck = delivered;
      if (forwards && delivered < to - from) await new Promise((r) => (allDelivered = r));
      return { acked, ackedMs, deliveredAtAck, delivered, doneMs: performance.now() - t0 };
    };
    const w = await send(0, WARMUP);
    const totals = { ok: 0, warmOk: w.acked, warmAckedMs: w.ackedMs, ackedMs: 0, doneMs: 0, deliveredAtAck: 0, delivered: 0, cpuMs: 0, benchCpuMs: 0, rounds: [] };
    return {
      totals,
      async segment(from, to) {
        const cpu0 = cpuSeconds(child.pid);
        const own0 = process.cpuUsage();
        const r = await send(from, to);
        // CPU per event until every event was delivered: the receiver's, and this process's (the senders and the target).
        totals.cpuMs += ((cpuSeconds(child.pid) - cpu0) * 1000) / EVENTS;
        const own = process.cpuUsage(own0);
        totals.benchCpuMs += (own.user + own.system) / 1000 / EVENTS;
        totals.ok += r.acked;
        totals.rounds.push((to - from) / (r.ackedMs / 1000));
        totals.ackedMs += r.ackedMs;
        totals.doneMs += r.doneMs;
        totals.deliveredAtAck += r.deliveredAtAck;
        totals.delivered += r.delivered;
      },
      async stop() {
        clearInterval(sampler);
        clearInterval(scraper);
        child.kill('SIGINT');
        await new Promise((r) => child.once('exit', r));
        sandboxes.delete(child);
        await agent.close();
        return { ...totals, scrapes, rss: rss.filter((x) => !Number.isNaN(x)) };
      },
    };
  }

  // Both receivers warmed up, then the timed events in ROUNDS rounds, each receiver taking its share in
  // turn (b first in every other round): the machine's other load falls on both alike.
  async function pair(aArgs, bArgs) {
    const a = await start(...aArgs);
    const b = await start(...bArgs);
    const share = Math.ceil(EVENTS / ROUNDS);
    for (let i = 0; i < ROUNDS; i++) {
      const from = WARMUP + i * share;
      const to = Math.min(WARMUP + EVENTS, from + share);
      for (const r of i % 2 === 0 ? [a, b] : [b, a]) await r.segment(from, to);
    }
    return [await a.stop(), await b.stop()];
  }

  const concurrency = process.env.BENCH_FORWARD_CONCURRENCY ? ['--forward-concurrency', process.env.BENCH_FORWARD_CONCURRENCY] : [];
  const [verifyOnly, spooled] = await pair([[]], [['--forward-to', targetUrl, '--spool', join(TMP, 'spool'), '--metrics', ...concurrency]]);
  // BENCH_LISTEN_FLOOR=1: the same senders and target against the least a receiver can do (minimal-listen.mjs).
  let floor;
  if (process.env.BENCH_LISTEN_FLOOR === '1') {
    const minimal = join(HERE, 'minimal-listen.mjs');
    const [verify, spool] = await pair([[], { program: [minimal, jwksFile] }], [[targetUrl, join(TMP, 'minimal-journal.ndjson')], { program: [minimal, jwksFile], forwards: true }]);
    floor = { verify, spool };
  }
  target.close();
  const rate = (n, ms) => n / (ms / 1000);
  const ackRate = rate(EVENTS, spooled.ackedMs);
  // Deliveries while the senders were sending (the backlog left at their end is the gap): strict.
  const deliveryRate = rate(spooled.deliveredAtAck, spooled.ackedMs);
  const verifyRate = rate(EVENTS, verifyOnly.ackedMs);
  const halves = (xs) => {
    const h = Math.floor(xs.length / 2);
    return `${Math.max(...xs.slice(0, Math.max(1, h))).toFixed(0)} and ${Math.max(...xs.slice(h)).toFixed(0)} MiB`;
  };
  const half = Math.floor(spooled.rss.length / 2);
  const early = Math.max(...spooled.rss.slice(0, Math.max(1, half)));
  const late = Math.max(...spooled.rss.slice(half));
  record({
    target: `webhook listen --spool --forward-to --metrics (bounds on, /metrics scraped every second), ${EVENTS.toLocaleString('en-US')} events timed after ${WARMUP.toLocaleString('en-US')} untimed (steady state), ${SENDERS} concurrent senders, local target: acknowledged (verified, fsync'd)`,
    ours: `${Math.round(ackRate).toLocaleString('en-US')} /s`,
    baseline: `${Math.round(verifyRate).toLocaleString('en-US')} /s: the same receiver verifying only`,
    ratio: ackRate / verifyRate,
    goal: '≥ 0.9×',
    pass: ackRate / verifyRate >= 0.9 && spooled.ok === EVENTS && verifyOnly.ok === EVENTS && spooled.warmOk === WARMUP && verifyOnly.warmOk === WARMUP && spooled.scrapes > 0,
  });
  record({
    target: `webhook listen --spool --forward-to, same run: delivered to the target while the senders sent (--forward-concurrency ${process.env.BENCH_FORWARD_CONCURRENCY ?? 'default'})`,
    ours: `${Math.round(deliveryRate).toLocaleString('en-US')} /s`,
    baseline: `${Math.round(ackRate).toLocaleString('en-US')} /s: its acknowledgements`,
    ratio: deliveryRate / ackRate,
    goal: '≥ 0.9×',
    pass: deliveryRate / ackRate >= 0.9 && spooled.delivered === EVENTS,
  });
  // On a machine the senders, the target and the receiver keep busy, throughput follows CPU per event:
  // the ratio the CPU figures predict (the receiver's and this process's, per event) is steadier than the timed one.
  const cpuNote = (name, v, sp) => {
    const perEvent = (r) => `${r.cpuMs.toFixed(2)} + ${r.benchCpuMs.toFixed(2)} ms`;
    return `${name}: CPU an event (receiver + senders and target) ${perEvent(sp)} spooled, ${perEvent(v)} verify-only: ratio by CPU ${((v.cpuMs + v.benchCpuMs) / (sp.cpuMs + sp.benchCpuMs)).toFixed(2)}×`;
  };
  notes.push(cpuNote('listen', verifyOnly, spooled));
  notes.push(`listen, each round's acknowledgements spooled against verify-only: ${spooled.rounds.map((r, i) => `${(r / verifyOnly.rounds[i]).toFixed(2)}×`).join(', ')}`);
  // From the first event: the warm-up's and the timed events' acknowledgements over both phases' sending time.
  const fromStart = (r) => rate(WARMUP + EVENTS, r.warmAckedMs + r.ackedMs);
  if (WARMUP > 0) notes.push(`listen from the receiver's first event (the ${WARMUP.toLocaleString('en-US')} warm-up events counted too): ${Math.round(fromStart(spooled))} /s spooled against ${Math.round(fromStart(verifyOnly))} /s verify-only, ${(fromStart(spooled) / fromStart(verifyOnly)).toFixed(2)}×`);
  if (floor) {
    const r = rate(EVENTS, floor.spool.ackedMs) / rate(EVENTS, floor.verify.ackedMs);
    notes.push(`${cpuNote('listen floor (test/bench/minimal-listen.mjs)', floor.verify, floor.spool)}; timed ${Math.round(rate(EVENTS, floor.spool.ackedMs))} /s against ${Math.round(rate(EVENTS, floor.verify.ackedMs))} /s (${r.toFixed(2)}×), ${floor.spool.ok}/${EVENTS} and ${floor.verify.ok}/${EVENTS} acknowledged`);
  }
  const { loadavg } = await import('node:os'); // here, not at the top: this section's own import
  notes.push(`listen: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${spooled.scrapes} scrapes of /metrics answered; acknowledged ${spooled.ok}/${EVENTS} with --spool in ${(spooled.ackedMs / 1000).toFixed(2)} s (${spooled.deliveredAtAck} delivered by then), all delivered after ${(spooled.doneMs / 1000).toFixed(2)} s; verify-only ${verifyOnly.ok}/${EVENTS} in ${(verifyOnly.ackedMs / 1000).toFixed(2)} s; receiver RSS max ${early.toFixed(0)} MiB in the first half of the run, ${late.toFixed(0)} MiB in the second (${spooled.rss.length} samples); the verify-only receiver's ${halves(verifyOnly.rss)}`);
}

// `profile get` of 100 employees at --concurrency 16 (7 sections each: 112 requests in
// flight) against the sandbox with 50 ms latency, vs test/bench/minimal-profiles.mjs with the same
// requests in flight.
async function profile() {
  const EMPLOYEES = 100;
  const LATENCY = 50;
  const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 7);
  log(`profile: profile get of ${EMPLOYEES} employees, --concurrency 16, sandbox latency ${LATENCY} ms, ${RUNS} interleaved runs`);
  const sbx = await startSandbox(['--employees', String(EMPLOYEES), '--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const idsFile = join(TMP, 'profile-ids.txt');
    const page = await (await fetch(`${sbx.url}/v1/employees?pageSize=${EMPLOYEES}`, { headers: { authorization: `Bearer ${sbx.token}` } })).json();
    writeFileSync(idsFile, page.data.map((e) => `${e.id}\n`).join(''));
    const oursFile = join(TMP, 'profiles.ndjson');
    const baseFile = join(TMP, 'profiles-minimal.ndjson');
    const ours = [];
    const base = [];
    for (let i = 0; i < RUNS; i++) {
      base.push(await timed(NODE, [join(HERE, 'minimal-profiles.mjs'), sbx.url, sbx.token, idsFile, '16'], { env, stdoutFile: baseFile }));
      ours.push(await timed(NODE, [BIN, 'profile', 'get', '--from-file', idsFile, '--concurrency', '16', '-o', 'ndjson'], { env, stdoutFile: oursFile }));
    }
    const lines = readFileSync(oursFile, 'utf8').split('\n').length - 1;
    const ratio = pairedRatio(ours, base);
    record({
      target: `profile get, ${EMPLOYEES} employees (7 sections), --concurrency 16, ${LATENCY} ms latency`,
      ours: `${(median(ours) / 1000).toFixed(2)} s`,
      baseline: `${(median(base) / 1000).toFixed(2)} s (test/bench/minimal-profiles.mjs, same requests in flight)`,
      ratio,
      goal: '≤ 1.25× its time (median of paired runs)',
      pass: ratio <= 1.25 && lines === EMPLOYEES,
    });
    notes.push(`profile: ${lines} profiles; runs (s): ours ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; minimal ${base.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  } finally {
    await sbx.close();
  }
}

// employees list --search: the client-side filter over every page costs at most 10% over the plain export.
async function search() {
  const EMPLOYEES = 20_000;
  const LATENCY = 50;
  const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 5);
  log(`search: ${EMPLOYEES} employees, page size 100, sandbox latency ${LATENCY} ms, ${RUNS} interleaved runs`);
  const sbx = await startSandbox(['--employees', String(EMPLOYEES), '--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const ours = [];
    const base = [];
    const searchFile = join(TMP, 'search.ndjson');
    for (let i = 0; i < RUNS; i++) {
      base.push(await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100'], { env, stdoutFile: '/dev/null' }));
      ours.push(await timed(NODE, [BIN, 'employees', 'list', '--search', 'priya', '-o', 'ndjson', '--page-size', '100'], { env, stdoutFile: searchFile }));
    }
    const matches = readFileSync(searchFile, 'utf8').split('\n').length - 1;
    const ratio = pairedRatio(ours, base);
    record({
      target: `employees list --search priya -o ndjson, ${EMPLOYEES.toLocaleString('en-US')} employees, ${LATENCY} ms latency`,
      ours: `${(median(ours) / 1000).toFixed(2)} s (${matches} matches)`,
      baseline: `${(median(base) / 1000).toFixed(2)} s (--all -o ndjson)`,
      ratio,
      goal: '≤ 1.10× its time (median of paired runs)',
      pass: ratio <= 1.1 && matches > 0,
    });
    notes.push(`search: runs (s): --search ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; --all ${base.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  } finally {
    await sbx.close();
  }
}

// A --changes-since run over 20,000 employees against a plain --all export of the
// same format (the diff is in memory per id: no page is read twice). The earlier export has 20
// employees taken out, 20 renamed and its lines in another order; --state is measured beside it.
async function changes() {
  const EMPLOYEES = 20_000;
  const LATENCY = 50;
  const RUNS = Number(process.env.BENCH_CHANGES_RUNS ?? 5);
  log(`changes: ${EMPLOYEES} employees, page size 100, sandbox latency ${LATENCY} ms, ${RUNS} interleaved runs`);
  const sbx = await startSandbox(['--employees', String(EMPLOYEES), '--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const full = join(TMP, 'changes-full.ndjson');
    await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100', '--output-file', full], { env });
    const lines = readFileSync(full, 'utf8').split('\n').filter(Boolean);
    const earlier = lines.slice(20).map((l, i) => (i < 20 ? l.replace('"lastName":"', '"lastName":"X') : l)).reverse();
    const before = join(TMP, 'changes-before.ndjson');
    writeFileSync(before, `${earlier.join('\n')}\n`);
    const state = join(TMP, 'changes.state');
    const ours = [];
    const base = [];
    const withState = [];
    const out = join(TMP, 'changes-out.ndjson');
    for (let i = 0; i < RUNS; i++) {
      base.push(await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100'], { env, stdoutFile: '/dev/null' }));
      ours.push(await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100', '--changes-since', before], { env, stdoutFile: out }));
      rmSync(state, { force: true });
      withState.push(await timed(NODE, [BIN, 'employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100', '--changes-since', before, '--state', state], { env, stdoutFile: '/dev/null' }));
    }
    const printed = readFileSync(out, 'utf8').split('\n').length - 1;
    const ratio = pairedRatio(ours, base);
    record({
      target: `employees list --all --changes-since FILE -o ndjson, ${EMPLOYEES.toLocaleString('en-US')} employees, ${LATENCY} ms latency`,
      ours: `${(median(ours) / 1000).toFixed(2)} s (${printed} changes)`,
      baseline: `${(median(base) / 1000).toFixed(2)} s (--all -o ndjson)`,
      ratio,
      goal: '≤ 1.15× its time (median of paired runs)',
      pass: ratio <= 1.15 && printed === 40,
    });
    notes.push(`changes: runs (s): --changes-since ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; with --state (written) ${withState.map((x) => (x / 1000).toFixed(2)).join(', ')} (${pairedRatio(withState, base).toFixed(2)}×); --all ${base.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  } finally {
    await sbx.close();
  }
}

// Tables. (1) One page as a table (the first row a person waits for) against
// test/bench/minimal-table.mjs, 50 ms latency. (2) A large tracker as a table against the same
// tracker as CSV (what the table adds: measuring, cutting and padding every cell). (3) The CPU of a
// 20,000-row table (--all -o table), the figure the old docs gave as 0.83 s.
async function tables() {
  const LATENCY = 50;
  const RUNS = Number(process.env.BENCH_TABLE_RUNS ?? 9);
  const TRACKER_EMPLOYEES = 50_000;
  log(`table: one page vs a minimal client (${LATENCY} ms latency), a tracker of ${TRACKER_EMPLOYEES.toLocaleString('en-US')} employees as table vs CSV, ${RUNS} interleaved runs`);
  const sbx = await startSandbox(['--employees', String(TRACKER_EMPLOYEES), '--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const out = join(TMP, 'table.txt');
    const page = [];
    const minimal = [];
    const trackerTable = [];
    const trackerCsv = [];
    for (let i = 0; i < RUNS; i++) {
      minimal.push(await timed(NODE, [join(HERE, 'minimal-table.mjs'), sbx.url, sbx.token, '20'], { env, stdoutFile: out }));
      page.push(await timed(NODE, [BIN, 'employees', 'list', '-o', 'table'], { env, stdoutFile: out }));
      trackerCsv.push(await timed(NODE, [BIN, 'trackers', 'onboarding', '-o', 'csv'], { env, stdoutFile: out }));
      trackerTable.push(await timed(NODE, [BIN, 'trackers', 'onboarding', '-o', 'table'], { env, stdoutFile: out }));
    }
    const trackerRows = readFileSync(out, 'utf8').split('\n').length - 2;
    const pageRatio = pairedRatio(page, minimal);
    record({
      target: `employees list, one page (20 rows) as a table, ${LATENCY} ms latency`,
      ours: `${median(page).toFixed(0)} ms`,
      baseline: `${median(minimal).toFixed(0)} ms (test/bench/minimal-table.mjs: node:http keep-alive, pad, print)`,
      ratio: pageRatio,
      goal: '≤ 1.3× its time (median of paired runs)',
      pass: pageRatio <= 1.3,
    });
    const trackerRatio = pairedRatio(trackerTable, trackerCsv);
    record({
      target: `trackers onboarding (${trackerRows.toLocaleString('en-US')} rows) as a table`,
      ours: `${median(trackerTable).toFixed(0)} ms`,
      baseline: `${median(trackerCsv).toFixed(0)} ms (the same as -o csv)`,
      ratio: trackerRatio,
      goal: '≤ 1.5× its time (median of paired runs)',
      pass: trackerRatio <= 1.5,
    });
  } finally {
    await sbx.close();
  }
  if (HAVE_GNU_TIME) {
    const big = await startSandbox(['--employees', '20000']);
    try {
      const env = cliEnv({ PARTNER_BASE_URL: big.url, PARTNER_TOKEN: big.token });
      const cpu = [];
      for (let i = 0; i < 3; i++) {
        const file = join(TMP, `cpu-${i}`);
        await timed('/usr/bin/time', ['-f', '%U %S', '-o', file, NODE, BIN, 'employees', 'list', '--all', '-o', 'table'], { env, stdoutFile: join(TMP, 'table-20000.txt') });
        const [u, s] = readFileSync(file, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        cpu.push(u + s);
      }
      notes.push(`table: 20,000 employees as a table (employees list --all -o table > file): ${median(cpu).toFixed(2)} s of CPU (user + system, median of 3: ${cpu.map((x) => x.toFixed(2)).join(', ')})`);
    } finally {
      await big.close();
    }
  }
}

// 6. Bulk onboarding: 500 rows against a sandbox with 100 ms latency,
// --concurrency 8 against a minimal client sending the same POSTs and PATCHes
// 8 rows at a time (≤ 1.15× its time), the sequential run (--concurrency 1)
// beside it; and peak RSS checking (--dry-run) and creating 10,000 rows
// against 1,000 (≤ 1.3×). Each run creates new employees (a fresh e-mail tag).
const BULK_ENTITY = 'Acme Sverige AB';
const BULK_COLUMNS = ['personal.firstName', 'personal.lastName', 'personal.dateOfBirth', 'personal.gender', 'contact.personalEmail', 'contact.languages', 'employment.workEmail', 'employment.startDate', 'employment.designation', 'employment.department', 'employment.term', 'employment.baseSalary', 'tax.personnummer', 'tax.taxTable', 'custom.costCenter'];

/** A CSV of n valid rows and the request bodies the CLI sends for them (the minimal client sends those). */
function bulkFiles(tag, n) {
  const csv = [BULK_COLUMNS.join(',')];
  const bodies = [];
  for (let i = 1; i <= n; i++) {
    const mail = `bench${i}.${tag}@acme.example`;
    const pnr = `19900101-${String(i % 10000).padStart(4, '0')}`;
    csv.push([`Test${i}`, `Bench ${tag}`, '1990-01-01', 'Female', `p${i}.${tag}@example.org`, '"SV, EN"', mail, '2025-11-01', 'Engineer', 'Data', 'PERMANENT', '52000', pnr, '32', 'CC-4100'].join(','));
    bodies.push({
      post: { entity: BULK_ENTITY, personal: { firstName: `Test${i}`, lastName: `Bench ${tag}`, dateOfBirth: '1990-01-01', gender: 'FEMALE' }, contact: { personalEmail: `p${i}.${tag}@example.org`, languages: ['SV', 'EN'] }, employment: { workEmail: mail, startDate: '2025-11-01', designation: 'Engineer', department: 'Data', term: 'PERMANENT', baseSalary: 52000 } },
      patch: { tax: { personnummer: pnr, taxTable: 32 }, custom: { costCenter: 'CC-4100' } },
    });
  }
  const csvFile = join(TMP, `bulk-${tag}.csv`);
  const bodiesFile = join(TMP, `bulk-${tag}.json`);
  writeFileSync(csvFile, `${csv.join('\n')}\n`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  return { csvFile, bodiesFile };
}

async function bulk() {
  const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 500);
  const LATENCY = 100;
  const RUNS = Number(process.env.BENCH_BULK_RUNS ?? 3);
  // BENCH_BULK_RUNS=0: the peak memory figures only; BENCH_BULK_SEQUENTIAL=0: without the --concurrency 1 run (~2 min).
  const SEQUENTIAL = process.env.BENCH_BULK_SEQUENTIAL !== '0';
  log(`bulk: ${ROWS} rows, sandbox latency ${LATENCY} ms, ${RUNS} interleaved runs`);
  if (RUNS > 0) await bulkTimes(ROWS, LATENCY, RUNS, SEQUENTIAL);
  await bulkMemory();
}

let bulkSeq = 0;
const bulkTag = () => `r${++bulkSeq}`;

async function bulkTimes(ROWS, LATENCY, RUNS, SEQUENTIAL) {
  const tag = bulkTag;
  const sbx = await startSandbox(['--latency-ms', String(LATENCY)]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: sbx.url, PARTNER_TOKEN: sbx.token });
    const ours = [];
    const ceiling = [];
    const sequential = [];
    for (let i = 0; i < RUNS; i++) {
      const a = bulkFiles(tag(), ROWS);
      ceiling.push(await timed(NODE, [join(HERE, 'minimal-bulk.mjs'), sbx.url, sbx.token, BULK_ENTITY, a.bodiesFile, '8'], { env, stdoutFile: '/dev/null' }));
      const b = bulkFiles(tag(), ROWS);
      ours.push(await timed(NODE, [BIN, 'gp', 'create', '--entity', BULK_ENTITY, '--from-csv', b.csvFile, '--concurrency', '8'], { env }));
      if (i === 0 && SEQUENTIAL) {
        const c = bulkFiles(tag(), ROWS);
        sequential.push(await timed(NODE, [BIN, 'gp', 'create', '--entity', BULK_ENTITY, '--from-csv', c.csvFile, '--concurrency', '1'], { env }));
      }
    }
    const vsCeiling = pairedRatio(ours, ceiling);
    record({
      target: `gp create --from-csv, ${ROWS} rows (POST + PATCH each), ${LATENCY} ms latency, --concurrency 8`,
      ours: `${(median(ours) / 1000).toFixed(2)} s`,
      baseline: `${(median(ceiling) / 1000).toFixed(2)} s (test/bench/minimal-bulk.mjs, 8 rows in flight)`,
      ratio: vsCeiling,
      goal: '≤ 1.15× its time (median of paired runs)',
      pass: vsCeiling <= 1.15,
    });
    if (SEQUENTIAL) record({
      target: `the same ${ROWS} rows one at a time (--concurrency 1)`,
      ours: `${(median(ours) / 1000).toFixed(2)} s (--concurrency 8)`,
      baseline: `${(median(sequential) / 1000).toFixed(2)} s (--concurrency 1)`,
      ratio: median(sequential) / median(ours),
      goal: 'for reference: × faster with 8 in flight',
      pass: true,
    });
    notes.push(`bulk: runs (s): ours ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}; minimal ${ceiling.map((x) => (x / 1000).toFixed(2)).join(', ')}; sequential ${sequential.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  } finally {
    await sbx.close();
  }
}

// Memory: the check pass alone (--dry-run) and a real run, 10,000 vs 1,000 rows (no latency).
async function bulkMemory() {
  const tag = bulkTag;
  const fast = await startSandbox([]);
  try {
    const env = cliEnv({ PARTNER_BASE_URL: fast.url, PARTNER_TOKEN: fast.token });
    for (const dry of [true, false]) {
      const peaks = { small: [], large: [] };
      for (let i = 0; i < (dry ? 2 : 1); i++) {
        for (const [size, n] of [['small', 1000], ['large', 10000]]) {
          const f = bulkFiles(tag(), n);
          peaks[size].push(await peakRss(['gp', 'create', '--entity', BULK_ENTITY, '--from-csv', f.csvFile, '--concurrency', '8', ...(dry ? ['--dry-run'] : [])], env));
        }
      }
      const s = median(peaks.small);
      const l = median(peaks.large);
      record({
        target: `peak RSS, gp create --from-csv${dry ? ' --dry-run' : ' (created)'}, 10,000 vs 1,000 rows`,
        ours: `${(l / 1024).toFixed(1)} MiB (10,000)`,
        baseline: `${(s / 1024).toFixed(1)} MiB (1,000)`,
        ratio: l / s,
        goal: '≤ 1.3× (no forced collections)',
        pass: l / s <= 1.3,
      });
    }
  } finally {
    await fast.close();
  }
}

const all = { walk, memory, startup, verify, listen, profile, table: tables, bulk, search, changes };
const started = Date.now();
try {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) throw new Error('dist/ is missing: run `npm run build` (npm run bench does)');
  for (const s of sections) {
    if (!all[s]) throw new Error(`unknown section "${s}" (${Object.keys(all).join(', ')})`);
    await all[s]();
  }
} finally {
  for (const child of sandboxes) child.kill('SIGKILL');
  rmSync(TMP, { recursive: true, force: true });
}

const cpu = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();
const header = ['target', 'ours', 'baseline', 'ratio', 'goal', 'result'];
const table = rows.map((r) => [r.target, r.ours, r.baseline, `${r.ratio.toFixed(2)}×`, r.goal, r.pass ? 'met' : 'MISSED']);
const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...table.map((r) => `| ${r.join(' | ')} |`)];
process.stdout.write(`\n${lines.join('\n')}\n\n`);
for (const n of notes) process.stdout.write(`- ${n}\n`);
process.stdout.write(`\nMachine: ${cpus().length} CPUs (nproc), ${cpu}, Node ${process.version}, ${process.platform}; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}; bench took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;

