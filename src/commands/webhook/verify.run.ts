import type { OptionsOf } from '../../command.js';
import { BodyTooLargeError, readCapped } from '../../input.js';
import type { verify } from './verify.js';
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Context } from '../../context.js';
import { CancelledError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { mapOrdered } from '../../concurrency.js';
import { writeList, writeRecord } from '../../output/writer.js';
import { renderVerdict, VERDICT_LIST, verdictJson, verdictRecord } from '../../webhooks/render.js';
import type { KeyStore } from '../../webhooks/jwks.js';
import { keyStoreFor } from '../../webhooks/source.js';
import { BATCH_LINES, needsRecheck, VerifyPool } from '../../webhooks/verify-pool.js';
import { MAX_WEBHOOK_BYTES, tooLargeVerdict, verifyWebhook, type Verdict } from '../../webhooks/verify.js';
import { countOf } from '../../text/count.js';

export type VerifyOptions = OptionsOf<typeof verify>;

const TOO_LARGE: unique symbol = Symbol('too large');

async function promptLine(ctx: Context): Promise<string> {
  ctx.io.stderr.write('Paste the webhook JWS: ');
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  let cancel = () => {};
  try {
    return await new Promise<string>((resolve, reject) => {
      // Ctrl-C or Ctrl-D at the paste prompt cancels, like every prompt: "Cancelled." on a line of its own, exit 130.
      cancel = () => {
        ctx.io.stderr.write('\n');
        reject(new CancelledError());
      };
      ctx.signal.addEventListener('abort', cancel, { once: true });
      rl.once('line', (line) => resolve(line));
      rl.once('close', cancel);
    });
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    rl.off('close', cancel);
    rl.close();
  }
}

async function readInput(opts: VerifyOptions, ctx: Context): Promise<string | Uint8Array | typeof TOO_LARGE> {
  if (opts.jws !== undefined && opts.jws !== '-') return opts.jws;
  if (ctx.io.stdinIsTTY) {
    if (!ctx.io.canPrompt) throw new UsageError('No JWS given', 'Pass it as an argument, use --file PATH (one per line), or pipe it on stdin.', 'MISSING_INPUT');
    const line = await promptLine(ctx);
    if (line.trim() === '') throw new UsageError('No JWS given', 'Paste the whole JWS on one line, or pass it as an argument.', 'MISSING_INPUT');
    return line;
  }
  // Over the limit is a TOO_LARGE verdict, and nothing more is read into memory.
  let body: Buffer | typeof TOO_LARGE;
  try {
    body = await readCapped(ctx.io.stdin, MAX_WEBHOOK_BYTES, { signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    body = TOO_LARGE;
  }
  if (body !== TOO_LARGE && Buffer.from(body).toString('utf8').trim() === '') {
    throw new UsageError('No JWS given (stdin is empty)', 'Pass it as an argument, use --file PATH (one per line), or pipe it on stdin.', 'MISSING_INPUT');
  }
  return body;
}

export async function run(opts: VerifyOptions, ctx: Context): Promise<number> {
  if (opts.file !== undefined) return runFile(opts, opts.file, ctx);
  const store = await keyStoreFor(ctx, opts.keys, { oneShot: true });
  // A missing or broken --jwks-file is a usage error (exit 2) whatever the input.
  if (opts.keys.jwksFile !== undefined) await store.current();
  const input = await readInput(opts, ctx);
  const verdict = input === TOO_LARGE ? tooLargeVerdict() : await verifyWebhook(input, store);
  await writeRecord(ctx.io, ctx.io.stdout, verdictJson(verdict), opts.out, { table: () => renderVerdict(verdict, ctx.colors) });
  return verdict.valid ? ExitCode.OK : ExitCode.VERIFICATION_FAILED;
}

/** JWS lines verified at once by --file on the main thread (verification runs on libuv's pool, so a few in flight use more than one core). */
const VERIFY_IN_FLIGHT = 8;
/** From this file size on, --file verifies on worker threads (one per core): below it, starting them costs more than it saves. */
const POOL_MIN_BYTES = 128 * 1024;

interface JwsLine {
  line: number;
  text: string;
}

/** The non-blank lines of the file with their numbers; Ctrl-C stops the reading. */
async function* jwsLines(path: string, signal: AbortSignal): AsyncGenerator<JwsLine> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  try {
    let line = 0;
    for await (const text of rl) {
      line++;
      if (signal.aborted) throw new InterruptedError();
      if (text.trim() !== '') yield { line, text };
    }
  } finally {
    rl.close();
  }
}

async function* batchesOf<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Verdicts in file order: up to VERIFY_IN_FLIGHT lines at once on the main thread. */
function verifyInline(lines: AsyncIterable<JwsLine>, store: KeyStore): AsyncIterable<{ line: number; verdict: Verdict }> {
  return mapOrdered(lines, VERIFY_IN_FLIGHT, async (l) => ({ line: l.line, verdict: await verifyWebhook(l.text, store) }));
}

/**
 * Verdicts in file order from the worker threads: batches of lines, two per
 * worker in flight so every core stays busy while the output catches up. A
 * line a worker could not settle with its copy of the key set (an unknown
 * kid: the set may have rotated), or every line of a worker that failed, is
 * verified again here, in order, where the key set can be refetched.
 */
async function* verifyOnPool(lines: AsyncIterable<JwsLine>, pool: VerifyPool, store: KeyStore, refetchable: boolean): AsyncGenerator<{ line: number; verdict: Verdict }> {
  const batches = mapOrdered(batchesOf(lines, BATCH_LINES), pool.size * 2, async (batch) => ({ batch, verdicts: await pool.verify(batch.map((b) => b.text)).catch(() => batch.map(() => null)) }));
  for await (const { batch, verdicts } of batches) {
    for (let i = 0; i < batch.length; i++) {
      const v = verdicts[i] ?? null;
      yield { line: batch[i]!.line, verdict: needsRecheck(v, refetchable) ? await verifyWebhook(batch[i]!.text, store) : v! };
    }
  }
}

async function runFile(opts: VerifyOptions, path: string, ctx: Context): Promise<number> {
  try {
    if (!statSync(path).isFile()) throw new UsageError(`--file ${path} is not a file`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read --file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, undefined, 'INPUT_FILE');
  }
  const store = await keyStoreFor(ctx, opts.keys, { oneShot: true });
  if (opts.keys.jwksFile !== undefined) await store.current();
  const output = opts.out;
  // A big file is verified on worker threads, one per core, with a copy of the key set.
  const pool = statSync(path).size >= POOL_MIN_BYTES ? VerifyPool.create(await store.current()) : undefined;
  if (pool) ctx.log.debug(`verifying on ${pool.size} worker threads`);
  let valid = 0;
  let invalid = 0;
  const reasons = new Map<string, number>();
  const summary = () => {
    const byReason = [...reasons].map(([r, n]) => `${r} ${n}`).join(', ');
    return `${countOf(valid + invalid, 'webhook')}: ${valid} valid, ${invalid} invalid${byReason ? ` (${byReason})` : ''}`;
  };
  // Opened only now: lines a readline interface emits before its iterator is taken (during an await above) are lost.
  const lines = jwsLines(path, ctx.signal);
  const verdicts = pool ? verifyOnPool(lines, pool, store, opts.keys.jwksFile === undefined) : verifyInline(lines, store);
  async function* records(): AsyncGenerator<Record<string, unknown>> {
    for await (const { line, verdict } of verdicts) {
      if (verdict.valid) valid++;
      else {
        invalid++;
        reasons.set(verdict.reason!, (reasons.get(verdict.reason!) ?? 0) + 1);
      }
      yield verdictRecord(line, verdict);
    }
  }
  const all = records();
  try {
    // The first verdict decides: a file with no JWS is a usage error, and stdout stays empty.
    const first = await all.next();
    if (first.done) throw new UsageError(`--file ${path} holds no JWS (one per line expected)`, 'Save one webhook body (the compact JWS) per line.', 'MISSING_INPUT');
    async function* everything() {
      yield first.value;
      yield* all;
    }
    // The summary is part of the table for people (its footer); for scripts it goes to stderr, leaving stdout pure data.
    await writeList(ctx.io, ctx.io.stdout, everything(), { ...VERDICT_LIST, footer: summary }, output);
  } finally {
    await all.return(undefined);
    await pool?.close();
  }
  if (output.format !== 'table' || output.quiet) ctx.log.info(summary());
  return invalid > 0 ? ExitCode.VERIFICATION_FAILED : ExitCode.OK;
}
