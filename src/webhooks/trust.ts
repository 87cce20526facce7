// Whether a file or directory may be trusted for what it holds (the key-set
// cache, the spool): it must be owned by the user running the CLI and not
// writable by group or others — the same rule as the config file. A cache
// that anyone else can write is a way to plant a signing key.
import { lstatSync } from 'node:fs';

/** Why `path` is not trustworthy, or undefined when it is (or does not exist, or on Windows where modes do not apply). */
export function untrustedReason(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `it is owned by another user (uid ${st.uid})`;
  if (st.mode & 0o022) return `it is writable by ${st.mode & 0o002 ? 'everyone' : 'its group'} (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}
