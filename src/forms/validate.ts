// Validation with ajv against the server's schema: draft 2020-12 or 07 by
// `$schema`, all errors, formats from ajv-formats, unknown keywords ignored
// (strict: false). Errors become field paths and words with the field's title.
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { dateProblem } from '../text/calendar-date.js';
import { childSchemas, isObj, resolveRef, str, type Draft, type FormSchema, type JsonSchema } from './schema.js';

// ajv and ajv-formats are CommonJS; under NodeNext their default export is the module object.
type AjvLike = { compile(schema: unknown): ValidateFunction; removeKeyword(k: string): unknown; addKeyword(def: object): unknown };
const Ajv07 = (AjvModule as unknown as { default: new (o: object) => AjvLike }).default;
const Ajv2020 = (Ajv2020Module as unknown as { default: new (o: object) => AjvLike }).default;
const addFormats = (addFormatsModule as unknown as { default: (ajv: AjvLike) => void }).default;

export interface FieldIssue {
  /** Dot path into the answers, e.g. `personal.dateOfBirth`. */
  path: string;
  /** Words without the title: `must be a date (YYYY-MM-DD)`. */
  message: string;
  /** The field's title (or its key) and the message, for people. */
  text: string;
}

const ajvs = new Map<Draft, AjvLike>();

export function ajvFor(draft: Draft): AjvLike {
  let ajv = ajvs.get(draft);
  if (!ajv) {
    const opts = { allErrors: true, strict: false, verbose: true, validateFormats: true, allowUnionTypes: true, addUsedSchema: false };
    ajv = draft === '07' ? new Ajv07(opts) : new Ajv2020(opts);
    addFormats(ajv);
    // ajv divides floats (4321.99 / 0.01 is 432198.99999999994): check decimals exactly instead.
    ajv.removeKeyword('multipleOf');
    ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', errors: true, validate: exactMultipleOf });
    ajvs.set(draft, ajv);
  }
  return ajv;
}

/** A finite number as an exact decimal `digits / 10^scale`, from its shortest round-trip text (what was typed). */
function decimalOf(n: number): { digits: bigint; scale: number } | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return undefined;
  const frac = m[3] ?? '';
  let scale = frac.length - Number(m[4] ?? 0);
  let digits = BigInt(`${m[1]}${m[2]}${frac}`);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** `value` is a whole multiple of `divisor`, decimals compared exactly (4321.99 is a multiple of 0.01). */
export function isMultipleOf(value: number, divisor: number): boolean {
  const a = decimalOf(value);
  const b = decimalOf(divisor);
  if (!a || !b || b.digits === 0n) return false;
  const scale = Math.max(a.scale, b.scale);
  const x = a.digits * 10n ** BigInt(scale - a.scale);
  const y = b.digits * 10n ** BigInt(scale - b.scale);
  return x % y === 0n;
}

function exactMultipleOf(this: unknown, divisor: number, value: number): boolean {
  const ok = isMultipleOf(value, divisor);
  if (!ok) (exactMultipleOf as unknown as { errors: object[] }).errors = [{ keyword: 'multipleOf', params: { multipleOf: divisor }, message: `must be multiple of ${divisor}` }];
  return ok;
}

const compiled = new WeakMap<object, ValidateFunction>();
const compiledByText = new Map<string, ValidateFunction>();

/** Compiles a sub-schema of the form with the root's definitions beside it, so local `$ref`s resolve. */
export function compileSub(form: FormSchema, schema: unknown): ValidateFunction | undefined {
  if (typeof schema === 'boolean') return compileSub(form, schema ? {} : { not: {} });
  if (!isObj(schema)) return undefined;
  const hit = compiled.get(schema);
  if (hit) return hit;
  const { $id: _id, $schema: _s, ...rest } = schema;
  const wrapper: JsonSchema = { ...rest };
  if (form.root.$defs !== undefined && wrapper.$defs === undefined) wrapper.$defs = form.root.$defs;
  if (form.root.definitions !== undefined && wrapper.definitions === undefined) wrapper.definitions = form.root.definitions;
  const key = `${form.draft}\u0000${JSON.stringify(wrapper)}`;
  let fn = compiledByText.get(key);
  if (!fn) {
    try {
      fn = ajvFor(form.draft).compile(wrapper);
    } catch {
      return undefined;
    }
    compiledByText.set(key, fn);
  }
  compiled.set(schema, fn);
  return fn;
}

