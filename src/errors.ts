// One error model: every failure a command can meet is one of these types,
// and exitCodeFor() is the only map from failure to exit code.

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  NOT_AUTHENTICATED: 3,
  FORBIDDEN: 4,
  NOT_FOUND: 5,
  CONFLICT: 6,
  REJECTED: 7,
  VERIFICATION_FAILED: 8,
  INTERRUPTED: 130,
} as const;

/**
 * How far a long job got when it failed (an export: the page it stopped at,
 * the rows written, the file left untouched): a line for people under the
 * message, and the same as data in the JSON error (`progress`).
 */
export interface ErrorProgress {
  text: string;
  data: Record<string, string | number | boolean | null>;
}

export class CliError extends Error {
  /** Stable machine-readable code; tests assert on it. */
  readonly code: string;
  readonly exitCode: number;
  /** What the user can do next, shown under the message. */
  readonly hint?: string;
  /**
   * Set by the command that knows how far it got, as the error passes
   * through it (the failure itself, a page's 503, is raised below it).
   */
  progress?: ErrorProgress;

  constructor(message: string, opts: { code: string; exitCode: number; hint?: string; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.exitCode = opts.exitCode;
    this.hint = opts.hint;
  }
}

/** Bad flag, argument or input file: nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string, code = 'USAGE') {
    super(message, { code, exitCode: ExitCode.USAGE, hint });
  }
}

/** Values (a values file, --set, a spreadsheet row) that the form refuses; each field named. Nothing was sent. */
export class InvalidValuesError extends UsageError {
  constructor(
    message: string,
    hint: string | undefined,
    readonly fields: FieldError[],
  ) {
    super(message, hint, 'FORM_INVALID');
  }
}

/** No token, or the server answered 401. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string, code = 'NOT_AUTHENTICATED') {
    super(message, { code, exitCode: ExitCode.NOT_AUTHENTICATED, hint });
  }
}

export interface FieldError {
  field: string;
  message: string;
}

/** Any non-2xx answer from the API, parsed from the declared error body. */
export class ApiError extends CliError {
  readonly status: number;
  readonly apiCode?: string;
  readonly correlationId?: string;
  readonly path?: string;
  readonly details: FieldError[];
  /** Start of a non-JSON body (an HTML page from a proxy), for the message. */
  readonly excerpt?: string;
  /** The Retry-After header of a 429 or 503 (bulk onboarding waits it out before sending the row again). */
  retryAfter?: string;
  /** The answer as it came (`partner api -i` prints its status line, headers and body); never in the error's JSON. */
  declare answer?: { headers: Record<string, string | string[] | undefined>; text: string };

  constructor(init: {
    status: number;
    message: string;
    apiCode?: string;
    correlationId?: string;
    path?: string;
    details?: FieldError[];
    excerpt?: string;
    hint?: string;
  }) {
    super(init.message, { code: `HTTP_${init.status}`, exitCode: exitCodeForStatus(init.status), hint: init.hint ?? hintForStatus(init.status) });
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.correlationId = init.correlationId;
    this.path = init.path;
    this.details = init.details ?? [];
    this.excerpt = init.excerpt;
  }
}

/** The server answered 2xx with a body that is not the JSON we expect. */
export class ResponseFormatError extends CliError {
  constructor(
    message: string,
    readonly status: number,
    readonly excerpt: string,
    /** The answer's correlation id, when the code that read it had its headers. */
    readonly correlationId?: string,
  ) {
    super(message, { code: 'BAD_RESPONSE', exitCode: ExitCode.FAILURE });
  }
}

/** What support needs of the answer a failure came from: its HTTP status and correlation id. */
export interface AnswerTrace {
  status: number;
  correlationId?: string;
}

/**
 * The answer an error came from: the error itself (ApiError, ResponseFormatError)
 * or one it wraps as its cause (a 409 read as CONFLICT, a 404 as
 * EMPLOYEE_NOT_FOUND), so no reading of an answer loses its status and
 * correlation id. Undefined for failures no answer caused.
 */
export function answerOf(err: unknown): AnswerTrace | undefined {
  const e = inCauses(err, (x): x is ApiError | ResponseFormatError => x instanceof ApiError || x instanceof ResponseFormatError);
  return e && { status: e.status, correlationId: e.correlationId };
}

/** The first of `err` and its causes (at most 8 deep) that `is` accepts. */
export function inCauses<T>(err: unknown, is: (e: unknown) => e is T): T | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e instanceof Error; depth++, e = e.cause) if (is(e)) return e;
  return undefined;
}

/** Could not reach the server (refused, reset, DNS, timeout). */
export class NetworkError extends CliError {
  constructor(message: string, hint?: string, code = 'NETWORK', cause?: unknown) {
    super(message, { code, exitCode: ExitCode.FAILURE, hint, cause });
  }
}

/**
 * A create request reached the server and the run does not know what became
 * of it (no answer came back, or Ctrl-C after it was sent), or the employee
 * was created and the run stopped before the rest was sent: the employee may
 * exist. Never retried automatically; the hint says how to check (and
 * where the answers are kept). Exit 130 when it was Ctrl-C. A form's
 * Ctrl-C handling leaves it alone: it is not an InterruptedError.
 */
