// Conditionals: `if`/`then`/`else` (also inside `allOf`, nested to any depth)
// evaluated with ajv against the current answers of an object. The result is
// the object's effective shape right now: which properties are visible, which
// are required, and the schemas that make up each property.
import { own } from '../safe-keys.js';
import { compileSub } from './validate.js';
import { isObj, ordered, resolveRef, type FormSchema, type JsonSchema } from './schema.js';

export interface NodeShape {
  /** Property -> the sub-schemas that apply to it now (base first, then active branches). */
  props: Map<string, JsonSchema[]>;
  required: Set<string>;
  /** Properties that some branch brings in; visible only while a branch that brings them in is active. */
  conditional: Set<string>;
  introduced: Set<string>;
  /** `false` in an active branch. */
  forbidden: Set<string>;
  /** Property order (x-jsf-order first). */
  order: string[];
  /** Property -> a readable condition, for the schema outline. */
  when: Map<string, string>;
}

/** Does `value` satisfy the `if` schema? Unevaluable conditions count as false. */
export function holds(form: FormSchema, ifSchema: unknown, value: unknown): boolean {
  if (ifSchema === true) return true;
  if (ifSchema === false) return false;
  const fn = compileSub(form, ifSchema);
  if (!fn) return false;
  return fn(clean(value ?? {})) === true;
}

function clean(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

/** The effective shape of an object described by `schemas` (all apply) holding `value`. */
export function shapeOf(form: FormSchema, schemas: unknown[], value: unknown): NodeShape {
  const shape: NodeShape = { props: new Map(), required: new Set(), conditional: new Set(), introduced: new Set(), forbidden: new Set(), order: [], when: new Map() };
  const orders: unknown[][] = [];
  const keys: string[] = [];
  const baseDeclared = new Set<string>();
  const baseRequired = new Set<string>();
  const branchDeclared = new Set<string>();
  const branchRequired = new Set<string>();
  const mention = (k: string, branch: string, active: boolean) => {
    if (!shape.when.has(k)) shape.when.set(k, branch);
    if (active) shape.introduced.add(k);
  };
  const walk = (raw: unknown, active: boolean, branch: string | undefined, depth: number) => {
    const s = resolveRef(form.root, raw);
    if (!isObj(s) || depth > 16) return;
    if (isObj(s.properties)) {
      for (const [k, sub] of Object.entries(s.properties)) {
        if (sub === false) {
          if (active) shape.forbidden.add(k);
          continue;
        }
        if (!keys.includes(k)) keys.push(k);
        if (branch === undefined) baseDeclared.add(k);
        else {
          branchDeclared.add(k);
          mention(k, branch, active);
        }
        if (active) {
          const list = shape.props.get(k) ?? [];
          list.push(sub as JsonSchema);
          shape.props.set(k, list);
        }
      }
    }
    if (Array.isArray(s.required)) {
      for (const k of s.required) {
        if (typeof k !== 'string') continue;
        if (branch === undefined) baseRequired.add(k);
        else {
          branchRequired.add(k);
          mention(k, branch, active);
        }
        if (active) shape.required.add(k);
      }
    }
    if (active && Array.isArray(s['x-jsf-order'])) orders.push(s['x-jsf-order'] as unknown[]);
    if (active && isObj(s.dependentRequired) && isObj(value)) {
      for (const [k, deps] of Object.entries(s.dependentRequired)) {
        if (own(value, k) !== undefined && Array.isArray(deps)) for (const d of deps) if (typeof d === 'string') shape.required.add(d);
      }
    }
    if (Array.isArray(s.allOf)) for (const sub of s.allOf) walk(sub, active, branch, depth + 1);
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const ok = active && holds(form, s.if, value);
      const cond = describeCondition(form, s.if);
      if (s.then !== undefined) walk(s.then, active && ok, branch ?? `when ${cond}`, depth + 1);
      if (s.else !== undefined) walk(s.else, active && !ok, branch ?? `unless ${cond}`, depth + 1);
    }
  };
  for (const s of schemas) walk(s, true, undefined, 0);
  // A field is conditional when only a branch requires it, or only a branch declares it;
  // a branch that merely tightens a declared field does not hide it.
  for (const k of keys) {
    if ((branchRequired.has(k) && !baseRequired.has(k)) || (branchDeclared.has(k) && !baseDeclared.has(k))) shape.conditional.add(k);
    else shape.when.delete(k);
  }
  // Required-but-undeclared keys still need a schema to be asked.
  for (const k of shape.required) {
    if (!shape.props.has(k) && !shape.forbidden.has(k)) {
      shape.props.set(k, [{}]);
      if (!keys.includes(k)) keys.push(k);
    }
  }
  let order = keys;
  for (const o of orders.reverse()) order = ordered(order, o);
  shape.order = order;
  return shape;
}

/** Visible now: declared, not forbidden, and (if brought in by a branch) its branch is active. */
export function isVisible(shape: NodeShape, key: string): boolean {
  if (!shape.props.has(key) || shape.forbidden.has(key)) return false;
  return !shape.conditional.has(key) || shape.introduced.has(key);
}

export function visibleKeys(shape: NodeShape): string[] {
  return shape.order.filter((k) => isVisible(shape, k));
}

/** `term = FIXED_TERM`, `churchTaxLiable = true and …`; falls back to "a condition holds". */
export function describeCondition(form: FormSchema, ifSchema: unknown): string {
  const s = resolveRef(form.root, ifSchema);
  if (!isObj(s) || !isObj(s.properties)) return 'a condition holds';
  const parts: string[] = [];
  for (const [k, sub] of Object.entries(s.properties)) {
    const r = resolveRef(form.root, sub);
    if (!isObj(r)) continue;
    if (Object.hasOwn(r, 'const')) parts.push(`${k} = ${JSON.stringify(r.const)}`);
    else if (Array.isArray(r.enum)) parts.push(`${k} in ${r.enum.map((v) => JSON.stringify(v)).join('|')}`);
    else if (isObj(r.properties)) parts.push(`${k}.(${describeCondition(form, r)})`);
    else parts.push(`${k} matches`);
  }
  return parts.length ? parts.join(' and ') : 'a condition holds';
}
