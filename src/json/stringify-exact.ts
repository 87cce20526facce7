// JSON text of API data with every LosslessNumber written as the server sent
// it. JSON.rawJSON (which would say "write this text as it is") is not in
// Node 20, so JSON.stringify writes a marker string in its place, and the
// markers are then replaced by the numbers' text. The marker holds a random
// part drawn when the process starts: a server cannot send a string that
// passes for one. Until a LosslessNumber exists, JSON.stringify alone.
import { LosslessNumber } from './lossless-number.js';

const NONCE = `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
/** The marker's text as JSON.stringify writes it ("\u0000" escaped), then the number's index. */
const MARKER = `\u0000#${NONCE}#`;
const WRITTEN_MARKER = new RegExp(`"\\\\u0000#${NONCE}#(\\d+)"`, 'g');

/** JSON.stringify(value, null, space), LosslessNumbers written as their text. */
export function stringifyExact(value: unknown, space?: number): string {
  if (!LosslessNumber.seen) return JSON.stringify(value, null, space);
  const sources: string[] = [];
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (!(v instanceof LosslessNumber)) return v;
      sources.push(v.source);
      return `${MARKER}${sources.length - 1}`;
    },
    space,
  ) as string | undefined;
  return sources.length === 0 || text === undefined ? text! : text.replace(WRITTEN_MARKER, (_m, k: string) => sources[Number(k)]!);
}