let rootCompiled = new WeakMap<object, ValidateFunction>();

function rootValidator(form: FormSchema): ValidateFunction {
  let fn = rootCompiled.get(form.root);
  if (!fn) {
    const { $id: _id, ...rest } = form.root;
    fn = ajvFor(form.draft).compile(rest);
    rootCompiled.set(form.root, fn);
  }
  return fn;
}

/** For tests that load many schemas. */
export function resetCompiled(): void {
  rootCompiled = new WeakMap();
}

/**
 * Validates the answers document ({section: {...}}) against the whole schema.
 * With `sections`, only issues under those sections are kept (dynamic-details
 * validates its sections alone).
 */
export function validateDoc(form: FormSchema, doc: Record<string, unknown>, sections?: string[]): FieldIssue[] {
  const fn = rootValidator(form);
  fn(doc);
  const issues = toIssues(form, fn.errors ?? []);
  const known = new Set(form.sections.map((s) => s.key));
  for (const key of Object.keys(doc)) {
    if (!known.has(key) && !(isObj(form.root.properties) && Object.hasOwn(form.root.properties, key))) {
      issues.push(issue(form, key, 'is not a section of this form'));
    }
  }
  const dedup = dedupe(issues);
  if (!sections) return dedup;
  return dedup.filter((i) => sections.includes(i.path.split('.')[0]));
}

/** Validates one value against a field's own (merged) schema: the words for the question. */
export function validateValue(form: FormSchema, path: string, schema: JsonSchema, value: unknown): FieldIssue[] {
  const fn = compileSub(form, schema);
  if (!fn) return [];
  if (fn(value)) return [];
  const prefix = path;
  return dedupe(toIssues(form, fn.errors ?? [], prefix));
}

