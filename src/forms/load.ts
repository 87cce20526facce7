// The form schema as the commands get it: fetched, loaded (JSON Schema or a
// translated field-definition list) and the translation's guesses said once.
import type { Logger } from '../run-basics.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { loadSchema, type FormSchema } from './schema.js';

export function loadServerForm(raw: unknown, log: Pick<Logger, 'warn'>): FormSchema {
  const form = loadSchema(raw);
  for (const w of form.warnings.slice(0, 20)) log.warn(sanitizeTerminal(w.slice(0, 300)));
  if (form.warnings.length > 20) log.warn(`…and ${form.warnings.length - 20} more notes about the form`);
  return form;
}
