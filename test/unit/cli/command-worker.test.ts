// The main thread's side of a command run on a worker thread (src/command-worker.ts
// runOnThread), against a worker of the test's own: what it is told (the
// arguments, stop signals), the writes it asks for and their acknowledgements,
// and the exit code it ends with. The real thread is export-worker.test.ts's.
import { EventEmitter, getEventListeners } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runOnThread } from '../../../src/command-worker.js';
import { InterruptedError } from '../../../src/errors.js';
import { testIO, type IO } from '../../../src/io.js';

/** A worker that records what it is told; `exit(code)` ends it as a thread would. */
class FakeWorker extends EventEmitter {
  readonly told: unknown[] = [];
  refs = 0;
  ref(): void {
    this.refs++;
  }
  postMessage(message: unknown): void {
    this.told.push(message);
  }
  exit(code: number): void {
    this.emit('exit', code);
  }
}

type Go = Parameters<typeof runOnThread>[1];
const go = (argv: string[]): Go => ({ go: { argv, io: {} as Go['go']['io'] } });
const turn = () => new Promise((r) => setImmediate(r));

function start(io: IO = testIO(), signal = new AbortController().signal) {
  const worker = new FakeWorker();
  const done = runOnThread(worker as unknown as Parameters<typeof runOnThread>[0], go(['employees', 'list', '--all']), io, signal);
  return { worker, done };
}

describe('runOnThread', () => {
  it('tells the worker what to run, holds the process for it, and ends with its exit code, leaving no listener on the signal', async () => {
    const ctrl = new AbortController();
    const { worker, done } = start(testIO(), ctrl.signal);
    expect(worker.refs).toBe(1);
    expect(worker.told).toEqual([go(['employees', 'list', '--all'])]);
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
    worker.exit(3);
    expect(await done).toBe(3);
    // The CLI's one Ctrl-C signal outlives the command.
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
  });

  it('stopped before the worker was told (Ctrl-C while the main thread parsed): the signal follows the arguments at once', async () => {
    const ctrl = new AbortController();
    ctrl.abort(new InterruptedError('Interrupted', 'INTERRUPTED', 'SIGTERM'));
    const { worker, done } = start(testIO(), ctrl.signal);
    expect(worker.told).toEqual([go(['employees', 'list', '--all']), { signal: 'SIGTERM' }]);
    worker.exit(130);
    expect(await done).toBe(130);
  });

  it('passes a stop signal on while it runs (SIGINT when none is named), nothing for another reason, and leaves no listener', async () => {
    const ctrl = new AbortController();
    const { worker, done } = start(testIO(), ctrl.signal);
    ctrl.abort(new InterruptedError());
    expect(worker.told.slice(1)).toEqual([{ signal: 'SIGINT' }]);
    worker.exit(130);
    expect(await done).toBe(130);

    const other = new AbortController();
    const second = start(testIO(), other.signal);
    other.abort(new Error('stdout failed'));
    expect(second.worker.told).toHaveLength(1);
    second.worker.exit(1);
    expect(await second.done).toBe(1);
  });

  it('writes what the worker sends to stdout and stderr, in order, and acknowledges each message once taken', async () => {
    const io = testIO();
    const { worker, done } = start(io);
    worker.emit('message', { id: 7, fd: 1, chunks: ['id,name\n', Buffer.from('1,Ana\n')] });
    worker.emit('message', { id: 8, fd: 2, chunks: ['Wrote 1 employee\n'] });
    worker.emit('message', { id: 9, fd: 1, chunks: [] });
    await turn();
    expect(io.out()).toBe('id,name\n1,Ana\n');
    expect(io.err()).toBe('Wrote 1 employee\n');
    expect(worker.told.slice(1)).toEqual([{ ack: 9 }, { ack: 7 }, { ack: 8 }]);
    worker.exit(0);
    expect(await done).toBe(0);
  });

  it("a write the main stream refused is acknowledged with that stream's error", async () => {
    const full = new Writable({ write: (_chunk, _enc, cb) => cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' })) });
    full.on('error', () => undefined);
    const io = { ...testIO(), stdout: full };
    const { worker, done } = start(io);
    worker.emit('message', { id: 1, fd: 1, chunks: ['a', 'b'] });
    await turn();
    expect(worker.told.slice(1)).toEqual([{ ack: 1, error: { message: 'ENOSPC: no space left on device, write', code: 'ENOSPC', errno: -28, syscall: 'write' } }]);
    worker.exit(1);
    expect(await done).toBe(1);
  });

  it("fails with the worker's own error (a crash)", async () => {
    const { worker, done } = start();
    worker.emit('error', new Error('worker crashed'));
    await expect(done).rejects.toThrow('worker crashed');
  });
});
