// A keyring that cannot be used, in partner's words: what is missing and what
// to run, by the problem partner found (keyring.ts KeyringProblem). The
// library's and D-Bus's own text ("Using X11 for dbus-daemon autolaunch was
// disabled…", "Secret Service: no result found") is the error's cause,
// shown only with --debug.
import type { KeyringError, KeyringProblem } from './keyring.js';

/** The guide's section on keyrings, for every message that says none could be used. */
export const KEYRING_GUIDE = 'see "Where your token is kept" in docs/guides/security.md';

/** Starting a Secret Service on a machine without a desktop: the guide's recipe, in one line. */
const START_SECRET_SERVICE = 'printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets';

export interface KeyringWords {
  /** What is missing ("no D-Bus session bus is running here …"). */
  what: string;
  /** What to run or do about it. */
  fix: string;
}

/** What is missing and what to do, for a problem on a platform. */
export function keyringWords(problem: KeyringProblem, platform: NodeJS.Platform = process.platform): KeyringWords {
  const system = platform === 'darwin' ? 'the login Keychain' : platform === 'win32' ? 'the Windows Credential Manager' : 'the keyring';
  switch (problem) {
    case 'no-bus':
      return {
        what: 'no D-Bus session bus is running here (DBUS_SESSION_BUS_ADDRESS is not set), and the Linux keyring (a Secret Service such as gnome-keyring) is reached through one',
        fix: `Run partner in a session that has a keyring: a desktop log-in, or on a server \`dbus-run-session -- sh\` and in that shell \`${START_SECRET_SERVICE}\` (${KEYRING_GUIDE})`,
      };
    case 'bus-gone':
      return {
        what: 'the D-Bus session bus that DBUS_SESSION_BUS_ADDRESS names is no longer running (its session ended?)',
        fix: `Open a new session (log in again, or \`dbus-run-session -- sh\`) and start a keyring in it: \`${START_SECRET_SERVICE}\` (${KEYRING_GUIDE})`,
      };
    case 'no-service':
      return {
        what: 'no keyring (Secret Service: gnome-keyring, KWallet, KeePassXC) answers on the D-Bus session bus',
        fix: `Install and start one: \`apt-get install gnome-keyring\` (or \`dnf install gnome-keyring\`), then \`${START_SECRET_SERVICE}\` (${KEYRING_GUIDE})`,
      };
    case 'locked':
      return {
        what: `${system} is locked, and no unlock prompt could be shown`,
        fix: platform === 'linux' ? `Unlock it: log in to the desktop, or on a server \`${START_SECRET_SERVICE}\` (${KEYRING_GUIDE})` : `Unlock ${system} and allow partner (node) to use it when asked`,
      };
    case 'timeout':
      return {
        what: `${system} did not answer in time (an unlock prompt nobody answered?)`,
        fix: `Unlock ${system} (or answer its prompt) and try again`,
      };
    case 'helper':
      return {
        what: "partner's keyring helper could not run",
        fix: 'Fix what it names (a directory of partner\'s that is not yours), or reinstall partner (from a clone: `npm ci && npm run build`)',
      };
    case 'refused':
      return {
        what: `${system} refused the request`,
        fix: `Unlock ${system} and allow partner (node) to use it when asked (${KEYRING_GUIDE})`,
      };
  }
}

/** The words for a KeyringError; a timeout's message is partner's own (how long it waited), and is kept. */
export function wordsFor(err: KeyringError, platform: NodeJS.Platform = process.platform): KeyringWords {
  const words = keyringWords(err.problem, platform);
  if (err.problem === 'timeout' && err.reason === 'timeout') return { ...words, what: err.message };
  // The helper's own failure is partner's words (its native module refused or missing), never the keyring library's: said whole.
  if (err.problem === 'helper') return { ...words, what: `${words.what}: ${err.message}` };
  return words;
}
