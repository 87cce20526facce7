// The --state file, the bookmark of a nightly export: a header line that
// names the format version and what the snapshot is of (the command, its
// filters, the company, the base URL), one line per record (its last known
// values, as the server sent them: enough to diff the next run against and to
// print a removed record), and a trailer with the count and a SHA-256 of
// everything before it. A file cut short or edited fails the digest and is
// refused as damaged.
import { createHash } from 'node:crypto';
import { CliError, ExitCode } from '../errors.js';
import { parseJsonExact } from '../json/parse-exact.js';
import { own } from '../safe-keys.js';
import { sanitizeTerminal } from '../text/sanitize.js';

export const STATE_VERSION = 1;
const MAGIC = '{"partnerState":';

export interface StateHeader {
  partnerState: number;
  /** `employees list`, `trackers onboarding`, `trackers offboarding`. */
  command: string;
  /** The base URL of the API the snapshot was taken from ('sandbox' for --sandbox). */
  baseUrl: string;
  /** The company (customerId) its records name, or null when they name none (trackers). */
  company: string | null;
  /** The server-side filters of the walk (--status…): another filter lists other employees. */
  filters: Record<string, string>;
  records: number;
  takenAt: string;
}

export function isStateText(text: string): boolean {
  return text.startsWith(MAGIC);
}

/** A damaged state file: refused (exit 1); the caller has moved it aside. */
export class DamagedStateError extends CliError {
  constructor(message: string, hint: string) {
    super(message, { code: 'STATE_DAMAGED', exitCode: ExitCode.FAILURE, hint });
  }
}

/** Thrown by parseState; the caller decides where the file goes. */
export class StateDamage extends Error {}

/** The header, then each record's line, then the trailer; `lines` are JSON texts without newlines. */
export function stateText(header: StateHeader, lines: readonly string[]): string {
  const body = `${JSON.stringify(header)}\n${lines.length ? `${lines.join('\n')}\n` : ''}`;
  return `${body}${JSON.stringify({ end: lines.length, sha256: sha256(body) })}\n`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Records by id (in file order) and the header; throws StateDamage when the file is not whole. */
export function parseState(text: string, label: string): { header: StateHeader; records: Map<string, unknown>; raw: Map<string, string> } {
  const cut = text.lastIndexOf('\n', text.length - 2);
  if (!text.endsWith('\n') || cut < 0) throw new StateDamage(`${label} ends in the middle of a line (cut short)`);
  const body = text.slice(0, cut + 1);
  const trailer = parseLine(text.slice(cut + 1, -1), label, 'its last line');
  if (own(trailer, 'sha256') !== sha256(body)) throw new StateDamage(`${label} does not match its own checksum (cut short or edited)`);
  const lines = body.slice(0, -1).split('\n');
  const header = parseLine(lines[0]!, label, 'its header') as unknown as StateHeader;
  if (header.partnerState !== STATE_VERSION) {
    throw new StateDamage(`${label} is a state file of format version ${sanitizeTerminal(String(header.partnerState))}; this partner reads version ${STATE_VERSION}`);
  }
  const filters = header.filters as unknown;
  if (typeof header.command !== 'string' || typeof header.baseUrl !== 'string' || filters === null || typeof filters !== 'object' || Array.isArray(filters)) throw new StateDamage(`${label}: its header does not say what it was taken from`);
  const records = new Map<string, unknown>();
  const raw = new Map<string, string>();
  for (let k = 1; k < lines.length; k++) {
    const row = parseLine(lines[k]!, label, `line ${k + 1}`);
    const id = own(row, 'id');
    if (typeof id !== 'string' && typeof id !== 'number') throw new StateDamage(`${label} line ${k + 1} has no id`);
    records.set(String(id).normalize('NFC'), row);
    raw.set(String(id).normalize('NFC'), lines[k]!);
  }
  if (records.size !== lines.length - 1 || own(trailer, 'end') !== records.size) throw new StateDamage(`${label} does not hold the records its trailer counts`);
  return { header, records, raw };
}

function parseLine(line: string, label: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = parseJsonExact(line);
  } catch {
    throw new StateDamage(`${label}: ${what} is not JSON`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new StateDamage(`${label}: ${what} is not an object`);
  return v as Record<string, unknown>;
}
