// The shared create flow's reading of a failed create (forms/flow.ts): one
// typed answer for gp create's wizard, its values path and --body-file.
import { describe, expect, it } from 'vitest';
import { ApiError, ExitCode, InterruptedError, MaybeCreatedError, NetworkError } from '../../../src/errors.js';
import { createFailure } from '../../../src/forms/flow.js';
import { testIO } from '../../../src/io.js';

const netError = (code: string) => new NetworkError(`socket ${code}`, undefined, 'NETWORK', Object.assign(new Error(code), { code }));

describe('createFailure', () => {
  it('a 409 is CONFLICT (exit 6), naming the work e-mail and saying nothing was created', () => {
    const io = testIO();
    const err = createFailure({ io }, new ApiError({ status: 409, message: 'workEmail taken' }), { email: 'a@b.example' });
    expect(err).toMatchObject({ code: 'CONFLICT', exitCode: ExitCode.CONFLICT, message: 'An employee with these details already exists (work e-mail a@b.example): workEmail taken' });
    expect((err as { hint: string }).hint).toMatch(/^Nothing was created\./);
  });

  it('no answer after sending: MaybeCreatedError (exit 1), never retried, the hint says how to check and where the answers are', () => {
    const io = testIO();
    const err = createFailure({ io }, netError('ECONNRESET'), { email: 'a@b.example', keep: 'Your answers are kept: X' });
    expect(err).toBeInstanceOf(MaybeCreatedError);
    expect(err).toMatchObject({ code: 'MAYBE_CREATED', exitCode: ExitCode.FAILURE, interrupted: false });
    expect((err as MaybeCreatedError).hint).toContain('not retried automatically');
    expect((err as MaybeCreatedError).hint).toContain('(look for a@b.example)');
    expect((err as MaybeCreatedError).hint).toContain('Your answers are kept: X');
    expect(io.err()).toBe('');
  });

  it('Ctrl-C while waiting: MaybeCreatedError (exit 130), not an InterruptedError (no form saves over it), and the words are on stderr', () => {
    const io = testIO();
    const err = createFailure({ io }, new InterruptedError());
    expect(err).toBeInstanceOf(MaybeCreatedError);
    expect(err).not.toBeInstanceOf(InterruptedError);
    expect(err).toMatchObject({ exitCode: ExitCode.INTERRUPTED, interrupted: true });
    expect(io.err()).toContain('Interrupted after the create request was sent: the employee may exist');
  });

  it('a request that never left (refused, no such host) and any other error come back unchanged', () => {
    const io = testIO();
    for (const e of [netError('ECONNREFUSED'), netError('ENOTFOUND'), new ApiError({ status: 500, message: 'boom' }), new Error('x')]) expect(createFailure({ io }, e)).toBe(e);
  });
});
