// Sending a new GP employee: POST (never retried), then PATCH of the dynamic
// sections, with the draft kept or handed over whatever goes wrong.
import type { Context } from '../../context.js';
import type { HttpClient } from '../../api/http.js';
import { checkedEmployeeId, createGpEmployment, submitDynamicDetails } from '../../api/employees.js';
import { isUuid } from '../../options.js';
import { ApiError, CliError, ExitCode, exitCodeFor, InterruptedError, MaybeCreatedError, NetworkError } from '../../errors.js';
import { conflictMessage, createFailure, isConflict, LOOK_FOR_EMPLOYEE, notSent, type Outcome, type RunDraft } from '../../forms/flow.js';
import { renderErrorJson, traceLines } from '../../output/render-error.js';
import { renderKeyValue } from '../../output/table.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { writeRecord } from '../../output/writer.js';
import { dynamicBody, dynamicKeys, dynamicPart, workEmailOf, type Bodies } from '../../forms/bodies.js';
import type { DraftStore } from '../../forms/drafts.js';
import { isFieldRejection, issuesFromApi } from '../../forms/inputs.js';
import type { FormSchema } from '../../forms/schema.js';
import { maskedNote, maskSecrets, secretsNotKeptHint, withoutSecrets } from '../../forms/secrets.js';
import { type Wizard } from '../../forms/wizard.js';
import { fixIssues, review } from '../../forms/review.js';
import type { CreateOptions } from './create.run.js';
import { partnerCommand, q, suggestion } from '../../text/command-line.js';

/** The command that continues draft `id` of `entity`, aimed at the server of this run: by id when the entity has other drafts too. */
export function resumeCommand(ctx: Context, drafts: DraftStore, entity: string, id: string): string {
  const others = drafts.gpDrafts(entity).some((d) => d.id !== id);
  return partnerCommand(ctx.globals, others ? `gp create --draft ${id}` : `gp create --entity ${q(entity)} --resume`);
}

/** What a draft keeps: the answers, asked questions and back history without secrets. */
export function kept(form: FormSchema, doc: Record<string, unknown>, asked: Iterable<string>, history: readonly string[] = []): { answers: Record<string, unknown>; asked: string[]; history: string[] } {
  const { answers, asked: rest, history: back } = withoutSecrets(form, doc, asked, history);
  return { answers, asked: rest, history: back };
}

export async function dryRun(ctx: Context, form: FormSchema, bodies: Bodies, opts: CreateOptions, say = true): Promise<number> {
  // The bodies are JSON whatever the terminal (the definition's jsonFlag): they are what would be sent, secrets masked unless --reveal.
  const reveal = { reveal: opts.reveal };
  await writeRecord(ctx.io, ctx.io.stdout, { create: maskSecrets(form, bodies.create, reveal), dynamicDetails: bodies.dynamic ? maskSecrets(form, bodies.dynamic, reveal) : null }, opts.out);
  if (say) ctx.log.info(`Dry run: the values are valid; nothing was sent.${maskedNote(form, { ...bodies.create, ...bodies.dynamic }, opts.reveal)}`);
  return ExitCode.OK;
}

export interface SubmitInput {
  form: FormSchema;
  entity: string;
  bodies: Bodies;
  doc: Record<string, unknown>;
  drafts: DraftStore;
  /** This run's draft (flow.ts): kept on failure, deleted after the create. */
  run: RunDraft;
  /** The command's options, for how the result is printed. */
  output: CreateOptions;
  wizard?: Wizard;
}

/**
 * POST (never retried), then PATCH the dynamic sections: `created` (with the
 * exit code: not OK when the dynamic details were not all saved), or `retry`
 * when the wizard should review again (a 422 asked again, a 409 explained).
 * A request that may have created the employee throws MaybeCreatedError.
 */
