// `--set section.field=value`: parsed at the flag (no schema needed yet); typed by the schema later (values.ts).
import { isUnsafeKey, UNSAFE_NAMES_HINT } from '../safe-keys.js';
import { UsageError } from '../errors.js';

export interface SetPair {
  path: string[];
  text: string;
  raw: string;
}

/** `section.field=value` (dots for nesting, numbers for array items). */
export function parseSetFlag(raw: string): SetPair {
  const eq = raw.indexOf('=');
  const key = eq < 0 ? '' : raw.slice(0, eq).trim();
  if (eq < 0 || key === '' || !/^[^.=\s]+(\.[^.=\s]+)*$/.test(key)) {
    throw new UsageError(`--set must look like section.field=value, not "${raw.slice(0, 60)}"`, 'For example: --set personal.firstName=Ada --set employment.weeklyHours=40', 'INVALID_OPTION');
  }
  const path = key.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (path.some(isUnsafeKey)) throw new UsageError(`--set ${key.slice(0, 60)}: not a field of any form`, UNSAFE_NAMES_HINT, 'INVALID_OPTION');
  return { path, text: raw.slice(eq + 1), raw };
}
