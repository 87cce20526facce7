// The escape hatch for any server: a hand-written request body (`gp create
// --body-file`, `dynamic-details submit --body-file`), shown, confirmed (or
// --yes) and sent as it is. When the entity's form can be read, its secret
// fields are masked in what is shown; the body itself is not changed.
import type { FormContext } from './form-context.js';
import { ExitCode, InterruptedError, UsageError } from '../errors.js';
import { type OutputOptions, writeRecord } from '../output/writer.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { readValuesFile } from './inputs.js';
import type { Prompter } from './prompter.js';
import { loadSchema, type FormSchema } from './schema.js';
import { maskedNote, maskSecrets } from './secrets.js';

/** Reads the body: one JSON object (at most 4 MiB; `-` reads stdin). */
export async function readBodyFile(path: string, ctx: FormContext): Promise<Record<string, unknown>> {
  try {
    return await readValuesFile(path, ctx, '--body-file');
  } catch (err) {
    // The reader's own hint (how to re-save a UTF-16 file) is kept; the body file's is added.
    if (err instanceof UsageError) throw new UsageError(err.message.replace('--from-file', '--body-file').replace('must hold a JSON object of sections', 'must hold the request body, a JSON object'), [err.hint, 'The file holds the exact JSON body to send.'].filter(Boolean).join('\n'), 'INVALID_BODY_FILE');
    throw err;
  }
}

/** The body as shown: pretty JSON, secret fields of the form masked, control characters made visible. */
export function showBody(body: Record<string, unknown>, form?: FormSchema, reveal = false): string {
  const shown = form ? maskSecrets(form, body, { reveal }) : body;
  return sanitizeTerminal(JSON.stringify(shown, null, 2)).slice(0, 64 * 1024);
}

/**
 * Shows what will be sent and asks; `--yes` skips the question. Without a
 * terminal (and without --yes) nothing is sent: a usage error says to add --yes.
 */
export async function confirmSend(ctx: FormContext, prompter: Prompter, o: { what: string; body: Record<string, unknown>; form?: FormSchema; yes: boolean; reveal?: boolean }): Promise<boolean> {
  ctx.io.stderr.write(`${o.what}:\n${showBody(o.body, o.form, o.reveal)}\n`);
  if (o.yes) return true;
  if (!ctx.io.canPrompt) throw new UsageError('Not sent: confirm the body with --yes (no terminal to ask on)', 'Check the body above, then run the command again with --yes.', 'CONFIRMATION_REQUIRED');
  return prompter.confirm({ message: 'Send it?', default: false });
}

/**
 * `--dry-run` with `--body-file`: the body as it would be sent, on stdout, its
 * secret fields masked (unless --reveal) when the entity's form could be read.
 */
export async function dryRunBody(ctx: FormContext, body: Record<string, unknown>, form: FormSchema | undefined, opts: { out: OutputOptions; reveal?: boolean }): Promise<number> {
  await writeRecord(ctx.io, ctx.io.stdout, form ? maskSecrets(form, body, { reveal: opts.reveal }) : body, opts.out);
  ctx.log.info(`Dry run: nothing was sent.${form ? maskedNote(form, body, opts.reveal) : " The entity's form could not be read, so no field is masked."}`);
  return ExitCode.OK;
}

/** The entity's form when it can be read (for masking only); undefined otherwise. */
export async function formIfReadable(ctx: FormContext, fetch: () => Promise<unknown>): Promise<FormSchema | undefined> {
  try {
    return loadSchema(await fetch());
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    ctx.log.debug(`form not used for masking: ${(err as Error).message}`);
    return undefined;
  }
}