export async function submit(ctx: Context, s: SubmitInput): Promise<Outcome> {
  const http = await ctx.http();
  const answer = await createEmployee(ctx, http, s);
  if ('outcome' in answer) return answer.outcome;
  const { created } = answer;
  const id = String(created.id ?? '');
  const code = typeof created.employeeCode === 'string' ? created.employeeCode : undefined;
  s.run.done();
  let exit: number = ExitCode.OK;
  if (s.bodies.dynamic && id) {
    if (!isUuid(id)) {
      // Created, but its id cannot go into the PATCH's path (`..` would reach another endpoint).
      ctx.log.info(`Employee ${sanitizeTerminal(code ?? id)} was created; its dynamic details (${dynamicKeys(s.form).join(', ')}) were not sent.`);
      await printCreated(ctx, created, s.output);
      checkedEmployeeId(id, 'The create answer', 201);
    }
    exit = await sendDynamic(ctx, http, s, { created, id, code });
  }
  await printCreated(ctx, created, s.output);
  if (exit === ExitCode.OK) {
    ctx.log.info(`${ctx.errColors.green('✓')} Created ${code ?? id} (${String(created.status ?? 'ONBOARDING')}).\nNext: follow the onboarding with \`partner employees list --employee-code ${code ?? '<code>'}\`.`);
  }
  return { kind: 'created', exit };
}

/** The POST: the server's answer, or `retry` when the wizard asks again; any other failure is thrown, the values kept as a draft. */
async function createEmployee(ctx: Context, http: HttpClient, s: SubmitInput): Promise<{ created: Record<string, unknown> } | { outcome: Outcome }> {
  const { form, run, wizard: w } = s;
  const email = workEmailOf(form, s.doc);
  try {
    ctx.log.info(`Creating the employee…`);
    return { created: await createGpEmployment(http, s.bodies.create) };
  } catch (err) {
    // Nothing typed is lost: values from --from-file/--set become a draft that
    // `--resume` walks through (each question pre-filled), whatever went wrong.
    // A draft of this run's own: never over the wizard's (or another run's) draft.
    if (!w) ctx.log.info(`${suggestion('Your values are kept as a draft (or fix the file and run again):', run.keep(s.doc))}${secretsNotKeptHint(form, s.doc)}`);
    if (isFieldRejection(err)) {
      const issues = issuesFromApi(form, err);
      if (w) {
        w.prompter.note(ctx.errColors.red(`\nThe server refused ${issues.length === 1 ? 'an answer' : 'some answers'}; they are asked again:`));
        await fixIssues(w, issues);
        return { outcome: { kind: 'retry' } };
      }
      ctx.log.info(`The server refused these values:\n${issues.map((i) => `  ${sanitizeTerminal(i.path)}: ${sanitizeTerminal(i.text)}`).join('\n')}`);
      throw err;
    }
    if (w && isConflict(err)) {
      w.prompter.note(ctx.errColors.red(`\n${sanitizeTerminal(conflictMessage(err, email))}`));
      w.prompter.note(suggestion('Nothing was created. Change an answer (such as the work e-mail) and submit again, or quit and look for them with:', LOOK_FOR_EMPLOYEE));
      return { outcome: { kind: 'retry' } };
    }
    if (w && (err instanceof NetworkError || err instanceof InterruptedError)) {
      w.save();
      if (notSent(err)) ctx.log.info(suggestion('Nothing was sent. Your answers are kept. Continue with:', run.resumeCommand()));
    }
    throw createFailure(ctx, err, { email, keep: w ? suggestion('Your answers are kept. Continue with:', run.resumeCommand()) : undefined });
  }
}

/** The employee just created. */
interface Created {
  created: Record<string, unknown>;
  id: string;
  code: string | undefined;
}

/**
 * The PATCH of the dynamic sections, kept as a dynamic-details draft until it
 * is saved; a refusal is asked again in the wizard. Returns the exit code.
 */
