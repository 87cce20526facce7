import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockTime, whenAgo } from '../../../src/text/when.js';

// A zone off UTC by a half hour: a UTC stamp read as local time shows.
let tz: string | undefined;
beforeAll(() => {
  tz = process.env.TZ;
  process.env.TZ = 'Asia/Kolkata';
});
afterAll(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});

const NOW = Date.parse('2026-11-28T00:24:30.000Z'); // 05:54:30 in Kolkata

describe('clockTime', () => {
  it('is the local time of day in 8 columns', () => {
    expect(clockTime('2026-11-28T00:21:17.711Z')).toBe('05:51:17');
    expect(clockTime('2026-11-27T18:30:00.000Z')).toBe('00:00:00');
    expect(clockTime('2026-11-28T00:21:17.711Z')).toHaveLength(8);
  });
  it('leaves text that is not a time as it is', () => {
    expect(clockTime('later')).toBe('later');
  });
});

describe('whenAgo', () => {
  it('says how long ago, then the local time (the date once it is not today)', () => {
    expect(whenAgo('2026-11-28T00:24:10.000Z', NOW)).toBe('just now, 05:54');
    expect(whenAgo('2026-11-28T00:21:17.711Z', NOW)).toBe('3 min ago, 05:51');
    expect(whenAgo('2026-11-27T19:02:00.000Z', NOW)).toBe('5 h ago, 00:32');
    expect(whenAgo('2026-11-27T18:29:00.000Z', NOW)).toBe('5 h ago, 2026-11-27 23:59');
    expect(whenAgo('2026-11-26T00:00:00.000Z', NOW)).toBe('2 days ago, 2026-11-26 05:30');
    expect(whenAgo('2026-11-27T00:00:00.000Z', NOW)).toBe('1 day ago, 2026-11-27 05:30');
  });
  it('a time ahead of the clock reads "in …"; text that is not a time is kept', () => {
    expect(whenAgo('2026-11-28T00:34:30.000Z', NOW)).toBe('in 10 min, 06:04');
    expect(whenAgo('garbage', NOW)).toBe('garbage');
  });
});
