import type { Context } from '../../context.js';
import type { HttpClient } from '../../api/http.js';
import { getFormSchema, getProfileSection, submitDynamicDetails } from '../../api/employees.js';
import { notFoundFor, resolveEmployee } from '../../api/resolve-employee.js';
import { CliError, ExitCode, InterruptedError, ResponseFormatError, UsageError } from '../../errors.js';
import type { OptionsOf } from '../../command.js';
import type { submit } from './submit.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { writeRecord } from '../../output/writer.js';
import { dynamicBody, dynamicKeys, dynamicPart } from '../../forms/bodies.js';
import { isFieldRejection, issuesFromApi, readValuesFile } from '../../forms/inputs.js';
import { runForm } from '../../forms/flow.js';
import type { Prompter } from '../../forms/prompter.js';
import { isObj } from '../../forms/schema.js';
import { loadServerForm } from '../../forms/load.js';
import { confirmSend, dryRunBody, formIfReadable, readBodyFile } from '../../forms/body-file.js';
import { maskedNote, maskSecrets, withoutSecrets } from '../../forms/secrets.js';
import { fixIssues } from '../../forms/review.js';
import { partnerCommand, q, suggestion } from '../../text/command-line.js';

export type SubmitOptions = OptionsOf<typeof submit>;

export async function run(opts: SubmitOptions, ctx: Context): Promise<number> {
  return submitRun(opts, ctx, await ctx.prompter());
}

/** The employee whose dynamic details are sent: its id, its code and its legal entity, as the server says. */
interface Target {
  id: string;
  code: string | undefined;
  entity: string | undefined;
  employment: unknown;
  who: string;
}

/** The employee, through the one resolver (which checks the server's answer), and its employment section's entity. */
async function targetOf(opts: SubmitOptions, ctx: Context, http: HttpClient): Promise<Target> {
  const employee = await resolveEmployee(http, opts.employee, ctx.signal);
  const id = employee.id;
  const employment = await getProfileSection(http, id, 'employment', ctx.signal).catch((err: unknown) => {
    throw notFoundFor(err, employee);
  });
  const sectionCode = isObj(employment) && typeof employment.employeeCode === 'string' ? employment.employeeCode : undefined;
  if (employee.code !== undefined && sectionCode !== undefined && sectionCode !== employee.code) {
    throw new CliError(`The server answered for employee ${sectionCode.slice(0, 80)} when asked about ${employee.code}; nothing was sent`, { code: 'EMPLOYEE_MISMATCH', exitCode: ExitCode.FAILURE, hint: `Pass the employee id (a UUID) instead of the code.` });
  }
  const entity = isObj(employment) && typeof employment.entity === 'string' ? employment.entity : undefined;
  const code = employee.code ?? sectionCode;
  return { id, code, entity, employment, who: code ?? id };
}

const noEntity = (opts: SubmitOptions, t: Target) => new ResponseFormatError(`The employment section of ${opts.employee} names no legal entity`, 200, JSON.stringify(t.employment ?? null).slice(0, 160));

export async function submitRun(opts: SubmitOptions, ctx: Context, prompter: Prompter): Promise<number> {
  const http = await ctx.http();
  // A bad values or body file is reported before anything is sent.
  const fileValues = opts.fromFile !== undefined ? await readValuesFile(opts.fromFile, ctx) : undefined;
  const handBody = opts.bodyFile !== undefined ? await readBodyFile(opts.bodyFile, ctx) : undefined;
  const t = await targetOf(opts, ctx, http);
  if (handBody) return sendBodyFile(opts, ctx, prompter, http, t, handBody);
  if (!t.entity) throw noEntity(opts, t);
  return askAndSend(opts, ctx, prompter, http, t, t.entity, fileValues);
}

const savedLine = (ctx: Context, t: Target) => ctx.log.info(`${ctx.errColors.green('✓')} Dynamic details saved for ${sanitizeTerminal(t.who)}.`);

/** The escape hatch: the body as written, whatever the form looks like (the form is read for masking only). */
async function sendBodyFile(opts: SubmitOptions, ctx: Context, prompter: Prompter, http: HttpClient, t: Target, handBody: Record<string, unknown>): Promise<number> {
  const entity = t.entity;
  const readable = entity ? await formIfReadable(ctx, () => getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity })) : undefined;
  if (opts.dryRun) return dryRunBody(ctx, handBody, readable, { out: { format: 'json' }, reveal: opts.reveal });
  if (!(await confirmSend(ctx, prompter, { what: `PATCH /v1/employees/${t.id}/dynamic-details`, body: handBody, form: readable, yes: opts.yes, reveal: opts.reveal }))) {
    ctx.log.info('Nothing was sent.');
    return ExitCode.INTERRUPTED;
  }
  await submitDynamicDetails(http, t.id, handBody);
  savedLine(ctx, t);
  return ExitCode.OK;
}

