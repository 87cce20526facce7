// Lines of the spool journal that are not records (a flipped byte, a bad
// sector, a hand edit) are kept aside, never dropped: before a compaction
// rewrites the journal without them, each is appended to
// journal.unreadable.ndjson beside it (0600, fsync'd first) with its byte
// offset in the journal it came from, its length and its bytes (as text when
// it is UTF-8, base64 otherwise). Nothing ever compacts or deletes this file:
// the events it holds were acknowledged to their sender, so a person decides.
import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { eachLine, type UnreadableLine } from './journal.js';

export const UNREADABLE = 'journal.unreadable.ndjson';

export interface AsideRecord {
  /** Byte offset of the line in the journal it was found in (that journal was rewritten since). */
  offset: number;
  /** Length of the line in bytes. */
  length: number;
  foundAt: string;
  /** SHA-256 of the kept bytes: with the offset, tells a line already kept aside from a new one. */
  sha256: string;
  /** The line, when it is UTF-8 text. */
  text?: string;
  /** The line's bytes, when they are not UTF-8. */
  base64?: string;
  /** Only the first bytes are kept (the line was longer than any record). */
  truncated?: true;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function asidePath(dir: string): string {
  return join(dir, UNREADABLE);
}

function keyOf(offset: number, sha256: string): string {
  return `${offset}:${sha256}`;
}

/** What the aside file holds: how many lines, their offsets, and the keys of those lines. Missing file: none. */
export async function readAside(dir: string): Promise<{ count: number; offsets: number[]; keys: Set<string> }> {
  const out = { count: 0, offsets: [] as number[], keys: new Set<string>() };
  try {
    await eachLine(asidePath(dir), (bytes, _offset, length) => {
      if (length === 0) return;
      out.count++;
      try {
        const r = JSON.parse(bytes.toString('utf8')) as AsideRecord;
        out.offsets.push(r.offset);
        out.keys.add(keyOf(r.offset, r.sha256));
      } catch {
        // A damaged line of this file is still a line kept aside: counted, never rewritten.
      }
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return out;
}

/**
 * Appends unreadable lines to the aside file, each once (a compaction that
 * failed after keeping them aside finds them again at the same offsets).
 * `finish()` makes them durable: only then may the journal lose them.
 */
export class AsideWriter {
  private fd?: number;
  /** Lines appended by this writer. */
  added = 0;

  private constructor(
    private readonly dir: string,
    private readonly known: Set<string>,
    private readonly now: () => number,
  ) {}

  static async open(dir: string, now: () => number): Promise<AsideWriter> {
    return new AsideWriter(dir, (await readAside(dir)).keys, now);
  }

  add(u: UnreadableLine): void {
    const sha256 = createHash('sha256').update(u.bytes).digest('hex');
    if (this.known.has(keyOf(u.offset, sha256))) return;
    const r: AsideRecord = { offset: u.offset, length: u.length, foundAt: new Date(this.now()).toISOString(), sha256 };
    try {
      r.text = strictUtf8.decode(u.bytes);
    } catch {
      r.base64 = u.bytes.toString('base64');
    }
    if (u.bytes.length < u.length) r.truncated = true;
    // O_NOFOLLOW: a link planted in the spool directory is not written through.
    this.fd ??= openSync(asidePath(this.dir), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600);
    const buf = Buffer.from(`${JSON.stringify(r)}\n`);
    for (let off = 0; off < buf.length; ) off += writeSync(this.fd, buf, off, buf.length - off);
    this.known.add(keyOf(u.offset, sha256));
    this.added++;
  }

  /** fsyncs what was appended and closes the file. */
  finish(): void {
    if (this.fd === undefined) return;
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/** One line for people: how many journal lines are kept aside, where, and what it means. */
export function asideNotice(dir: string, count: number, added: number): string {
  const lines = count === 1 ? '1 unreadable journal line' : `${count} unreadable journal lines`;
  const fresh = added > 0 ? ` (${added} found now)` : '';
  return `spool ${dir}: ${lines}${fresh} kept aside with ${count === 1 ? 'its offset' : 'their offsets'} in ${asidePath(dir)}; the events in ${count === 1 ? 'it are' : 'them are'} not delivered from the spool: inspect them (\`partner doctor --spool ${dir}\`)`;
}
