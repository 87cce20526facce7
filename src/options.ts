import { UsageError } from './errors.js';

// Client-side validation of flag values, shared by every command. Each
// failure names the flag and what is allowed; nothing is sent.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function parseInteger(flag: string, raw: unknown, range: { min: number; max?: number }): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const allowed = range.max === undefined ? `a whole number of ${range.min} or more` : `a whole number from ${range.min} to ${range.max}`;
  if (!/^[+]?\d+$/.test(text)) throw new UsageError(`${flag} must be ${allowed}, not "${String(raw).slice(0, 40)}"`, undefined, 'INVALID_OPTION');
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < range.min || (range.max !== undefined && n > range.max)) {
    throw new UsageError(`${flag} must be ${allowed}, not ${text.slice(0, 40)}`, undefined, 'INVALID_OPTION');
  }
  return n;
}

/** Case-insensitive match against the allowed values; returns the canonical spelling. */
export function parseChoice<T extends string>(flag: string, raw: unknown, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const hit = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
  if (!hit) throw new UsageError(`${flag} cannot be "${text.slice(0, 40)}". Allowed choices are ${allowed.join(', ')}.`, undefined, 'INVALID_OPTION');
  return hit;
}

export function parseUuid(flag: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if (!isUuid(text)) throw new UsageError(`${flag} must be a UUID like 3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a, not "${text.slice(0, 40)}"`, undefined, 'INVALID_OPTION');
  return text.toLowerCase();
}

/** A free-text identifier: non-empty, bounded, no control characters. */
export function parseText(flag: string, raw: unknown, maxLength = 200): string | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if (text === '') throw new UsageError(`${flag} must not be empty`, undefined, 'INVALID_OPTION');
  if (text.length > maxLength) throw new UsageError(`${flag} is too long (${text.length} characters; at most ${maxLength})`, undefined, 'INVALID_OPTION');
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new UsageError(`${flag} contains control characters`, undefined, 'INVALID_OPTION');
  return text;
}

/** --timeout: seconds, a positive number up to an hour. */
export function parseSeconds(flag: string, raw: unknown): number {
  const text = String(raw).trim();
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0) || n > 3600) throw new UsageError(`${flag} must be a number of seconds greater than 0 and at most 3600, not "${text.slice(0, 40)}"`, undefined, 'INVALID_OPTION');
  return n;
}
