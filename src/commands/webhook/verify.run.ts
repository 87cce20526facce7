import type { OptionsOf } from '../../command.js';
import { BodyTooLargeError, readCapped } from '../../input.js';
import { CancelledError } from '../../errors.js';
import type { verify } from './verify.js';
import { outputOptions } from '../../output/options.js';
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { resolveFormat } from '../../output/format.js';
import { jsonText } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { writeJson, writeRecord } from '../../output/writer.js';
import { renderVerdict, verdictJson, verdictLine } from '../../webhooks/render.js';
import { keyStoreFor } from '../../webhooks/source.js';
import { BATCH_LINES, needsRecheck, VerifyPool } from '../../webhooks/verify-pool.js';
import { MAX_WEBHOOK_BYTES, tooLargeVerdict, verifyWebhook, type Verdict } from '../../webhooks/verify.js';

export type VerifyOptions = OptionsOf<typeof verify>;
type VerifyFormat = 'table' | 'json' | 'ndjson';

const TOO_LARGE: unique symbol = Symbol('too large');


async function promptLine(ctx: Context): Promise<string> {
  ctx.io.stderr.write('Paste the webhook JWS: ');
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  try {
    return await new Promise<string>((resolve, reject) => {
      // Ctrl-C or Ctrl-D at the paste prompt cancels, like every prompt: "Cancelled.", exit 130.
      const onAbort = () => reject(new CancelledError());
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      rl.once('line', (line) => resolve(line));
      rl.once('close', () => reject(new CancelledError()));
    });
  } finally {
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
  const format = outputOptions(opts, ctx.io).format as VerifyFormat;
  if (opts.file !== undefined) return runFile(opts, opts.file, format, ctx);
  const store = await keyStoreFor(ctx, opts.keys);
  // A missing or broken --jwks-file is a usage error (exit 2) whatever the input.
  if (opts.keys.jwksFile !== undefined) await store.current();
  const input = await readInput(opts, ctx);
  const verdict = input === TOO_LARGE ? tooLargeVerdict() : await verifyWebhook(input, store);
  await writeRecord(ctx.io, ctx.io.stdout, verdictJson(verdict), outputOptions(opts, ctx.io), { table: () => renderVerdict(verdict, ctx.colors) });
  return verdict.valid ? ExitCode.OK : ExitCode.VERIFICATION_FAILED;
}

/** JWS lines verified at once by --file. */
const VERIFY_IN_FLIGHT = 8;
/** From this file size on, --file verifies on worker threads (one per core): below it, starting them costs more than it saves. */
const POOL_MIN_BYTES = 128 * 1024;

async function runFile(opts: VerifyOptions, path: string, format: VerifyFormat, ctx: Context): Promise<number> {
  try {
    if (!statSync(path).isFile()) throw new UsageError(`--file ${path} is not a file`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read --file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, undefined, 'INPUT_FILE');
  }
  const store = await keyStoreFor(ctx, opts.keys);
  if (opts.keys.jwksFile !== undefined) await store.current();
  const out = ctx.io.stdout;
  let lineNo = 0;
  let valid = 0;
  let invalid = 0;
  const reasons = new Map<string, number>();
  const emit = async (line: number, verdict: Verdict) => {
    if (verdict.valid) valid++;
    else {
      invalid++;
      reasons.set(verdict.reason!, (reasons.get(verdict.reason!) ?? 0) + 1);
    }
    if (format === 'table') await writeChunk(out, verdictLine(verdict, ctx.colors, `line ${String(line).padEnd(5)} `));
    else {
      const doc = jsonText({ line, ...verdictJson(verdict) });
      if (format === 'ndjson') await writeChunk(out, `${doc}\n`);
      // The opening bracket waits for the first verdict: a file with no JWS leaves stdout empty.
      else await writeChunk(out, `${valid + invalid === 1 ? '[\n' : ',\n'}  ${doc}`);
    }
  };
  // A big file is verified on worker threads, one per core, with a copy of the key set.
  const pool = statSync(path).size >= POOL_MIN_BYTES ? VerifyPool.create(await store.current()) : undefined;
  const refetchable = opts.keys.jwksFile === undefined;
  // Opened only now: lines a readline interface emits before its iterator is taken (during an await above) are lost.
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  try {
    if (pool) {
      ctx.log.debug(`verifying on ${pool.size} worker threads`);
      type Item = { line: number; text: string };
      let batch: Item[] = [];
      const inflight: { items: Item[]; verdicts: Promise<(Verdict | null)[]> }[] = [];
      const send = () => {
        const verdicts = pool.verify(batch.map((b) => b.text));
        verdicts.catch(() => undefined); // awaited in order below
        inflight.push({ items: batch, verdicts });
        batch = [];
      };
      const drain = async () => {
        const b = inflight.shift()!;
        // A worker that failed leaves its lines to the main thread: nothing is skipped.
        const verdicts = await b.verdicts.catch(() => b.items.map(() => null));
        for (let i = 0; i < b.items.length; i++) {
          let v = verdicts[i] ?? null;
          if (needsRecheck(v, refetchable)) v = await verifyWebhook(b.items[i]!.text, store);
          await emit(b.items[i]!.line, v!);
        }
      };
      for await (const line of rl) {
        lineNo++;
        if (ctx.signal.aborted) throw new InterruptedError();
        if (line.trim() === '') continue;
        batch.push({ line: lineNo, text: line });
        if (batch.length >= BATCH_LINES) {
          send();
          // Two batches per worker keep every core busy while the output catches up.
          if (inflight.length >= pool.size * 2) await drain();
        }
      }
      if (batch.length > 0) send();
      while (inflight.length > 0) await drain();
    } else {
      // Verification runs on libuv's thread pool, so a few lines in flight use
      // more than one core; results are still printed in file order.
      const pending: { line: number; verdict: Promise<Verdict> }[] = [];
      const next = async () => {
        const p = pending.shift()!;
        await emit(p.line, await p.verdict);
      };
      for await (const line of rl) {
        lineNo++;
        if (ctx.signal.aborted) throw new InterruptedError();
        if (line.trim() === '') continue;
        const verdict = verifyWebhook(line, store);
        verdict.catch(() => undefined); // awaited in order by next(); avoid an unhandled rejection meanwhile
        pending.push({ line: lineNo, verdict });
        if (pending.length >= VERIFY_IN_FLIGHT) await next();
      }
      while (pending.length > 0) await next();
    }
  } finally {
    rl.close();
    await pool?.close();
  }
  const total = valid + invalid;
  if (total === 0) throw new UsageError(`--file ${path} holds no JWS (one per line expected)`, 'Save one webhook body (the compact JWS) per line.', 'MISSING_INPUT');
  if (format === 'json') await writeChunk(out, '\n]\n');
  const byReason = [...reasons].map(([r, n]) => `${r} ${n}`).join(', ');
  const summary = `${total} webhook${total === 1 ? '' : 's'}: ${valid} valid, ${invalid} invalid${byReason ? ` (${byReason})` : ''}\n`;
  // The summary is part of the result for people; for scripts it goes to stderr, leaving stdout pure JSON.
  if (format === 'table') await writeChunk(out, summary);
  else ctx.io.stderr.write(summary);
  return invalid > 0 ? ExitCode.VERIFICATION_FAILED : ExitCode.OK;
}