function dedupe(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function pointerToDot(p: string): string {
  return p
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(a: string, b: string): string {
  return a ? (b ? `${a}.${b}` : a) : b;
}

const FORMAT_WORDS: Record<string, string> = {
  date: 'must be a date (YYYY-MM-DD)',
  email: 'must be an e-mail address',
  'date-time': 'must be a date and time (ISO 8601)',
  time: 'must be a time (HH:MM:SS)',
  uri: 'must be a URL',
  uuid: 'must be a UUID',
  ipv4: 'must be an IPv4 address',
};

function optionsText(list: unknown[]): string {
  const parts = list.map((o) => {
    if (!isObj(o)) return String(o);
    const c = o.const ?? (Array.isArray(o.enum) ? o.enum[0] : undefined);
    const t = str(o.title);
    return t && t !== String(c) ? `${String(c)} (${t})` : String(c);
  });
  return parts.length > 12 ? `${parts.slice(0, 12).join(', ')}, …` : parts.join(', ');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'empty',
};

function messageFor(e: ErrorObject): { leaf?: string; message: string } | undefined {
  const p = e.params as Record<string, unknown>;
  const parent = (isObj(e.parentSchema) ? e.parentSchema : {}) as JsonSchema;
  switch (e.keyword) {
    case 'if':
      return undefined; // the failing then/else branch says what is wrong
    case 'required':
      return { leaf: String(p.missingProperty), message: 'is required' };
    case 'dependentRequired':
    case 'dependencies':
      return { leaf: String(p.missingProperty), message: `is required when ${String(p.property)} is given` };
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { leaf: String(p.additionalProperty ?? p.unevaluatedProperty), message: 'is not a field of this form' };
    case 'false schema':
      return { message: 'is not allowed here (its condition does not hold)' };
    case 'format':
      // A date of the right form names the month or day the calendar lacks.
      if (p.format === 'date' && typeof e.data === 'string') return { message: dateProblem(e.data) ?? FORMAT_WORDS.date! };
      return { message: FORMAT_WORDS[String(p.format)] ?? `must be a valid ${String(p.format)}` };
    case 'pattern': {
      const d = str(parent.description);
      return { message: d ? `does not have the expected format: ${d}` : `does not have the expected format (${String(p.pattern)})` };
    }
    case 'enum':
      return { message: `must be one of: ${optionsText(p.allowedValues as unknown[])}` };
    case 'const':
      if (/\/(oneOf|anyOf)\/\d+\/const$/.test(e.schemaPath)) return undefined;
      return { message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'oneOf':
    case 'anyOf': {
      const list = parent[e.keyword];
      if (Array.isArray(list) && list.every((o) => isObj(o) && (Object.hasOwn(o, 'const') || Array.isArray(o.enum)))) return { message: `must be one of: ${optionsText(list)}` };
      return { message: 'does not match any allowed shape' };
    }
    case 'type': {
      const t = Array.isArray(p.type) ? p.type : String(p.type).split(',');
      return { message: `must be ${t.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ')}` };
    }
    case 'minLength':
      return { message: p.limit === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} characters` };
    case 'maxLength':
      return { message: `must have at most ${String(p.limit)} characters` };
    case 'minimum':
      return { message: `must be at least ${String(p.limit)}` };
    case 'maximum':
      return { message: `must be at most ${String(p.limit)}` };
    case 'exclusiveMinimum':
      return { message: `must be more than ${String(p.limit)}` };
    case 'exclusiveMaximum':
      return { message: `must be less than ${String(p.limit)}` };
    case 'multipleOf': {
      // 0.01 -> "at most 2 decimal places": what a person typing money needs to hear.
      const places = /^0\.(0*)1$/.exec(String(p.multipleOf));
      return { message: places ? `must have at most ${places[1].length + 1} decimal place${places[1].length ? 's' : ''} (a multiple of ${String(p.multipleOf)})` : `must be a multiple of ${String(p.multipleOf)}` };
    }
    case 'minItems':
      return { message: `needs at least ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}` };
    case 'maxItems':
      return { message: `allows at most ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}` };
    case 'uniqueItems':
      return { message: 'must not repeat a value' };
    case 'minProperties':
      return { message: 'must not be empty' };
    case 'not':
      return { message: 'is not allowed' };
    default:
      return { message: e.message ?? 'is invalid' };
  }
}

function toIssues(form: FormSchema, errors: ErrorObject[], prefix = ''): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const e of errors) {
    const m = messageFor(e);
    if (!m) continue;
    const path = join(join(prefix, pointerToDot(e.instancePath)), m.leaf ?? '');
    out.push(issue(form, path, m.message));
  }
  return out;
}

export function issue(form: FormSchema, path: string, message: string): FieldIssue {
  const title = titleAt(form, path);
  return { path: path || '(form)', message, text: `${title} ${message}` };
}

/** The title of the field at a dot path (array indexes allowed), else its key. */
export function titleAt(form: FormSchema, path: string): string {
  const parts = path.split('.').filter((p) => p !== '');
  if (parts.length === 0) return 'The form';
  let schemas: unknown[] = [form.root];
  let title: string | undefined;
  for (const part of parts) {
    schemas = childSchemas(form, schemas, part);
    if (/^\d+$/.test(part)) continue;
    title = undefined;
    for (const s of schemas) {
      const r = resolveRef(form.root, s);
      if (isObj(r) && str(r.title)) {
        title = str(r.title);
        break;
      }
    }
    title ??= part;
  }
  return title ?? parts[parts.length - 1];
}
