// One request of the API client (http.ts) through the transport
// (transport.ts) with a handler that gathers the answer into kept buffers: no
// body stream, no async iteration over it. A lookup runs a few hundred
// requests in a process that lives a second, mostly before V8 has optimised
// anything, so the code run per request is what it costs.
import { BodyTooLargeError } from '../input.js';
import type { AnswerHandler, Controller, HttpTransport, RequestOptions } from './transport.js';
import type { RequestStop } from './deadline.js';

/** A whole answer: its status, headers and body bytes. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** Valid until `release()`: its memory then serves another answer. */
  body: Buffer;
  /** Gives the body's memory back for the next answer; `body` must not be read after it. */
  release(): void;
}

/**
 * Buffers the bodies are gathered in, kept for the next answers. The chunks
 * the socket hands over are copied as they come and dropped at once: held
 * until their answer ended, they outlived two of V8's minor collections
 * whenever other pages were parsed meanwhile, and a promoted buffer's memory
 * (outside the heap) is freed only by a full collection, which V8 lets wait
 * for 64 MB of it: a 200,000-employee export peaked 30 MB higher than a
 * 20,000 one for that alone (BENCHMARKS.md, memory). Kept buffers are live,
 * not garbage, and few: at most KEPT_BUFFERS of at most KEPT_BUFFER_BYTES.
 */
const KEPT_BUFFERS = 16;
const KEPT_BUFFER_BYTES = 1024 * 1024;
const BUFFER_STEP = 64 * 1024;
const kept: Buffer[] = [];

/** A buffer of at least `bytes`: a kept one, or a new one (a multiple of 64 KiB, never Node's shared pool). */
function takeBuffer(bytes: number): Buffer {
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i]!.length >= bytes) return kept.splice(i, 1)[0]!;
  }
  return Buffer.allocUnsafeSlow(Math.ceil(Math.max(bytes, 1) / BUFFER_STEP) * BUFFER_STEP);
}

function keepBuffer(buf: Buffer): void {
  if (buf.length <= KEPT_BUFFER_BYTES && kept.length < KEPT_BUFFERS) kept.push(buf);
}

/** The sizes of the kept buffers, in the order they are looked through from the end (for tests). */
export function keptSizes(): number[] {
  return kept.map((b) => b.length);
}

const EMPTY = Buffer.alloc(0);

export interface ReadOptions {
  /** The body's cap: past it (declared or as it arrives) the request is aborted with BodyTooLargeError. */
  maxBytes: number;
  /**
   * Ends the request (its Deadline): the promise rejects with the stop's
   * reason at once, even while the request still waits for a connection (a
   * proxy that swallows CONNECT must not outlive --timeout); an answer that
   * comes after all is thrown away.
   */
  stop: RequestStop;
  /** Told when the status and headers are in: a failure after that cut the answer off mid-body. */
  onHeaders?: () => void;
}

/** Sends `request` on `transport` and reads its whole answer (see ReadOptions). */
export function readAnswer(transport: Pick<HttpTransport, 'dispatch'>, request: RequestOptions, opts: ReadOptions): Promise<Answer> {
  const reader = new AnswerReader(opts);
  if (!opts.stop.aborted) transport.dispatch(request, reader);
  return reader.done;
}

class AnswerReader implements AnswerHandler {
  readonly done: Promise<Answer>;
  private resolve!: (a: Answer) => void;
  private reject!: (err: unknown) => void;
  private settled = false;
  private controller?: Controller;
  private statusCode = 0;
  private headers: Answer['headers'] = {};
  /** Where the body is gathered (takeBuffer), once a byte of it came. */
  private buffer?: Buffer;
  private size = 0;
  /** The declared length (at most KEPT_BUFFER_BYTES), when there is one within the cap: the buffer is taken at that size. */
  private declared = 0;
  private readonly onStop = (reason: unknown) => this.fail(reason);

  constructor(private readonly opts: ReadOptions) {
    this.done = new Promise<Answer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (opts.stop.aborted) this.fail(opts.stop.reason);
    else opts.stop.onEnd = this.onStop;
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    // Ended while it waited for a connection: it goes no further.
    if (this.settled) controller.abort(this.opts.stop.reason instanceof Error ? this.opts.stop.reason : new Error('request ended'));
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Answer['headers']): void {
    this.statusCode = statusCode;
    this.headers = headers;
    this.opts.onHeaders?.();
    const header = headers['content-length'];
    const declared = Number(Array.isArray(header) ? header[0] : header);
    if (Number.isFinite(declared) && declared > this.opts.maxBytes) this.tooLarge(controller);
    // Within the cap here: the buffer is taken at that size (NaN, without the header, is not > 0), up to
    // what a kept buffer may be: a length that lies reserves no more, and a true one past it grows as it comes.
    else if (declared > 0) this.declared = Math.min(declared, KEPT_BUFFER_BYTES);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.settled) return;
    const size = this.size + chunk.length;
    if (size > this.opts.maxBytes) return this.tooLarge(controller);
    let buffer = this.buffer;
    if (!buffer || buffer.length < size) {
      const bigger = takeBuffer(Math.max(size, this.declared, buffer ? buffer.length * 2 : 0));
      if (buffer) {
        buffer.copy(bigger, 0, 0, this.size);
        keepBuffer(buffer);
      }
      buffer = this.buffer = bigger;
    }
    chunk.copy(buffer, this.size);
    this.size = size;
  }

  onResponseEnd(): void {
    let buffer = this.buffer;
    this.buffer = undefined;
    if (!this.settle()) return;
    const body = buffer ? buffer.subarray(0, this.size) : EMPTY;
    // Once: a buffer kept twice would be handed to two answers at once.
    const release = () => {
      if (buffer) keepBuffer(buffer);
      buffer = undefined;
    };
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body, release });
  }

  onResponseError(_controller: Controller, err: Error): void {
    // The transport ended it (and said so): nothing to abort.
    if (this.settle()) this.reject(err);
  }

  private tooLarge(controller: Controller): void {
    this.controller ??= controller;
    this.fail(new BodyTooLargeError(this.opts.maxBytes));
  }

  /** Ends the request here (the stop, the cap): rejects, and tells the transport to stop. */
  private fail(err: unknown): void {
    if (!this.settle()) return;
    this.reject(err);
    this.controller?.abort(err instanceof Error ? err : new Error(String(err)));
  }

  /** True the first time: an answer settles once, and stops listening to its stop. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    // An answer that failed gives its buffer back (one that ended hands it over: onResponseEnd).
    if (this.buffer) keepBuffer(this.buffer);
    this.buffer = undefined;
    this.opts.stop.onEnd = undefined;
    return true;
  }
}