async function sendDynamic(ctx: Context, http: HttpClient, s: SubmitInput, c: Created): Promise<number> {
  const { form, drafts, wizard: w } = s;
  const { id, code } = c;
  let body = s.bodies.dynamic!;
  const finishCmd = `partner dynamic-details submit ${id} --resume`;
  const dynSections = dynamicKeys(form);
  const inDyn = (a: string) => dynSections.includes(a.split('.')[0]);
  const dynId = drafts.newId();
  const saveDyn = () => drafts.saveDynamic(dynId, { employeeId: id, employeeCode: code, entity: s.entity, ...kept(form, dynamicPart(form, s.doc), w ? [...w.asked].filter(inDyn) : [], w?.history?.filter(inDyn)) });
  saveDyn();
  for (;;) {
    try {
      await submitDynamicDetails(http, id, body);
      drafts.delete(dynId);
      return ExitCode.OK;
    } catch (err) {
      if (err instanceof InterruptedError) {
        ctx.log.info(`\n${suggestion(`Employee ${code ?? id} was created; its dynamic details may not be saved. Finish with:`, finishCmd)}`);
        await printCreated(ctx, c.created, s.output);
        throw wasCreated(code ?? id, finishCmd, err);
      }
      if (!(w && isFieldRejection(err))) {
        reportDynamicFailure(ctx, s, c, err, finishCmd);
        return exitCodeFor(err);
      }
      w.prompter.note(ctx.errColors.red(`\nEmployee ${code ?? id} was created, but the server refused some dynamic details; they are asked again:`));
      const dw: Wizard = { ...w, sections: dynSections, save: saveDyn };
      try {
        await fixIssues(dw, issuesFromApi(form, err));
        const choice = await review(dw, 'Submit the dynamic details');
        if (choice === 'submit') {
          const next = dynamicBody(form, s.doc);
          if (!next) return ExitCode.OK;
          body = next;
          continue;
        }
      } catch (inner) {
        if (inner instanceof InterruptedError) {
          ctx.log.info(`\n${suggestion(`Employee ${code ?? id} was created. Finish its dynamic details with:`, finishCmd)}`);
          await printCreated(ctx, c.created, s.output);
          throw wasCreated(code ?? id, finishCmd, inner);
        }
        throw inner;
      }
      ctx.log.info(suggestion('Finish the dynamic details later with:', finishCmd));
      return ExitCode.INTERRUPTED;
    }
  }
}

/** The dynamic details were not saved (the employee was created): said as text, or as one JSON object for a script. */
function reportDynamicFailure(ctx: Context, s: SubmitInput, { id, code }: Created, err: unknown, finishCmd: string): void {
  const { form, wizard: w } = s;
  const dynSections = dynamicKeys(form);
  const next = `${suggestion('Your answers for them are kept. Finish with:', finishCmd)}${w ? '' : secretsNotKeptHint(form, dynamicPart(form, s.doc))}`;
  const said = `Employee ${code ?? id} was created, but its dynamic details (${dynSections.join(', ')}) were not saved: ${(err as Error).message}`;
  if (s.output.out.errors === 'json') {
    // A script reading JSON errors gets one object, with the answer's status and correlation id (the cause).
    const failure = new CliError(said, { code: 'DYNAMIC_DETAILS_NOT_SAVED', exitCode: exitCodeFor(err), hint: next, cause: err });
    ctx.io.stderr.write(renderErrorJson(failure, { employeeId: id, employeeCode: code ?? null }));
  } else {
    const detail = err instanceof ApiError && err.details.length ? `\n${err.details.map((d) => `  ${sanitizeTerminal(d.field)}: ${sanitizeTerminal(d.message)}`).join('\n')}` : '';
    const trace = traceLines(err, true).map((l) => `\n${l}`).join('');
    ctx.log.info(`${ctx.errColors.red('Error:')} ${sanitizeTerminal(said)}${detail}${trace}\n${next}`);
  }
}

/** Ctrl-C after the employee was created: not an interrupted form (no draft of it is kept), the rest is finished elsewhere. */
function wasCreated(who: string, finishCmd: string, cause: unknown): MaybeCreatedError {
  return new MaybeCreatedError(`Employee ${who} was created; its dynamic details may not be saved`, { interrupted: true, hint: suggestion('Finish with:', finishCmd), cause });
}

export async function printCreated(ctx: Context, created: Record<string, unknown>, opts: CreateOptions): Promise<void> {
  // Written after the POST: a --fields path the answer lacks cannot be a usage error (exit 2 says nothing was sent).
  await writeRecord(ctx.io, ctx.io.stdout, created, opts.out, {
    unknownFields: 'warn',
    table: () => renderKeyValue({ id: created.id, employeeCode: created.employeeCode, status: created.status }, 0, { width: ctx.io.columns }),
  });
}
