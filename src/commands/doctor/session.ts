// What the checks of one `partner doctor` run learn and share: the resolved
// profile (or why it could not be), the HTTP client, and whether the server
// answered at all (a valid base URL nobody answers on is a failure, decided
// once every check that calls the server has run).
import type { Context } from '../../context.js';
import { ApiError, NetworkError } from '../../errors.js';
import type { HttpClient } from '../../api/http.js';
import type { ResolvedProfile } from '../../config/resolve.js';
import type { OptionsOf } from '../../command.js';
import type { doctor } from './doctor.js';
import type { Check } from './checks.js';

export type DoctorOptions = OptionsOf<typeof doctor>;

export class DoctorSession {
  profile?: ResolvedProfile;
  /** Why the profile could not be resolved (reported by the profile check). */
  profileError?: unknown;
  baseUrl?: string;
  /** The base URL's OK line, amended once it is known whether the server answered. */
  baseCheck?: Check;
  http?: HttpClient;
  /** The server answered something (any HTTP answer, even an error). */
  answered = false;
  /** The first failure to reach the server. */
  unreachable?: NetworkError;
  /** The live key set was asked for (the key cache is then reported too). */
  keySetTried = false;
  /** The server's Date header and the local time halfway through that request. */
  serverDate?: { date: number; localMid: number };
  private resolved?: Promise<void>;

  constructor(
    readonly ctx: Context,
    readonly opts: DoctorOptions,
  ) {}

  /** Resolves the profile once (opening the config as any command does); the outcome is kept, never thrown. */
  resolveProfile(): Promise<void> {
    this.resolved ??= this.ctx.profile().then(
      (p) => {
        this.profile = p;
      },
      (err: unknown) => {
        this.profileError = err;
      },
    );
    return this.resolved;
  }

  /** Records what a failed call says about the server: it answered, or it could not be reached. */
  noted(err: unknown): void {
    if (err instanceof ApiError) this.answered = true;
    else if (err instanceof NetworkError) this.unreachable ??= err;
  }

  /** The server could not be reached and never answered: later checks are skipped, not failed. */
  get serverDown(): boolean {
    return this.unreachable !== undefined && !this.answered;
  }
}

/** One check of the list: its name, and a function that gives its result (none when it does not apply). */
export interface DoctorStep {
  name: string;
  run(s: DoctorSession): Promise<Check | undefined> | Check | undefined;
}
