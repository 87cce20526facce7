// One live check of a token: GET /v1/employees?pageSize=1. It also tells
// which company the token belongs to, when the API shows one (the
// customerName of the first employee).
import type { HttpClient } from '../../api/http.js';
import { answerOf, ApiError, CliError, ExitCode, InterruptedError } from '../../errors.js';
import { headline } from '../../output/render-error.js';

export interface TokenProbe {
  ok: boolean;
  /** "token accepted", "refused: HTTP 401 …", "failed: …". */
  text: string;
  /** The customerName of the first employee, when there is one. */
  company?: string;
  exitCode: number;
}

export async function probeToken(http: HttpClient, signal?: AbortSignal): Promise<TokenProbe> {
  const { listEmployees } = await import('../../api/employees.js');
  try {
    const page = await listEmployees(http, { pageSize: 1 }, signal);
    const name = page.data[0]?.customerName;
    return { ok: true, text: 'token accepted', company: typeof name === 'string' && name !== '' ? name : undefined, exitCode: ExitCode.OK };
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    // The correlation id too: the line is what the operator hands to support.
    const trace = answerOf(err)?.correlationId;
    const said = err instanceof ApiError ? `refused: HTTP ${err.status} ${headline(err)}` : `failed: ${(err as Error).message}`;
    const text = trace ? `${said} (correlation id ${trace})` : said;
    return { ok: false, text, exitCode: err instanceof CliError ? err.exitCode : ExitCode.FAILURE };
  }
}
