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

/**
 * JSON.stringify(value, null, space), LosslessNumbers written as their text.
 * Their toJSON gives the marker: JSON.stringify calls back for the numbers
 * only, where a replacer was called for every key (1.5 times slower for a
 * webhook event record; the receiver and the exports write one an event or
 * a row).
 */
export function stringifyExact(value: unknown, space?: number): string {
  if (!LosslessNumber.seen) return JSON.stringify(value, null, space);
  const sources: string[] = [];
  const outer = LosslessNumber.jsonInPlace;
  LosslessNumber.jsonInPlace = (n) => `${MARKER}${sources.push(n.source) - 1}`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, space) as string | undefined;
  } finally {
    LosslessNumber.jsonInPlace = outer;
  }
  return sources.length === 0 || text === undefined ? text! : text.replace(WRITTEN_MARKER, (_m, k: string) => sources[Number(k)]!);
}
