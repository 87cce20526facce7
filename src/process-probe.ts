// Who a pid is, for the lock files (pid-lock.ts): alive or not, when it
// started (an opaque stamp: a reused pid has another one), and whether it is
// partner. Linux reads /proc; other Unix systems ask `ps`; where neither
// answers, "cannot tell" (undefined) and the caller stays cautious.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface ProcessProbe {
  /** This process's pid. */
  readonly self: number;
  alive(pid: number): boolean;
  /** When `pid` started (comparable only with another stamp of this probe), or undefined. */
  startOf(pid: number): string | undefined;
  /** Whether `pid` runs partner; undefined when that cannot be told. */
  isPartner(pid: number): boolean | undefined;
}

/** `partner`, `partner.js`, `partner.exe`… : how the CLI is started (bin, npm link, a packaged binary). */
const PARTNER_NAME = /^partner(\.[cm]?js|\.exe)?$/i;

/** Whether a command line (argv) runs partner: its program, or the first script it is given (`node …/partner.js`). */
export function runsPartner(argv: string[], ownScript = process.argv[1]): boolean {
  const names = new Set([basename(argv[0] ?? '')]);
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  if (script !== undefined) names.add(basename(script));
  const own = ownScript ? basename(ownScript) : undefined;
  for (const n of names) if (PARTNER_NAME.test(n) || (own !== undefined && n === own)) return true;
  return false;
}

/** The start time field (22) of /proc/PID/stat: clock ticks since boot. The name (field 2) may hold spaces and parentheses: fields are counted after its last ')'. */
export function statStartTime(stat: string): string | undefined {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = rest[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readProc(pid: number, what: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${what}`, 'utf8');
  } catch {
    return undefined;
  }
}

function ps(pid: number, column: string): string | undefined {
  try {
    const out = execFileSync('ps', ['-p', String(pid), '-o', `${column}=`], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out === '' ? undefined : out;
  } catch {
    return undefined;
  }
}

const linux: ProcessProbe = {
  self: process.pid,
  alive,
  startOf: (pid) => {
    const stat = readProc(pid, 'stat');
    return stat === undefined ? undefined : statStartTime(stat);
  },
  isPartner: (pid) => {
    const cmdline = readProc(pid, 'cmdline');
    // Empty for kernel threads and zombies: not partner.
    return cmdline === undefined ? undefined : runsPartner(cmdline.split('\0').filter((a) => a !== ''));
  },
};

const unix: ProcessProbe = {
  self: process.pid,
  alive,
  startOf: (pid) => ps(pid, 'lstart'),
  isPartner: (pid) => {
    const args = ps(pid, 'args');
    return args === undefined ? undefined : runsPartner(args.split(/\s+/));
  },
};

const unknown: ProcessProbe = { self: process.pid, alive, startOf: () => undefined, isPartner: () => undefined };

/** The probe for this platform. */
export function processProbe(platform: NodeJS.Platform = process.platform): ProcessProbe {
  if (platform === 'linux') return linux;
  return platform === 'win32' ? unknown : unix;
}