export class MaybeCreatedError extends CliError {
  readonly interrupted: boolean;

  constructor(message: string, opts: { hint?: string; interrupted?: boolean; cause?: unknown } = {}) {
    super(message, { code: 'MAYBE_CREATED', exitCode: opts.interrupted ? ExitCode.INTERRUPTED : ExitCode.FAILURE, hint: opts.hint, cause: opts.cause });
    this.interrupted = opts.interrupted ?? false;
  }
}

/** A webhook signature or payload did not verify. `code` names the reason. */
export class VerificationError extends CliError {
  constructor(code: string, message: string) {
    super(message, { code, exitCode: ExitCode.VERIFICATION_FAILED });
  }
}

/** stdout was closed by its reader (`partner … | head`): stop quietly, it is not a failure. */
export class OutputClosedError extends CliError {
  constructor() {
    super('Output closed', { code: 'OUTPUT_CLOSED', exitCode: ExitCode.OK });
  }
}

/** Error codes of a stdout whose reader went away (`| head`; a closed terminal): not a failure. */
const OUTPUT_GONE = new Set(['EPIPE', 'EIO', 'ERR_STREAM_DESTROYED']);

/** The write failed because the reader of stdout went away (see OutputClosedError), not because the output is cut. */
export function isOutputGone(err: unknown): boolean {
  return OUTPUT_GONE.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/**
 * stdout could not be written (the disk is full, the file-size limit was
 * reached, /dev/full): what was printed is cut, so the command fails (exit 1)
 * with one line naming the cause, even if everything else went well.
 */
export class OutputWriteError extends CliError {
  constructor(cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(`Could not write the output to stdout: ${outputWriteReason(code, cause)}; what was written is incomplete`, { code: 'OUTPUT_WRITE', exitCode: ExitCode.FAILURE, cause });
  }
}

function outputWriteReason(code: string | undefined, cause: unknown): string {
  switch (code) {
    case 'ENOSPC':
      return 'ENOSPC (no space left on the device)';
    case 'EFBIG':
      return 'EFBIG (the file-size limit was reached, see `ulimit -f`)';
    case 'EDQUOT':
      return 'EDQUOT (the disk quota is used up)';
    default:
      return code ?? (cause instanceof Error ? cause.message : String(cause));
  }
}

/** Ctrl-C while working (exit 130, "Interrupted."). */
export class InterruptedError extends CliError {
  constructor(
    message = 'Interrupted',
    code = 'INTERRUPTED',
    /** The signal that stopped the command, when one did. */
    readonly signal?: NodeJS.Signals,
  ) {
    super(message, { code, exitCode: ExitCode.INTERRUPTED });
  }
}

/** Ctrl-C or Ctrl-D at a prompt: the person said no (exit 130, "Cancelled."). */
export class CancelledError extends InterruptedError {
  constructor() {
    super('Cancelled', 'CANCELLED');
  }
}

export function exitCodeForStatus(status: number): number {
  switch (status) {
    case 401:
      return ExitCode.NOT_AUTHENTICATED;
    case 403:
      return ExitCode.FORBIDDEN;
    case 404:
      return ExitCode.NOT_FOUND;
    case 409:
      return ExitCode.CONFLICT;
    case 400:
    case 422:
      return ExitCode.REJECTED;
    default:
      return ExitCode.FAILURE;
  }
}

function hintForStatus(status: number): string | undefined {
  switch (status) {
    case 401:
      return 'Log in again with `partner auth login`, or check PARTNER_TOKEN.';
    case 403:
      return 'The token is valid but lacks permission for this operation; ask your account manager for access.';
    case 429:
      return 'The server is rate limiting requests; wait a moment or lower --concurrency.';
    default:
      return status >= 500 ? 'The service had a problem; try again later and quote the correlation id if it persists.' : undefined;
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  return ExitCode.FAILURE;
}

/** Keeps the worst (highest non-interrupt) exit code of several failures. */
export function worstExitCode(codes: number[]): number {
  if (codes.includes(ExitCode.INTERRUPTED)) return ExitCode.INTERRUPTED;
  return codes.reduce((a, b) => Math.max(a, b), 0);
}

/**
 * A local server (webhook listen, sandbox start) could not listen: the port
 * is taken, the address is not this machine's. The user's set-up, not a bug:
 * a clear message (exit 1). Other errors are returned unchanged.
 */
export function listenError(err: unknown, address: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const fail = (why: string, hint: string) => new CliError(`Cannot listen on ${address}: ${why}`, { code: 'LISTEN_FAILED', exitCode: ExitCode.FAILURE, hint, cause: err });
  switch (code) {
    case 'EADDRINUSE':
      return fail('the port is already in use', 'Pick another --port, or leave --port out for a free one.');
    case 'EACCES':
      return fail('permission denied (ports below 1024 need privileges)', 'Use a port of 1024 or more, or leave --port out for a free one.');
    case 'EADDRNOTAVAIL':
      return fail('this machine has no such address', 'Use --host 127.0.0.1 (or another address of this machine).');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('the host name does not resolve', 'Use --host 127.0.0.1 (or another address of this machine).');
    default:
      return err;
  }
}
