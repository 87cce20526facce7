// Calendar days as integers (UTC), the sandbox's frozen today and ages.

/** The sandbox's frozen "today": ages, end dates and notice dates derive from it. */
export const SANDBOX_TODAY = '2025-06-30';


const DAY_MS = 86_400_000;
export function isoToDay(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}
export function dayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
export const TODAY_DAY = isoToDay(SANDBOX_TODAY);

export function ageOn(dobIso: string, onIso: string = SANDBOX_TODAY): number {
  const [by, bm, bd] = dobIso.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = onIso.split('-').map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age--;
  return age;
}
