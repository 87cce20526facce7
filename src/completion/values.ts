// Values the completion scripts offer that commander does not know as
// `choices` (an argument validated by the command itself, a comma-separated
// list, a dynamic value). The generator reads this table; a unit test checks
// that every entry names a command and flag (or argument) that exists, so the
// table cannot rot when commands change.
import { EMPLOYEE_FIELDS, PROFILE_SECTIONS } from '../api/types.js';
import { EVENT_TYPES } from '../webhooks/event-catalogue.js';

/** Where the values of a flag or argument come from. */
export type ValueSource =
  | { kind: 'words'; words: readonly string[] }
  /** A comma-separated list of these words (each item completed). */
  | { kind: 'list'; words: readonly string[] }
  /** Profile names from the config, via the hidden `partner __complete profiles`. */
  | { kind: 'profiles' }
  | { kind: 'files' }
  /** The top-level command names (for `partner help <command>`). */
  | { kind: 'commands' };

/**
 * Key: the command path (space-separated, '' for global flags) and either a
 * long flag (`--events`), a positional argument index (`#0`), or every
 * positional from an index on (`#1+`, for a variadic argument).
 */
export const EXTRA_VALUES: Record<string, Record<string, ValueSource>> = {
  '': { '--profile': { kind: 'profiles' } },
  'employees list': { '--fields': { kind: 'list', words: EMPLOYEE_FIELDS } },
  // profile get <employee...> [section...]: sections from the second word on.
  'profile get': { '#1+': { kind: 'words', words: PROFILE_SECTIONS } },
  'sandbox emit': { '#0': { kind: 'words', words: EVENT_TYPES } },
  'webhook listen': { '--events': { kind: 'list', words: EVENT_TYPES } },
  help: { '#0': { kind: 'commands' } },
  'auth switch': { '#0': { kind: 'profiles' } },
};

/** The subcommand used by the scripts to ask for dynamic values. */
export const COMPLETE_COMMAND = '__complete';
