import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../../src/api/deadline.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Deadline', () => {
  it('aborts its signal when the time is up, and says it expired', () => {
    vi.useFakeTimers();
    const d = new Deadline(1000);
    vi.advanceTimersByTime(999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toEqual(new Error('deadline'));
    expect(d.expired).toBe(true);
    expect(d.stopped).toBe(false);
  });

  it('aborts its signal when a stop aborts, with the stop reason, without expiring', () => {
    const stop = new AbortController();
    const d = new Deadline(60_000, [undefined, stop.signal]);
    expect(d.signal.aborted).toBe(false);
    const reason = new Error('Ctrl-C');
    stop.abort(reason);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBe(reason);
    expect(d.stopped).toBe(true);
    expect(d.expired).toBe(false);
    d.dispose();
  });

  it('starts aborted when a stop already is', () => {
    const stop = new AbortController();
    stop.abort(new Error('gone'));
    const d = new Deadline(60_000, [stop.signal]);
    expect(d.signal.aborted).toBe(true);
    expect(d.stopped).toBe(true);
    d.dispose();
  });

  it('is paused by stop() and given the whole time again by start()', () => {
    vi.useFakeTimers();
    const d = new Deadline(1000);
    vi.advanceTimersByTime(900);
    d.stop();
    vi.advanceTimersByTime(5000);
    expect(d.signal.aborted).toBe(false);
    d.start();
    vi.advanceTimersByTime(999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.expired).toBe(true);
  });

  it('once disposed, neither the timer nor the stops abort it (no listener is left on a long-lived signal)', () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const d = new Deadline(1000, [stop.signal]);
    d.dispose();
    vi.advanceTimersByTime(2000);
    stop.abort();
    expect(d.signal.aborted).toBe(false);
    expect(d.expired).toBe(false);
  });
});