/** The form's dynamic sections, asked (or read from --from-file/--set) and PATCHed, with a draft kept until they are saved. */
async function askAndSend(opts: SubmitOptions, ctx: Context, prompter: Prompter, http: HttpClient, t: Target, entity: string, fileValues: Awaited<ReturnType<typeof readValuesFile>> | undefined): Promise<number> {
  const { id, code, who } = t;
  const fileMode = opts.fromFile !== undefined || opts.sets.length > 0;
  const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity }), ctx.log);
  const sections = dynamicKeys(form);
  if (sections.length === 0) throw new UsageError(`The form of ${entity} has no dynamic sections; there is nothing to submit for ${who}`, undefined, 'NO_DYNAMIC_SECTIONS');

  const drafts = await ctx.drafts();
  const resumeCmd = (draftId: string) => partnerCommand(ctx.globals, `dynamic-details submit ${id} ${drafts.dynamicDrafts(id).some((d) => d.id !== draftId) ? `--draft ${draftId}` : '--resume'}`);
  const patch = (doc: Record<string, unknown>) => dynamicBody(form, doc) ?? {};

  return runForm({
    ctx,
    prompter,
    form,
    sections,
    // Secret answers stay in memory only: the draft file never holds them.
    draft: {
      list: () => drafts.dynamicDrafts(id),
      newId: () => drafts.newId(),
      save: (draftId, doc, asked, history) => {
        const { answers, asked: rest, history: back } = withoutSecrets(form, dynamicPart(form, doc), asked, history);
        drafts.saveDynamic(draftId, { employeeId: id, employeeCode: code, entity, answers, asked: rest, history: back });
      },
      remove: (draftId) => void drafts.delete(draftId),
      whose: `of ${sanitizeTerminal(who)}`,
      resumeCommand: resumeCmd,
      missing: () => new UsageError(`No saved dynamic-details draft for ${who}`, suggestion('Start with:', partnerCommand(ctx.globals, `dynamic-details submit ${q(opts.employee)}`)), 'NO_DRAFT'),
    },
    interactive: ctx.io.canPrompt && !fileMode,
    resume: opts.resume,
    draftId: opts.draft,
    dryRun: opts.dryRun,
    values: { fromFile: opts.fromFile, sets: opts.sets, fileValues },
    title: `Dynamic details for ${sanitizeTerminal(who)} (${sanitizeTerminal(entity)})`,
    dryRunLabel: 'Show the request body (dry run, nothing is sent)',
    extraIssues: (doc) =>
      Object.keys(doc)
        .filter((key) => !sections.includes(key) && form.sections.some((s) => s.key === key))
        .map((key) => ({ path: key, message: 'is not a dynamic section (it is sent when the employee is created)', text: `${key} is not a dynamic section` })),
    showDryRun: async (doc, wizard) => {
      const body = patch(doc);
      await writeRecord(ctx.io, ctx.io.stdout, { dynamicDetails: maskSecrets(form, body, { reveal: opts.reveal }) }, { format: 'json' });
      if (!wizard) ctx.log.info(`Dry run: the values are valid; nothing was sent.${maskedNote(form, body, opts.reveal)}`);
      return ExitCode.OK;
    },
    send: async (doc, run, w) => {
      try {
        await submitDynamicDetails(http, id, patch(doc));
      } catch (err) {
        if (isFieldRejection(err)) {
          if (w) {
            w.prompter.note(ctx.errColors.red(`\nThe server refused ${err.details.length === 1 ? 'an answer' : 'some answers'}; they are asked again:`));
            await fixIssues(w, issuesFromApi(form, err));
            return { kind: 'retry' };
          }
          ctx.log.info(`The server refused these values:\n${issuesFromApi(form, err).map((i) => `  ${sanitizeTerminal(i.path)}: ${sanitizeTerminal(i.text)}`).join('\n')}`);
        } else if (w && !(err instanceof InterruptedError)) {
          w.save();
          ctx.log.info(suggestion('Your answers are kept. Try again with:', run.resumeCommand()));
        }
        throw err;
      }
      // The draft this run made or continued is done; values given alone leave every other draft as it was.
      run.done();
      savedLine(ctx, t);
      return { kind: 'created', exit: ExitCode.OK };
    },
  });
}
