// Secret fields (isSecretSchema in schema.ts says which) and keeping their
// values out of drafts: a resumed wizard asks them again.
import { LosslessNumber } from '../json/lossless-number.js';
import { put } from '../safe-keys.js';
import { getAt, setAt } from './paths.js';
import { allFields } from './questions.js';
import { isSecretSchema, type FormSchema } from './schema.js';

/** What a secret value is shown as, everywhere (review, dry runs, MCP results, drafts shown). */
export const SECRET_MASK = '********';

/**
 * A copy of `doc` (answers, or a request body: the same paths) with the value
 * of every secret field of the form replaced by SECRET_MASK; `doc` itself is
 * unchanged (it is what is sent). The one masking of a form's values for a
 * view: terminal, dry-run output, MCP results, drafts shown. `reveal`
 * (the operator's --reveal) returns the values as they are.
 */
export function maskSecrets<T extends Record<string, unknown>>(form: FormSchema, doc: T, o: { reveal?: boolean } = {}): T {
  if (o.reveal) return doc;
  const shown = cloneKeepingNumbers(doc);
  for (const f of secretFields(form, doc)) {
    const v = getAt(shown, f.path);
    if (v !== undefined && v !== null && v !== '') setAt(shown, f.path, SECRET_MASK);
  }
  return shown;
}

/** A deep copy of a JSON document whose LosslessNumbers stay such (structuredClone would make each a plain object). */
function cloneKeepingNumbers<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneKeepingNumbers) as T;
  if (v === null || typeof v !== 'object' || v instanceof LosslessNumber) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) put(out, k, cloneKeepingNumbers(x));
  return out as T;
}

/** The sentence after a view that masked some of `doc`'s values: how to see them (empty when nothing was masked). */
export function maskedNote(form: FormSchema, doc: Record<string, unknown>, reveal = false): string {
  if (reveal) return '';
  const masked = secretFields(form, doc).filter((f) => {
    const v = getAt(doc, f.path);
    return v !== undefined && v !== null && v !== '';
  });
  return masked.length ? ` Secret values (${[...new Set(masked.map((f) => f.title))].join(', ')}) are shown as ${SECRET_MASK}; --reveal shows them.` : '';
}

/** Dot paths of the secret fields of the answers now (group items included). */
export function secretFields(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): { id: string; path: string[]; title: string }[] {
  return allFields(form, doc, sections)
    .filter((f) => isSecretSchema(f.schema))
    .map((f) => ({ id: f.id, path: f.path, title: f.title }));
}

/**
 * A copy of the answers without secret values, and the asked list and back
 * history without their questions (so a resumed wizard asks them again).
 * `dropped` names the secret fields that had a value, for the resume message.
 */
export function withoutSecrets(
  form: FormSchema,
  doc: Record<string, unknown>,
  asked: Iterable<string> = [],
  history: readonly string[] = [],
): { answers: Record<string, unknown>; asked: string[]; history: string[]; dropped: string[]; droppedIds: string[] } {
  const answers = structuredClone(doc);
  const dropped: string[] = [];
  const droppedIds: string[] = [];
  const secretIds = new Set<string>();
  for (const f of secretFields(form, doc)) {
    secretIds.add(f.id);
    if (getAt(answers, f.path) !== undefined) {
      dropped.push(f.title);
      droppedIds.push(f.id);
      setAt(answers, f.path, undefined);
    }
  }
  return { answers, asked: [...asked].filter((a) => !secretIds.has(a)), history: history.filter((h) => !secretIds.has(h)), dropped, droppedIds };
}

/** The sentence a resume prints about secret answers (empty when the form has none). */
export function secretsResumeNote(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): string {
  const titles = [...new Set(secretFields(form, doc, sections).map((f) => f.title))];
  if (titles.length === 0) return '';
  return `Secret answers (${titles.join(', ')}) are never stored in drafts; they are asked again.`;
}

/** For messages after a non-interactive failure: how to give the secret values that the draft did not keep. */
export function secretsNotKeptHint(form: FormSchema, doc: Record<string, unknown>): string {
  const { droppedIds } = withoutSecrets(form, doc);
  if (droppedIds.length === 0) return '';
  return `\nSecret values are not kept in drafts: give them again when asked, or with ${droppedIds.map((id) => `--set ${id}=…`).join(' ')}.`;
}
