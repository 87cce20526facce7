// readAnswer gathers a body into buffers it keeps for the next answers
// (answer-reader.ts: a chunk held until its answer ended was promoted, and its
// memory waited for a full collection). A transport of the test's own hands
// the handler exactly the chunks each test names, a turn of the event loop
// apart, as a socket would.
import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { keptSizes, readAnswer, type Answer } from '../../../src/api/answer-reader.js';
import { BodyTooLargeError } from '../../../src/input.js';
import { Deadline, type RequestStop } from '../../../src/api/deadline.js';
import type { AnswerHandler, Controller, RequestOptions, Transport } from '../../../src/api/transport.js';

const MiB = 1024 * 1024;

/**
 * A transport whose one answer is `chunks`, with `headers`; `aborted` says whether the reader stopped it.
 * `deaf`: it goes on to the end after an abort (a chunk already on its way); `finished` then resolves.
 */
function answering(chunks: Buffer[], headers: Record<string, string> = {}, deaf = false) {
  let finish!: () => void;
  const state = { aborted: false, dispatched: 0, finished: new Promise<void>((r) => (finish = r)) };
  const controller = { abort: () => (state.aborted = true), pause: () => undefined, resume: () => undefined, aborted: false, paused: false, reason: null } as unknown as Controller;
  const transport = {
    dispatch(_options: RequestOptions, handler: AnswerHandler) {
      state.dispatched++;
      void (async () => {
        handler.onRequestStart?.(controller);
        await turn();
        handler.onResponseStart?.(controller, 200, headers);
        for (const chunk of chunks) {
          await turn();
          if (state.aborted && !deaf) return;
          handler.onResponseData?.(controller, chunk);
        }
        await turn();
        if (!state.aborted || deaf) handler.onResponseEnd?.(controller);
      })()
        // A handler that throws fails the answer at once, not after the test's timeout.
        .catch((err: Error) => handler.onResponseError?.(controller, err))
        .finally(finish);
      return true;
    },
  } as unknown as Transport;
  return { transport, state };
}

function read(transport: Transport, maxBytes = 16 * MiB): Promise<Answer> {
  return readAnswer(transport, { method: 'GET', origin: 'http://127.0.0.1:1', path: '/x' } as RequestOptions, { maxBytes, stop: { aborted: false, reason: undefined } });
}

/** `n` bytes of a pattern that differs at every offset (mod 251), starting from `seed`. */
function bytes(n: number, seed = 0): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (i + seed) % 251;
  return b;
}

function cut(b: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < b.length; at += size) out.push(b.subarray(at, at + size));
  return out;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// In order: the module's kept buffers are shared by the tests of this file.
