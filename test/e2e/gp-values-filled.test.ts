// A skeleton filled as its placeholders say is accepted: for every sandbox
// form, `gp template --values` is read, every placeholder is replaced by the
// JSON it asks for (a boolean's "true or false" by true, "a JSON number"
// within its bounds, the first of "one of", a string matching its pattern…),
// and `gp create --from-file --dry-run` takes the file (exit 0); the bodies
// it would send pass the sandbox's own validation of the form.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listEntities, validateCreate, validateDynamic } from '../../src/sandbox/forms.js';
import { PLACEHOLDER_START } from '../../src/forms/values.js';
import { expectCode, runCli } from '../helpers/cli.js';
import { recorderEnv } from '../helpers/gp-recorder.js';

/** The value a placeholder asks for, as a person reading it would write it in JSON. */
export function fillAsSaid(text: string): unknown {
  const said = text.slice(PLACEHOLDER_START.length, -1);
  const bound = (w: string) => {
    const m = new RegExp(`; ${w} (-?[0-9.]+)(;|$)`).exec(said);
    return m ? Number(m[1]) : undefined;
  };
  const oneOf = /; one of: (.*?)(;|$)/.exec(said);
  const first = oneOf ? oneOf[1].split(', ')[0].replace(/ \(.*$/, '') : undefined;
  // A choice's value as JSON: a number is written as one.
  const choice = first === undefined ? undefined : /^-?[0-9]+(\.[0-9]+)?$/.test(first) ? Number(first) : first;
  if (said.includes('; a JSON list of values from the choices')) return [choice];
  if (choice !== undefined) return choice;
  if (said.includes('; true or false')) return true;
  if (said.includes('; a JSON number') || said.includes('; a JSON whole number')) {
    const low = bound('>=') ?? (bound('>') !== undefined ? bound('>')! + 1 : undefined);
    return low ?? bound('<=') ?? 1;
  }
  if (said.includes('; a string "YYYY-MM-DD"')) return '2025-01-01';
  if (said.includes('; a string, an e-mail address')) return 'ada@example.org';
  if (said.includes('; a JSON list')) return [];
  const pattern = /; pattern (.*?)(; |$)/.exec(said);
  if (pattern) return fc.sample(fc.stringMatching(new RegExp(pattern[1])), { seed: 1, numRuns: 1 })[0];
  const min = bound('min length') ?? 1;
  return 'Test value'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(10, bound('max length') ?? 10)));
}

const ONLY = /; fill in only (when|unless) (.*), else leave this placeholder>$/;

/** Does a condition as the placeholder words it (`a = "X" and b in 1|2`) hold for the fields filled beside it? */
function holds(cond: string, siblings: Record<string, unknown>): boolean | undefined {
  let all = true;
  for (const part of cond.split(' and ')) {
    const eq = /^(\w+) = (.*)$/.exec(part);
    const among = /^(\w+) in (.*)$/.exec(part);
    if (eq) all &&= JSON.stringify(siblings[eq[1]]) === eq[2];
    else if (among) all &&= among[2].split('|').includes(JSON.stringify(siblings[among[1]]));
    else return undefined;
  }
  return all;
}

/** Every placeholder of the skeleton replaced by what it asks for; one that says "fill in only when" only if its condition holds. */
function filled(v: unknown): unknown {
  if (typeof v === 'string' && v.startsWith(PLACEHOLDER_START)) return fillAsSaid(v);
  if (Array.isArray(v)) return v.map(filled);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  const later: [string, string][] = [];
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string' && ONLY.test(x)) later.push([k, x]);
    else out[k] = filled(x);
  }
  for (const [k, x] of later) {
    const [, how, cond] = ONLY.exec(x)!;
    const ok = holds(cond, out);
    // A condition the words cannot be read from: the placeholder is left, as a person unsure would.
    out[k] = ok === (how === 'when') ? fillAsSaid(x) : x;
  }
  return out;
}

describe('gp template --values, filled as each placeholder says', () => {
  it.each(listEntities().map((e) => e.name))('%s: accepted by gp create --from-file, and by the form', async (entity) => {
    const { env, dir, close } = await recorderEnv(entity);
    try {
      const t = await runCli(['gp', 'template', '--entity', entity, '--values'], { env, timeoutMs: 20_000 });
      expectCode(t, 0);
      const skeleton = JSON.parse(t.stdout) as Record<string, unknown>;
      // Booleans say the JSON the check takes, never "yes or no".
      expect(t.stdout).not.toMatch(/yes or no/);
      const file = join(dir, 'filled.json');
      writeFileSync(file, JSON.stringify(filled(skeleton), null, 2));
      const r = await runCli(['gp', 'create', '--entity', entity, '--from-file', file, '--dry-run', '--reveal'], { env, timeoutMs: 20_000 });
      expectCode(r, 0);
      const bodies = JSON.parse(r.stdout) as { create: unknown; dynamicDetails: unknown };
      expect(validateCreate(entity, bodies.create)).toEqual({ ok: true });
      if (bodies.dynamicDetails !== null) expect(validateDynamic(entity, bodies.dynamicDetails)).toEqual({ ok: true });
    } finally {
      await close();
    }
  });
});
