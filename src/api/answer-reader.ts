// One request of the API client (http.ts) through its transport's dispatch
// (node-transport.ts, or undici's agent behind a proxy) with a handler of our
// own that collects the answer, not undici's request(): no
// body stream, no async iteration over it, no abort wiring of undici's per
// request. A lookup runs a few hundred requests in a process that lives a
// second, mostly before V8 has optimised anything, so the code run per request
// is what it costs: 700 requests (`profile get` of 100 employees) took about
// 0.59 s of CPU through request() and 0.49 s through dispatch, against 0.45 s
// for a node:http client (Node 24, in one process, /tmp scripts; issue 33).
import { BodyTooLargeError } from '../input.js';
import type { Dispatcher } from './undici.js';
import type { Transport } from './node-transport.js';

/** A whole answer: its status, headers and body bytes. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface ReadOptions {
  /** The body's cap: past it (declared or as it arrives) the request is aborted with BodyTooLargeError. */
  maxBytes: number;
  /**
   * Ends the request: the promise rejects with the signal's reason at once,
   * even while undici still waits for a connection (it would only hear an
   * abort once the request has one: a proxy that swallows CONNECT would
   * outlive --timeout); an answer that comes after all is thrown away.
   */
  signal: AbortSignal;
  /** Told when the status and headers are in: a failure after that cut the answer off mid-body. */
  onHeaders?: () => void;
}

/** Sends `request` on `dispatcher` and reads its whole answer (see ReadOptions). */
export function readAnswer(dispatcher: Transport, request: Dispatcher.DispatchOptions, opts: ReadOptions): Promise<Answer> {
  const reader = new AnswerReader(opts);
  if (!opts.signal.aborted) dispatcher.dispatch(request, reader);
  return reader.done;
}

class AnswerReader implements Dispatcher.DispatchHandler {
  readonly done: Promise<Answer>;
  private resolve!: (a: Answer) => void;
  private reject!: (err: unknown) => void;
  private settled = false;
  private controller?: Dispatcher.DispatchController;
  private statusCode = 0;
  private headers: Answer['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly onAbort = () => this.fail(this.opts.signal.reason);

  constructor(private readonly opts: ReadOptions) {
    this.done = new Promise<Answer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (opts.signal.aborted) this.fail(opts.signal.reason);
    else opts.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Ended while it waited for a connection: it goes no further.
    if (this.settled) controller.abort(this.opts.signal.reason ?? new Error('request ended'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Answer['headers']): void {
    this.statusCode = statusCode;
    this.headers = headers;
    this.opts.onHeaders?.();
    const header = headers['content-length'];
    const declared = Number(Array.isArray(header) ? header[0] : header);
    if (Number.isFinite(declared) && declared > this.opts.maxBytes) this.tooLarge(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.opts.maxBytes) this.tooLarge(controller);
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    // Most answers come in one chunk: no copy.
    if (this.settle()) this.resolve({ statusCode: this.statusCode, headers: this.headers, body: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size) });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    // undici ended it (and said so): nothing to abort.
    if (this.settle()) this.reject(err);
  }

  private tooLarge(controller: Dispatcher.DispatchController): void {
    this.controller ??= controller;
    this.fail(new BodyTooLargeError(this.opts.maxBytes));
  }

  /** Ends the request here (the signal, the cap): rejects, and tells undici to stop. */
  private fail(err: unknown): void {
    if (!this.settle()) return;
    this.reject(err);
    this.controller?.abort(err instanceof Error ? err : new Error(String(err)));
  }

  /** True the first time: an answer settles once, and its listener on the signal goes. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.opts.signal.removeEventListener('abort', this.onAbort);
    return true;
  }
}
