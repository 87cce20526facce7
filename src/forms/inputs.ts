// What gp create and dynamic-details submit share: reading --from-file and
// --set into the answers, filling fixed values, listing every issue, and
// turning a server 422 into issues the wizard can ask again.
import type { FormContext } from './form-context.js';
import { ApiError, InvalidValuesError, UsageError } from '../errors.js';
import { readInputFile } from '../input.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { requestDoc } from './answers.js';
import { getAt, setAt } from './paths.js';
import { allFields } from './questions.js';
import type { FormSchema } from './schema.js';
import { issue, validateDoc, type FieldIssue } from './validate.js';
import { applySets, choicesByTitle, dropPlaceholders, mergeValues, parseValuesText, type SetPair } from './values.js';

export const MAX_VALUES_BYTES = 4 * 1024 * 1024;

export interface ValueFlags {
  fromFile?: string;
  sets: SetPair[];
  /** The --from-file values when the command read them already (before sending anything). */
  fileValues?: Record<string, unknown>;
}

/** A values file (`--from-file`, `--body-file`; "-" is stdin) through the one capped reader, strict UTF-8. */
export async function readValuesFile(path: string, ctx: FormContext, flag = '--from-file'): Promise<Record<string, unknown>> {
  // A values file (not a --body-file, which is a request body as sent) can be started from the form's skeleton.
  const missingHint = flag === '--from-file' ? `To start one with every field of the form: partner gp template --entity NAME --values > ${/^[\w@%+=:,./-]{1,200}$/.test(path) ? path : 'values.json'}` : undefined;
  const text = await readInputFile(path, { flag, maxBytes: MAX_VALUES_BYTES, stdin: ctx.io.stdin, signal: ctx.signal, code: 'INVALID_VALUES_FILE', missingHint });
  return parseValuesText(text, path === '-' ? 'stdin' : path);
}

/** Draft (or nothing) + file + --set, in that order of precedence (later wins). */
export async function collectValues(form: FormSchema, base: Record<string, unknown>, flags: ValueFlags, ctx: FormContext, entity?: string): Promise<{ doc: Record<string, unknown>; issues: FieldIssue[] }> {
  let doc = structuredClone(base);
  // The sections the file and --set name: one the form does not have would be dropped without a word.
  const named = new Set(flags.sets.filter((p) => p.text !== '').map((p) => p.path[0]!));
  if (flags.fromFile !== undefined) {
    const file = flags.fileValues ?? (await readValuesFile(flags.fromFile, ctx));
    if (Object.hasOwn(file, 'entity') && !form.sections.some((s) => s.key === 'entity')) {
      if (entity !== undefined && file.entity !== entity) throw new UsageError(`${flags.fromFile} names entity "${String(file.entity).slice(0, 80)}" but --entity is "${entity}"`, undefined, 'INVALID_VALUES_FILE');
      delete file.entity;
    }
    // A skeleton from `gp template --values`: what is still a placeholder is not given; choices may be named by title.
    dropPlaceholders(file);
    choicesByTitle(form, file);
    doc = mergeValues(doc, file);
    for (const key of Object.keys(file)) named.add(key);
  }
  const known = new Set(form.sections.map((s) => s.key));
  const unknown = [...named].filter((key) => !known.has(key)).map((key) => issue(form, key, 'is not a field of this form'));
  return { doc, issues: [...unknown, ...applySets(form, doc, flags.sets)] };
}

/**
 * Fills what needs no person: constant/hidden fields, and defaults of
 * required fields left empty. Repeats while conditions bring in more.
 */
export function fillFixed(form: FormSchema, doc: Record<string, unknown>, sections: string[]): void {
  for (let round = 0; round < 5; round++) {
    let changed = false;
    for (const f of allFields(form, doc, sections)) {
      if (getAt(doc, f.path) !== undefined) continue;
      const value = f.fixed ? f.fixed.value : f.required && f.default !== undefined ? f.default : undefined;
      if (value === undefined) continue;
      setAt(doc, f.path, structuredClone(value));
      changed = true;
    }
    if (!changed) return;
  }
}

export function validateSections(form: FormSchema, doc: Record<string, unknown>, sections: string[]): FieldIssue[] {
  // A required section left out entirely is `{}` here: its required fields are reported, not just the section.
  return validateDoc(form, requestDoc(form, doc, sections), sections);
}

/**
 * Every issue of values collected from a file and --set: theirs first, then
 * the form's own checks on the fields they do not name. A --set value that
 * could not be read is left out of the document, so the form would only add
 * "is required" to the problem already said about that very field.
 */
export function issuesOf(form: FormSchema, collected: { doc: Record<string, unknown>; issues: FieldIssue[] }, sections: string[]): FieldIssue[] {
  const named = new Set(collected.issues.map((i) => i.path));
  return [...collected.issues, ...validateSections(form, collected.doc, sections).filter((i) => !named.has(i.path))];
}

/** Lists every issue on stderr and fails with exit 2: nothing was sent. */
export function failWithIssues(ctx: FormContext, issues: FieldIssue[], flagsGiven: boolean): never {
  // As text, the list comes first; a script reading JSON gets the fields in the error's details instead.
  if (ctx.errors !== 'json') {
    const c = ctx.errColors;
    ctx.log.info(`${c.red('Invalid values')} (${issues.length}):`);
    for (const i of issues) ctx.log.info(`  ${sanitizeTerminal(i.path)}: ${sanitizeTerminal(i.text)}`);
  }
  const hint = flagsGiven
    ? 'Fix the values in --from-file / --set (`partner gp schema --entity NAME` lists every field); nothing was sent.'
    : 'Cannot prompt here (not a terminal, CI, or --no-input): supply the values with --from-file values.json or --set section.field=value.';
  throw new InvalidValuesError(`${issues.length} value${issues.length === 1 ? ' is' : 's are'} missing or invalid; nothing was sent`, hint, issues.map((i) => ({ field: i.path, message: i.text })));
}

/** The field errors of a 400/422 as issues, with the fields' titles. */
export function issuesFromApi(form: FormSchema, err: ApiError, prefix = ''): FieldIssue[] {
  return err.details.map((d) => {
    const path = `${prefix}${d.field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '')}`;
    return issue(form, path, d.message);
  });
}

export function isFieldRejection(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 422 || err.status === 400) && err.details.length > 0;
}
