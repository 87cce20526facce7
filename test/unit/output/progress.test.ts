import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, duration, Progress } from '../../../src/output/progress.js';

function fakeStderr() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join(''), writes: () => chunks.length };
}

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createProgress', () => {
  it('gives nothing when stderr is not a terminal', () => {
    const err = fakeStderr();
    expect(createProgress({ stderr: err.stream, stderrIsTTY: false }, true)).toBeUndefined();
  });

  it('gives nothing with --no-progress, even on a terminal', () => {
    const err = fakeStderr();
    expect(createProgress({ stderr: err.stream, stderrIsTTY: true }, false)).toBeUndefined();
  });

  it('gives a bar on a terminal', () => {
    const err = fakeStderr();
    expect(createProgress({ stderr: err.stream, stderrIsTTY: true, stderrColumns: 100 }, true)).toBeInstanceOf(Progress);
  });
});

describe('Progress', () => {
  it('shows pages, employees, rate and time left', async () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 200, now: t.now });
    t.advance(2000);
    p.update({ pages: 50, totalPages: 200, items: 5000, totalItems: 20000 });
    await new Promise((r) => setImmediate(r));
    const line = err.text();
    expect(line.startsWith('\r\x1b[2K')).toBe(true);
    expect(line).toContain('50/200 pages');
    expect(line).toContain('5,000/20,000 employees');
    expect(line).toContain('2,500/s');
    expect(line).toContain('0:06 left');
    expect(line).toContain(' 25%');
    expect(line).not.toContain('\n');
  });

  it('draws nothing before delayMs, not even the last page, then draws as usual', async () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 120, now: t.now, delayMs: 500 });
    t.advance(499);
    p.update({ pages: 1, totalPages: 2, items: 100, totalItems: 200 });
    p.update({ pages: 2, totalPages: 2, items: 200, totalItems: 200 });
    p.done();
    await new Promise((r) => setImmediate(r));
    expect(err.writes()).toBe(0);
    const q = new Progress({ stream: err.stream, columns: 120, now: t.now, delayMs: 500 });
    t.advance(500);
    q.update({ pages: 1, totalPages: 2, items: 100, totalItems: 200 });
    await new Promise((r) => setImmediate(r));
    expect(err.text()).toContain('1/2 pages');
  });

  it('redraws at most every 100 ms, but always draws the last page', async () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 120, now: t.now });
    for (let i = 1; i <= 99; i++) {
      t.advance(5); // 20 updates per 100 ms
      p.update({ pages: i, totalPages: 100, items: i * 10, totalItems: 1000 });
    }
    t.advance(5);
    p.update({ pages: 100, totalPages: 100, items: 1000, totalItems: 1000 });
    await new Promise((r) => setImmediate(r));
    // 500 ms of updates: one draw per 100 ms (5) plus the final page.
    expect(err.writes()).toBeLessThanOrEqual(7);
    expect(err.text()).toContain('100/100 pages');
  });

  it('fits the terminal width without wrapping', () => {
    const t = clock();
    const p = new Progress({ stream: new PassThrough(), columns: 40, now: t.now });
    t.advance(1000);
    p.update({ pages: 1, totalPages: 2000, items: 100, totalItems: 200000 });
    expect(p.render().length).toBeLessThan(40);
  });

  it('erases itself when done and stays silent afterwards', async () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 120, now: t.now });
    p.update({ pages: 1, totalPages: 3, items: 10, totalItems: 30 });
    p.done();
    p.update({ pages: 2, totalPages: 3, items: 20, totalItems: 30 });
    p.done();
    await new Promise((r) => setImmediate(r));
    expect(err.text().endsWith('\r\x1b[2K')).toBe(true);
    expect(err.text()).not.toContain('2/3 pages');
  });

  it('writes nothing when done before any update', async () => {
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream });
    p.done();
    await new Promise((r) => setImmediate(r));
    expect(err.text()).toBe('');
  });

  it('erases the bar before results written to the same terminal', async () => {
    const t = clock();
    const term = fakeStderr();
    const p = new Progress({ stream: term.stream, columns: 120, now: t.now });
    p.update({ pages: 1, totalPages: 3, items: 10, totalItems: 30 });
    const out = p.interleave(term.stream);
    await new Promise<void>((r) => out.write('row\n', () => r()));
    await new Promise((r) => setImmediate(r));
    expect(term.text()).toMatch(/employees · 0\/s\r\x1b\[2Krow\n$/);
  });
});

describe('duration', () => {
  it('formats m:ss and h:mm:ss', () => {
    expect(duration(0)).toBe('0:00');
    expect(duration(75)).toBe('1:15');
    expect(duration(3725)).toBe('1:02:05');
  });
});

describe('Progress of rows (bulk onboarding)', () => {
  it('shows rows done of total, created, failed and the time left by rows', () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 200, now: t.now, label: 'Onboarding', units: { pages: 'rows', items: 'created' }, etaBy: 'pages' });
    t.advance(10_000);
    p.update({ pages: 100, totalPages: 400, items: 98, note: '2 failed' });
    const first = p.render();
    expect(first).toBe('Onboarding [#####---------------]  25% · 100/400 rows · 98 created · 10/s · 2 failed · 0:30 left');
    p.update({ pages: 400, totalPages: 400, items: 398 });
    // Shorter figures (no ETA, no failures): padded to the earlier width, so nothing is left over on the line.
    expect(p.render().trimEnd()).toBe('Onboarding [####################] 100% · 400/400 rows · 398 created · 40/s');
    expect(p.render()).toHaveLength(first.length);
  });

  it('keeps its width from frame to frame while the figures grow', () => {
    const t = clock();
    const err = fakeStderr();
    const p = new Progress({ stream: err.stream, columns: 80, now: t.now, label: 'Onboarding', units: { pages: 'rows', items: 'created' }, etaBy: 'pages' });
    const widths = new Set<number>();
    for (const done of [1, 9, 10, 99, 100, 999, 1000, 2999]) {
      t.advance(1000);
      p.update({ pages: done, totalPages: 3000, items: done, note: done > 500 ? '1 failed' : undefined });
      const line = p.render();
      widths.add(line.length);
      expect(line).toMatch(new RegExp(`^Onboarding (\\[[#-]+\\] )? *\\d+% · +${done.toLocaleString('en-US')}/3,000 rows`));
    }
    expect([...widths].every((w) => w <= 79)).toBe(true);
    // The line never shrinks: a frame is never shorter than the one before (no leftover characters, no jump).
    const all = [...widths];
    expect(all).toEqual([...all].sort((a, b) => a - b));
  });
});
