import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionLimits, Deadline } from '../../../src/api/deadline.js';

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

  it('tells its one listener once, with the first reason, and a signal asked for later is already aborted with it', () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const d = new Deadline(1000, [stop.signal]);
    const told: unknown[] = [];
    d.onEnd = (reason) => told.push(reason);
    expect(d.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(d.aborted).toBe(true);
    expect(d.reason).toEqual(new Error('deadline'));
    // A stop after the deadline changes nothing: ended once.
    stop.abort(new Error('Ctrl-C'));
    expect(told).toEqual([new Error('deadline')]);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBe(d.reason);
    d.dispose();
  });

  it('gives one signal, made when first asked for: a listener added to it hears the end', () => {
    vi.useFakeTimers();
    const d = new Deadline(1000);
    const signal = d.signal;
    expect(d.signal).toBe(signal);
    let heard = 0;
    signal.addEventListener('abort', () => heard++);
    vi.advanceTimersByTime(1000);
    expect(heard).toBe(1);
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

describe('Deadline: one listener per stop signal', () => {
  it('fifty requests in flight on one signal add one listener to it, removed when the last is disposed', () => {
    const stop = new AbortController();
    const other = new AbortController();
    const ds = Array.from({ length: 50 }, () => new Deadline(60_000, [stop.signal, other.signal, stop.signal]));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(1);
    for (const d of ds.slice(0, 49)) d.dispose();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    ds[49]!.dispose();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('the one listener stops every deadline still in flight, and none that was disposed', () => {
    const stop = new AbortController();
    const gone = new Deadline(60_000, [stop.signal]);
    gone.dispose();
    const live = Array.from({ length: 12 }, () => new Deadline(60_000, [stop.signal]));
    const reason = new Error('Ctrl-C');
    stop.abort(reason);
    expect(live.every((d) => d.signal.aborted && d.signal.reason === reason && d.stopped)).toBe(true);
    expect(gone.signal.aborted).toBe(false);
    for (const d of live) d.dispose();
    // A new deadline on the aborted signal starts aborted, and listens to nothing.
    const late = new Deadline(60_000, [stop.signal]);
    expect(late.signal.aborted).toBe(true);
    late.dispose();
  });
});

describe('connectionLimits', () => {
  it('connects within 10 s, or within the whole time limit when it is shorter', () => {
    expect(connectionLimits(60_000)).toEqual({ keepAliveTimeout: 10_000, connectTimeout: 10_000 });
    expect(connectionLimits(2_000)).toEqual({ keepAliveTimeout: 10_000, connectTimeout: 2_000 });
  });
});
