// stdout on a file or a device (io.ts, FileOutput): short writes finished,
// failures kept on the stream for the entry point (outputFailure), and
// writeChunk failing with OutputWriteError rather than "output closed".
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileOutput, outputFailure, outputFlushed } from '../../../src/io.js';
import { OutputClosedError, OutputWriteError } from '../../../src/errors.js';
import { writeChunk } from '../../../src/output/stream.js';
import { tempDir } from '../../helpers/cli.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

describe('FileOutput', () => {
  it('writes every byte, in order, before write() returns', () => {
    const path = join(dir.path, 'out.txt');
    const fd = openSync(path, 'w');
    const out = new FileOutput(fd);
    const big = 'x'.repeat(3 * 1024 * 1024);
    out.write('head\n');
    out.write(big);
    out.write('tail\n');
    expect(readFileSync(path, 'utf8')).toBe(`head\n${big}tail\n`);
    expect(outputFailure(out)).toBeUndefined();
    closeSync(fd);
  });

  it('/dev/full: the failure is kept on the stream (ENOSPC), never thrown as an unhandled error', async () => {
    const fd = openSync('/dev/full', 'w');
    const out = new FileOutput(fd);
    out.on('error', () => undefined);
    out.write('some output\n');
    const failed = outputFailure(out);
    expect(failed).toBeInstanceOf(OutputWriteError);
    expect(failed!.code).toBe('OUTPUT_WRITE');
    expect(failed!.exitCode).toBe(1);
    expect(failed!.message).toBe('Could not write the output to stdout: ENOSPC (no space left on the device); what was written is incomplete');
    await outputFlushed(out);
    closeSync(fd);
  });

  it('writeChunk on a failed stdout rejects with OutputWriteError, not OutputClosedError', async () => {
    const fd = openSync('/dev/full', 'w');
    const out = new FileOutput(fd);
    out.on('error', () => undefined);
    await expect(writeChunk(out, 'a row\n')).rejects.toBeInstanceOf(OutputWriteError);
    await expect(writeChunk(out, 'the next row\n')).rejects.toBeInstanceOf(OutputWriteError);
    closeSync(fd);
  });
});

describe('outputFailure', () => {
  it('a reader that went away (EPIPE) is not a failure; writeChunk says the output closed', async () => {
    const out = new PassThrough();
    out.on('error', () => undefined);
    out.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(outputFailure(out)).toBeUndefined();
    await expect(writeChunk(out, 'x')).rejects.toBeInstanceOf(OutputClosedError);
  });

  it('EFBIG names the file-size limit', () => {
    const out = new PassThrough();
    out.on('error', () => undefined);
    out.destroy(Object.assign(new Error('write EFBIG'), { code: 'EFBIG' }));
    expect(outputFailure(out)?.message).toMatch(/EFBIG \(the file-size limit was reached, see `ulimit -f`\)/);
  });
});

describe('outputFlushed', () => {
  it('waits for a short write still in flight, which ends with no drain (a slow pipe, a worker thread)', async () => {
    const done: string[] = [];
    const slow = new Writable({
      write(chunk: Buffer, _enc, cb) {
        setTimeout(() => {
          done.push(chunk.toString());
          cb();
        }, 30);
      },
    });
    // Below the high-water mark: write() says go on, so no 'drain' will follow.
    expect(slow.write('last row\n')).toBe(true);
    const timeout = new Promise<string>((r) => setTimeout(() => r('still waiting after 2 s'), 2000).unref());
    const flushed = outputFlushed(slow).then(() => 'flushed');
    expect(await Promise.race([flushed, timeout])).toBe('flushed');
    expect(done).toEqual(['last row\n', '']);
  });

  it('ends when a write in flight fails (the reader left)', async () => {
    const failing = new Writable({ write: (_c, _e, cb) => setTimeout(() => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })), 30) });
    failing.on('error', () => undefined);
    failing.write('x');
    const timeout = new Promise<string>((r) => setTimeout(() => r('still waiting after 2 s'), 2000).unref());
    expect(await Promise.race([outputFlushed(failing).then(() => 'ended'), timeout])).toBe('ended');
    expect(outputFailure(failing)).toBeUndefined();
    expect(failing.errored).toMatchObject({ code: 'EPIPE' });
  });
});