describe('readAnswer', () => {
  it('takes the buffer at the declared length, gathers every chunk exactly, and keeps it once released', async () => {
    expect(keptSizes().length).toBe(0);
    const body = bytes(300_000);
    const { transport } = answering(cut(body, 40_000), { 'content-length': '300000' });
    const answer = await read(transport);
    expect(sha(answer.body)).toBe(sha(body));
    expect(answer.body.length).toBe(300_000);
    // 300,000 bytes in 64 KiB steps: one buffer of five steps, not doubled from the first chunk's (64, 128, 256, 512 KiB).
    expect(answer.body.buffer.byteLength).toBe(5 * 64 * 1024);
    expect(keptSizes().length).toBe(0);
    answer.release();
    expect(keptSizes().length).toBe(1);
    // Released twice, kept once: a buffer kept twice would be handed to two answers at once.
    answer.release();
    expect(keptSizes().length).toBe(1);
  });

  it('grows without a declared length, and the next answer reuses a kept buffer with nothing of the last one', async () => {
    const long = bytes(500_000, 7);
    const first = await read(answering(cut(long, 65_536)).transport);
    expect(sha(first.body)).toBe(sha(long));
    // Outgrown, it doubled: the kept 320 KiB to 640 KiB, not a step at a time.
    expect(first.body.buffer.byteLength).toBe(10 * 64 * 1024);
    // The kept buffer (320 KiB) was too small to finish in: it was taken, outgrown and kept again, with the one it outgrew.
    first.release();
    const kept = keptSizes().length;
    const short = bytes(1000, 99);
    const second = await read(answering([short]).transport);
    expect(keptSizes().length).toBe(kept - 1);
    expect(second.body.length).toBe(1000);
    expect(sha(second.body)).toBe(sha(short));
    second.release();
    expect(keptSizes().length).toBe(kept);
  });

  it('takes a kept buffer of exactly the size needed, wherever it is among the kept', async () => {
    // Kept from the tests before: 320 KiB, then 640 KiB (looked through from the end).
    const [small, large] = keptSizes();
    expect(keptSizes()).toEqual([5 * 64 * 1024, 10 * 64 * 1024]);
    // Exactly the size of the last one: it is taken.
    const exact = await read(answering(cut(bytes(large!, 3), 100_000), { 'content-length': String(large) }).transport);
    expect(exact.body.buffer.byteLength).toBe(large);
    expect(keptSizes()).toEqual([small]);
    // With the 640 KiB still held, the first of the list is the one that fits.
    const first = await read(answering([bytes(300_000, 4)], { 'content-length': '300000' }).transport);
    expect(first.body.buffer.byteLength).toBe(small);
    expect(keptSizes()).toEqual([]);
    exact.release();
    first.release();
    expect(keptSizes()).toEqual([large, small]);
  });

  it('a body that fills its buffer exactly stays in it', async () => {
    const fill = 1024 * 1024;
    const whole = await read(answering(cut(bytes(fill, 9), 100_000), { 'content-length': String(fill) }).transport);
    expect(whole.body.buffer.byteLength).toBe(fill);
    expect(sha(whole.body)).toBe(sha(bytes(fill, 9)));
    // 1 MiB is kept; a buffer over it is not, even with room among the kept.
    const room = keptSizes().length;
    whole.release();
    expect(keptSizes().length).toBe(room + 1);
    const over = await read(answering(cut(bytes(fill + 1), 200_000)).transport);
    over.release();
    expect(keptSizes().length).toBe(room + 1);
  });

  it('a declared length past 1 MiB reserves 1 MiB and grows as the body comes', async () => {
    const body = bytes(1_500_000, 6);
    const { transport } = answering(cut(body, 100_000), { 'content-length': '1500000' });
    const answer = await read(transport);
    expect(sha(answer.body)).toBe(sha(body));
    // 1 MiB first, doubled once when outgrown (taken at the claimed 1.5 MB, it would be 23 steps of 64 KiB).
    expect(answer.body.buffer.byteLength).toBe(2 * 1024 * 1024);
    answer.release();
  });

  it('keeps at most 16 buffers, none over 1 MiB', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 20; i++) answers.push(await read(answering([bytes(10, i)]).transport));
    expect(answers.map((a) => a.body[0])).toEqual(Array.from({ length: 20 }, (_, i) => i % 251));
    for (const a of answers) a.release();
    expect(keptSizes().length).toBe(16);
    const big = await read(answering(cut(bytes(2 * MiB), MiB)).transport);
    expect(big.body.length).toBe(2 * MiB);
    big.release();
    expect(keptSizes().length).toBe(16);
  });

  it('an answer over the cap fails, stops the transport, and gives its buffer back', async () => {
    const before = keptSizes().length;
    // The transport hands on the chunks already on their way after the abort, and the end.
    const { transport, state } = answering([bytes(70_000), bytes(70_000), bytes(70_000)], {}, true);
    const err = await read(transport, 100_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect(state.aborted).toBe(true);
    await state.finished;
    // It took a kept buffer for its first chunk and gave it back on failing; what came after took none.
    expect(keptSizes().length).toBe(before);
  });

  it('without a declared length, the first buffer is the first chunk in 64 KiB steps', async () => {
    const answer = await read(answering([bytes(100)], {}).transport);
    expect(answer.body.length).toBe(100);
    expect(answer.body.buffer.byteLength).toBeGreaterThanOrEqual(64 * 1024);
    answer.release();
  });

  it('stopped by its signal mid-body: rejects with the reason, and chunks still arriving take no buffer', async () => {
    const before = keptSizes().length;
    const { transport, state } = answering([bytes(1000), bytes(1000), bytes(1000), bytes(1000)], {}, true);
    const controller = new AbortController();
    const deadline = new Deadline(60_000, [controller.signal]);
    const reading = readAnswer(transport, { method: 'GET', origin: 'http://127.0.0.1:1', path: '/x' } as RequestOptions, {
      maxBytes: 100_000,
      stop: deadline,
      onHeaders: () => setImmediate(() => setImmediate(() => controller.abort(new Error('Ctrl-C')))),
    });
    expect(((await reading.catch((e: unknown) => e)) as Error).message).toBe('Ctrl-C');
    deadline.dispose();
    // It stopped listening when it settled: the deadline holds nothing of it.
    expect(deadline.onEnd).toBeUndefined();
    expect(state.aborted).toBe(true);
    await state.finished;
    expect(keptSizes().length).toBe(before);
  });

  it('cut off by the transport mid-body: rejects with its error, gives the buffer back, and stops listening to its stop', async () => {
    const before = keptSizes().length;
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const transport = {
      dispatch(_options: RequestOptions, handler: AnswerHandler) {
        const controller = { abort: () => undefined } as unknown as Controller;
        void (async () => {
          handler.onRequestStart?.(controller);
          await turn();
          handler.onResponseStart?.(controller, 200, {});
          handler.onResponseData?.(controller, bytes(1000));
          await turn();
          // Taken from the kept ones while the body comes.
          expect(keptSizes().length).toBe(before - 1);
          handler.onResponseError?.(controller, reset);
        })();
        return true;
      },
    } as unknown as Transport;
    const stop: RequestStop = { aborted: false, reason: undefined };
    const err = await readAnswer(transport, { method: 'GET', origin: 'http://127.0.0.1:1', path: '/x' } as RequestOptions, { maxBytes: 100_000, stop }).catch((e: unknown) => e);
    expect(err).toBe(reset);
    expect(keptSizes().length).toBe(before);
    expect(stop.onEnd).toBeUndefined();
  });

  it('a declared length of exactly the cap is read; a signal already aborted sends nothing', async () => {
    const { transport } = answering([bytes(1000)], { 'content-length': '1000' });
    const answer = await read(transport, 1000);
    expect(answer.body.length).toBe(1000);
    answer.release();
    const stopped = answering([bytes(10)]);
    const err = await readAnswer(stopped.transport, { method: 'GET', origin: 'http://127.0.0.1:1', path: '/x' } as RequestOptions, { maxBytes: 100, stop: { aborted: true, reason: new Error('stopped before') } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('stopped before');
    expect(stopped.state.dispatched).toBe(0);
  });

  it('an empty answer is an empty body', async () => {
    const answer = await read(answering([]).transport);
    expect(answer.body.length).toBe(0);
    answer.release();
  });
});
