// A bound on how deep the output layer walks a value. JSON.parse is not
// recursive, so an API can send a value nested 100,000 arrays deep; every
// walk after it (flattening, a cell's JSON, a key/value block,
// JSON.stringify) is, and would overflow the stack ("This is a bug").
// Beyond the bound the command stops with an error naming the value.
import { CliError, ExitCode } from '../errors.js';
import { isScalar } from '../json/lossless-number.js';
import { stringifyExact } from '../json/stringify-exact.js';

/**
 * Levels of arrays and objects inside each other that the output layer
 * shows (a record of the API has 3 or 4; the stack holds thousands).
 */
export const MAX_DEPTH = 64;

/**
 * Throws NESTED_TOO_DEEP when `value` nests arrays or objects more than
 * MAX_DEPTH levels; `path` (a dot path) names the value in the message.
 */
export function checkDepth(value: unknown, path = ''): void {
  const at = tooDeepAt(value, MAX_DEPTH)?.reverse();
  if (at) throw nestedTooDeep(path ? [path, ...at].join('.') : at.join('.'));
}

/** JSON.stringify of a value that checkDepth accepts, every number as the server sent it (stringify-exact.ts). */
export function jsonOf(value: unknown, path = '', space?: number): string {
  checkDepth(value, path);
  return stringifyExact(value, space);
}

/** The error for the value at `path` (dot path), one level deeper than MAX_DEPTH. */
export function nestedTooDeep(path: string): CliError {
  return new CliError(`The value at ${shortPath(path)} is nested more than ${MAX_DEPTH} levels deep (arrays or objects inside each other): too deep to show.`, {
    code: 'NESTED_TOO_DEEP',
    exitCode: ExitCode.FAILURE,
    hint: 'Leave that field out with --fields.',
  });
}

/**
 * The keys, innermost first, down to the first array or object found below
 * `room` levels, or undefined. Recursion at most MAX_DEPTH + 1 calls deep.
 */
function tooDeepAt(value: unknown, room: number): string[] | undefined {
  if (isScalar(value)) return undefined;
  if (room === 0) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = tooDeepAt(value[i], room - 1);
      if (at) return push(at, String(i));
    }
    return undefined;
  }
  for (const key of Object.keys(value as object)) {
    const at = tooDeepAt((value as Record<string, unknown>)[key], room - 1);
    if (at) return push(at, key);
  }
  return undefined;
}

function push(keys: string[], key: string): string[] {
  keys.push(key);
  return keys;
}

/** The first levels of a path, long keys cut: "department.0.0.0.0.…" (the rest is more of the same). */
function shortPath(path: string): string {
  const parts = path.split('.');
  const shown = parts.slice(0, 5).map((p) => (p.length > 40 ? `${p.slice(0, 40)}…` : p));
  return parts.length > 5 ? `${shown.join('.')}.…` : shown.join('.');
}
