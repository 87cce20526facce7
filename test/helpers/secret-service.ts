// A private Secret Service for keyring tests: a D-Bus session bus of its own
// (dbus-daemon) with gnome-keyring's secrets component, its "login"
// collection in a temp HOME, unlocked from the test with a password on stdin
// (or left locked). Never the developer's keyring: the bus address is the
// test's own. Every wait is bounded; stop() kills both daemons.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'];

/** The tools missing on this machine (empty when the keyring tests can run). */
export function missingSecretServiceTools(): string[] {
  return TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' }).status !== 0);
}

export const INSTALL_HINT = 'needs gnome-keyring and dbus (Debian/Ubuntu: apt-get install -y gnome-keyring dbus; .ci/run installs them)';

export interface SecretService {
  /** DBUS_SESSION_BUS_ADDRESS, HOME and the XDG directories of the private session, for the CLI's environment. */
  env: Record<string, string>;
  /** Object paths of the items in the "login" collection (read over D-Bus, not through partner). */
  items(): string[];
  /** The attributes of an item (what a tool such as secret-tool finds it by), read over D-Bus. */
  attributes(item: string): Record<string, string>;
  /** Stops gnome-keyring (the bus stays): the next start() with the same home finds the collection locked. */
  stopKeyring(): Promise<void>;
  /** Starts gnome-keyring on the bus: unlocked with `password`, or locked (no password given). */
  startKeyring(password?: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startSecretService(dir: string, password = 'test-keyring-password'): Promise<SecretService> {
  const home = join(dir, 'home');
  const runtime = join(dir, 'run');
  mkdirSync(home, { recursive: true });
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const children: ChildProcess[] = [];
  // The socket in the test's own directory: the session config's `unix:tmpdir=/tmp` left a
  // /tmp/dbus-* socket behind every run (the daemon is killed, so it never removes it).
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(runtime, 'bus')}`], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, HOME: home, XDG_RUNTIME_DIR: runtime } });
  children.push(bus);
  const address = await firstLine(bus, 5_000);
  // The keyring's files under this home alone: gnome-keyring keeps them in XDG_DATA_HOME, which the
  // test run sets for all its tests (test/setup/global.ts); one test's items must not be the next one's.
  const xdg = { XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state') };
  const env = { DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_RUNTIME_DIR: runtime, ...xdg, DISPLAY: '', WAYLAND_DISPLAY: '' };
  let keyring: ChildProcess | undefined;
  const dbusSend = (args: string[]) => spawnSync('dbus-send', ['--session', '--print-reply', ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 5_000 });

  const service: SecretService = {
    env,
    items() {
      const r = dbusSend(['--dest=org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login', 'org.freedesktop.DBus.Properties.Get', 'string:org.freedesktop.Secret.Collection', 'string:Items']);
      if (r.status !== 0) throw new Error(`dbus-send failed: ${r.stderr}`);
      return [...r.stdout.matchAll(/object path "([^"]+)"/g)].map((m) => m[1]!);
    },
    attributes(item: string) {
      const r = dbusSend(['--dest=org.freedesktop.secrets', item, 'org.freedesktop.DBus.Properties.Get', 'string:org.freedesktop.Secret.Item', 'string:Attributes']);
      if (r.status !== 0) throw new Error(`dbus-send failed: ${r.stderr}`);
      return Object.fromEntries([...r.stdout.matchAll(/dict entry\(\s*string "([^"]*)"\s*string "([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    },
    async startKeyring(pw?: string) {
      const args = pw === undefined ? ['--start', '--components=secrets', '--foreground'] : ['--unlock', '--components=secrets', '--foreground'];
      keyring = spawn('gnome-keyring-daemon', args, { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, ...env } });
      children.push(keyring);
      keyring.stdin!.end(pw ?? '');
      // Ready when it owns org.freedesktop.secrets on the bus.
      const owned = () => /boolean true/.test(dbusSend(['--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets']).stdout ?? '');
      await waitFor(owned, { what: 'gnome-keyring-daemon on the bus', intervalMs: 50 });
    },
    async stopKeyring() {
      if (keyring) await kill(keyring);
      keyring = undefined;
    },
    async stop() {
      for (const c of children.reverse()) await kill(c);
    },
  };
  try {
    await service.startKeyring(password);
  } catch (err) {
    await service.stop();
    throw err;
  }
  return service;
}

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no bus address within ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, nl).trim());
      }
    });
    child.on('exit', () => reject(new Error('dbus-daemon exited')));
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGKILL');
  });
}
