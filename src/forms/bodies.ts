// Answers -> request bodies. POST /v1/employees/gp-employments takes
// `{entity, <non-dynamic section>: {…}}`; PATCH …/dynamic-details takes
// `{<dynamic section>: {…}}`.
import { requestDoc } from './answers.js';
import { getAt } from './paths.js';
import { withSpelledNumbers } from './spelled-numbers.js';
import { allFields, type Field } from './questions.js';
import type { FormSchema } from './schema.js';

export interface Bodies {
  create: Record<string, unknown>;
  /** Undefined when the form has no dynamic sections, or none has a value. */
  dynamic?: Record<string, unknown>;
}

export function dynamicKeys(form: FormSchema): string[] {
  return form.sections.filter((s) => s.dynamic).map((s) => s.key);
}

export function createKeys(form: FormSchema): string[] {
  return form.sections.filter((s) => !s.dynamic).map((s) => s.key);
}

export function buildBodies(form: FormSchema, entity: string, doc: Record<string, unknown>): Bodies {
  const clean = requestDoc(form, doc);
  const create: Record<string, unknown> = { entity };
  for (const key of createKeys(form)) if (clean[key] !== undefined) create[key] = clean[key];
  const dynamic = dynamicBody(form, clean);
  // Built from copies (requestDoc): the numbers as written go into the bodies, never into the answers.
  return { create: withSpelledNumbers(doc, create), dynamic: dynamic && withSpelledNumbers(doc, dynamic) };
}

export function dynamicBody(form: FormSchema, doc: Record<string, unknown>): Record<string, unknown> | undefined {
  const clean = requestDoc(form, doc, dynamicKeys(form));
  const out: Record<string, unknown> = {};
  for (const key of dynamicKeys(form)) if (clean[key] !== undefined) out[key] = clean[key];
  return Object.keys(out).length ? out : undefined;
}

/** Only the dynamic sections of an answers document (what a dynamic-details draft keeps). */
export function dynamicPart(form: FormSchema, doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of dynamicKeys(form)) if (doc[key] !== undefined) out[key] = structuredClone(doc[key]);
  return out;
}

/** The work e-mail field of the answers: the first e-mail field of a POSTed section whose key says "work", else the first. */
export function workEmailField(form: FormSchema, doc: Record<string, unknown>): Field | undefined {
  const emails = allFields(form, doc).filter((f) => f.kind === 'email' && !form.sections.find((s) => s.key === f.section)?.dynamic);
  return emails.find((e) => /work/i.test(e.key)) ?? emails[0];
}

/** The work e-mail of the answers, for messages and lookups. */
export function workEmailOf(form: FormSchema, doc: Record<string, unknown>): string | undefined {
  const f = workEmailField(form, doc);
  const v = f ? getAt(doc, f.path) : undefined;
  return typeof v === 'string' ? v : undefined;
}
