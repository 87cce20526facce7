// The config file's "pager" (gh's `pager` key), read for the pager
// (output/pager.ts) by the entry points. A command line taken from a file
// that another user owns, or that others can write, would run their program
// as this user: such a pager is refused with a warning, as git refuses a
// repository another user owns (CVE-2022-24765).
import { readConfigFile } from './file.js';
import { configFile } from './paths.js';

/** The pager the config file names, or why it is not run (`refused`: the warning to print). */
export interface ConfiguredPager {
  pager?: string;
  refused?: string;
}

/** Why a file's owner or mode makes its commands untrustworthy, or undefined. */
export function notTrusted(st: { uid: number; mode: number }, uid: number | undefined): string | undefined {
  // Windows: the profile's ACL; no owner or mode bits to read.
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if (st.mode & 0o022) return `other users can write it (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * The config file's "pager". A file that cannot be read names none here (the
 * command that needs the file says what is wrong with it; help need not).
 */
export function configuredPager(env: NodeJS.ProcessEnv, uid = process.getuid?.()): ConfiguredPager {
  let path: string;
  let why: string | undefined;
  let pager: string | undefined;
  try {
    path = configFile(env);
    pager = readConfigFile(path, (st) => (why = notTrusted(st, uid))).pager;
  } catch {
    return {};
  }
  // Turning the pager off ("" or cat) runs nothing: taken from any file.
  if (pager === undefined || why === undefined || ['', 'cat'].includes(pager.trim())) return { pager };
  return { refused: `the pager set in ${path} is not run: ${why}. Make the file yours alone (\`chmod 600 ${path}\`, owned by you), or set PARTNER_PAGER.` };
}
