// The "delivered" records appended to a journal since a given offset, for a
// running receiver to learn which of its parked events `webhook replay
// --failed` delivered (replay appends to the same journal). Reads only the
// complete lines after the offset; memory stays bounded: a line longer than a
// delivery record could be (an event) is skipped, not held.
import { open, stat } from 'node:fs/promises';

/** A delivery record is short; an event line is not one and is skipped past this length. */
const MAX_DELIVERY_LINE = 4096;
const CHUNK = 256 * 1024;

export interface TailScan {
  /** Ids of the "delivered" records found (in the order written). */
  delivered: string[];
  /** Where the next scan starts: after the last complete line read. */
  next: number;
  /** The file's inode (a different one next time: the journal was replaced, scan it from 0). */
  ino: number;
}

export async function deliveredSince(path: string, from: number): Promise<TailScan> {
  const st = await stat(path);
  const fh = await open(path, 'r');
  const delivered: string[] = [];
  let pos = Math.min(from, st.size);
  let lineStart = pos;
  let partial: Buffer[] = [];
  let partialLen = 0;
  let skipping = false;
  try {
    const buf = Buffer.alloc(CHUNK);
    while (pos < st.size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, st.size - pos), pos);
      if (bytesRead === 0) break;
      let at = 0;
      for (let nl = buf.indexOf(0x0a, at); nl !== -1 && nl < bytesRead; nl = buf.indexOf(0x0a, at)) {
        if (!skipping) {
          const piece = buf.subarray(at, nl);
          const line = partialLen > 0 ? Buffer.concat([...partial, piece]) : piece;
          if (line.length <= MAX_DELIVERY_LINE) take(line.toString('utf8'), delivered);
        }
        partial = [];
        partialLen = 0;
        skipping = false;
        at = nl + 1;
        lineStart = pos + at;
      }
      if (at < bytesRead && !skipping) {
        partial.push(Buffer.from(buf.subarray(at, bytesRead)));
        partialLen += bytesRead - at;
        if (partialLen > MAX_DELIVERY_LINE) {
          skipping = true;
          partial = [];
          partialLen = 0;
        }
      }
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return { delivered, next: lineStart, ino: st.ino };
}

function take(line: string, into: string[]): void {
  if (!line.includes('"delivered"')) return;
  try {
    const r = JSON.parse(line) as { t?: unknown; id?: unknown };
    if (r !== null && typeof r === 'object' && r.t === 'delivered' && typeof r.id === 'string') into.push(r.id);
  } catch {
    // not a record: the journal's reader deals with it
  }
}
