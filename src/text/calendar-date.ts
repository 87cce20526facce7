// What is wrong with a date a person typed: its form (YYYY-MM-DD), or a
// month or day the calendar does not have. "1990-13-01" has the right form;
// saying so would send the person looking for a typo that is not there.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Undefined for a real calendar date (YYYY-MM-DD); else the words after the field's name. */
export function dateProblem(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return 'must be a date (YYYY-MM-DD)';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `has no month ${m[2]} (months run from 01 to 12)`;
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `has no day ${m[3]}: ${MONTHS[month - 1]} ${m[1]} has ${days} days`;
  return undefined;
}

function daysIn(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (proleptic Gregorian, UTC: no zone shifts it).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
