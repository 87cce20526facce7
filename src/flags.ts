// Flag and argument builders for command definitions. Each one says how the
// flag is shown (placeholder, choices, default in words) and how the raw text
// becomes a typed value; the rules themselves are in options.ts.
import type { Flag } from './command.js';
import type { FileRole } from './config/own-files.js';
import { UsageError } from './errors.js';
import { isUuid, parseChoice, parseInteger, parseSeconds, parseText } from './options.js';

interface Common {
  short?: string;
  placeholder?: string;
}

/** `--all`: false unless given. */
export function bool(description: string, o: { short?: string } = {}): Flag<boolean> {
  return { kind: 'switch', description, short: o.short, parse: (raw) => raw === true };
}

/** `--no-progress`: true unless `--no-…` is given. */
export function negated(description: string): Flag<boolean> {
  return { kind: 'negated', description, parse: (raw) => raw !== false };
}

export function int(description: string, o: Common & { min: number; max?: number }): Flag<number | undefined>;
export function int(description: string, o: Common & { min: number; max?: number; default: number }): Flag<number>;
export function int(description: string, o: Common & { min: number; max?: number; default?: number }): Flag<number | undefined> {
  return { kind: 'value', description, placeholder: o.placeholder ?? 'n', short: o.short, parse: (raw, name) => parseInteger(name, raw, { min: o.min, max: o.max }) ?? o.default };
}

/** A decimal in a range (rates, seconds). */
export function decimal(description: string, o: Common & { min: number; max: number; default?: number }): Flag<number | undefined> {
  return {
    kind: 'value',
    description,
    placeholder: o.placeholder ?? 'x',
    parse: (raw, name) => {
      if (raw === undefined) return o.default;
      const text = String(raw).trim();
      const n = Number(text);
      if (text === '' || !Number.isFinite(n) || n < o.min || n > o.max) throw new UsageError(`${name} must be a number from ${o.min} to ${o.max}, not "${text.slice(0, 40)}"`, undefined, 'INVALID_OPTION');
      return n;
    },
  };
}

/** Seconds, more than 0 and at most an hour. */
export function seconds(description: string, o: { default: number }): Flag<number> {
  return { kind: 'value', description, placeholder: 'seconds', parse: (raw, name) => (raw === undefined ? o.default : parseSeconds(name, raw)) };
}

export function choice<T extends string>(values: readonly T[], description: string, o?: Common): Flag<T | undefined>;
export function choice<T extends string>(values: readonly T[], description: string, o: Common & { default: T }): Flag<T>;
export function choice<T extends string>(values: readonly T[], description: string, o: Common & { default?: T } = {}): Flag<T | undefined> {
  return { kind: 'value', description, placeholder: o.placeholder ?? 'value', short: o.short, choices: values, parse: (raw, name) => parseChoice(name, raw, values) ?? o.default };
}

/** Free text: non-empty, bounded, no control characters. */
export function text(description: string, o: Common & { max?: number } = {}): Flag<string | undefined> {
  return { kind: 'value', description, placeholder: o.placeholder ?? 'text', short: o.short, parse: (raw, name) => parseText(name, raw, o.max) };
}

/** Text with a default (`--host 127.0.0.1`). */
export function textOr(description: string, o: Common & { default: string; max?: number }): Flag<string> {
  return { kind: 'value', description, placeholder: o.placeholder ?? 'text', short: o.short, parse: (raw, name) => parseText(name, raw, o.max) ?? o.default };
}

/**
 * A file path ("-" is stdin where the command says so); kept as typed, only
 * checked non-empty. `role` says how the command uses it (default: it reads
 * it): outputs are checked against the inputs and partner's own files.
 */
export function path(description: string, o: Common & { role?: FileRole } = {}): Flag<string | undefined> {
  return {
    kind: 'value',
    description,
    placeholder: o.placeholder ?? 'path',
    file: { role: o.role ?? 'input' },
    parse: (raw, name) => {
      if (raw === undefined) return undefined;
      const p = String(raw);
      if (p.trim() === '') throw new UsageError(`${name} must not be empty: it needs a path${name === '--from-file' ? ', or - for stdin' : ''}`, undefined, 'INVALID_OPTION');
      if (/[\u0000]/.test(p)) throw new UsageError(`${name} contains a NUL character`, undefined, 'INVALID_OPTION');
      return p;
    },
  };
}

export function uuid(description: string): Flag<string | undefined> {
  return {
    kind: 'value',
    description,
    placeholder: 'uuid',
    parse: (raw, name) => {
      if (raw === undefined) return undefined;
      const t = String(raw).trim();
      if (!isUuid(t)) throw new UsageError(`${name} must be a UUID like 3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a, not "${t.slice(0, 40)}"`, undefined, 'INVALID_OPTION');
      return t.toLowerCase();
    },
  };
}

/** An http(s) URL (normalised), with an example in the error. */
export function httpUrl(description: string, example: string): Flag<string | undefined> {
  return {
    kind: 'value',
    description,
    placeholder: 'url',
    parse: (raw, name) => {
      if (raw === undefined) return undefined;
      try {
        const u = new URL(String(raw));
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
        return u.toString();
      } catch {
        throw new UsageError(`${name} must be an http(s) URL, not "${String(raw).slice(0, 80)}"`, `For example ${name} ${example}`, 'INVALID_OPTION');
      }
    },
  };
}

/** A flag given any number of times (`--set a=1 --set b=2`), each value parsed. */
export function repeated<T>(description: string, placeholder: string, each: (value: string, name: string) => T): Flag<T[]> {
  return { kind: 'repeat', description, placeholder, parse: (raw, name) => ((raw as string[] | undefined) ?? []).map((v) => each(v, name)) };
}

/** A value flag with a custom parser (the parser owns the rules and the message). */
export function custom<T>(description: string, placeholder: string, parse: (raw: string, name: string) => T, extra: Partial<Flag<T>> = {}): Flag<T | undefined> {
  return { kind: 'value', description, placeholder, ...extra, parse: (raw, name) => (raw === undefined ? undefined : parse(String(raw), name)) } as Flag<T | undefined>;
}

// Positional arguments.
export const arg = {
  /** A required word. */
  required(description: string, parse: (raw: string, name: string) => string = (r, n) => parseText(n, r)!): Flag<string> {
    return {
      kind: 'value',
      description,
      parse: (raw, name) => {
        if (raw === undefined) throw new UsageError(`missing required argument ${name}`, undefined, 'MISSING_ARGUMENT');
        return parse(String(raw), name);
      },
    };
  },
  /** A word that may be left out. */
  optional(description: string): Flag<string | undefined> {
    return { kind: 'value', description, optional: true, parse: (raw) => (raw === undefined ? undefined : String(raw)) };
  },
  /** One of a fixed set. */
  oneOf<T extends string>(values: readonly T[], description: string): Flag<T> {
    return {
      kind: 'value',
      description,
      choices: values,
      parse: (raw, name) => {
        const v = parseChoice(name, raw, values);
        if (v === undefined) throw new UsageError(`missing required argument ${name}`, `One of: ${values.join(', ')}`, 'MISSING_ARGUMENT');
        return v;
      },
    };
  },
  /** Every remaining word (may be none). */
  rest(description: string): Flag<string[]> {
    return { kind: 'value', description, optional: true, variadic: true, parse: (raw) => ((raw as string[] | undefined) ?? []).map(String) };
  },
};
