// A draft id as typed on the command line (--draft, `drafts discard`): eight
// hex digits, as `partner drafts list` shows them. Apart from drafts.ts so the
// definitions loaded at start-up do not load the store.
import { suggestion } from '../text/command-line.js';
import { UsageError } from '../errors.js';

export function draftIdOf(raw: string, name: string): string {
  const id = raw.trim().toLowerCase();
  if (!/^[0-9a-f]{8}$/.test(id)) throw new UsageError(`${name} must be a draft id (8 hex digits, as \`partner drafts list\` shows), not "${raw.slice(0, 40)}"`, suggestion('See the drafts with:', 'partner drafts list'), 'INVALID_OPTION');
  return id;
}
