import type { Context } from '../../context.js';
import { getFormSchema, getProfileSection, submitDynamicDetails } from '../../api/employees.js';
import { notFoundFor, resolveEmployee } from '../../api/resolve-employee.js';
import { CliError, ExitCode, InterruptedError, ResponseFormatError, UsageError } from '../../errors.js';
import type { OptionsOf } from '../../command.js';
import type { submit } from './submit.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
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

export async function submitRun(opts: SubmitOptions, ctx: Context, prompter: Prompter): Promise<number> {
  const fileMode = opts.fromFile !== undefined || opts.sets.length > 0;
  const interactive = ctx.io.canPrompt && !fileMode;
  const http = await ctx.http();
  // A bad values or body file is reported before anything is sent.
  const fileValues = opts.fromFile !== undefined ? await readValuesFile(opts.fromFile, ctx) : undefined;
  const handBody = opts.bodyFile !== undefined ? await readBodyFile(opts.bodyFile, ctx) : undefined;

  // The employee: through the one resolver, which checks the server's answer.
  const employee = await resolveEmployee(http, opts.employee, ctx.signal);
  const id = employee.id;
  let code = employee.code;
  const employment = await getProfileSection(http, id, 'employment', ctx.signal).catch((err: unknown) => {
    throw notFoundFor(err, employee);
  });
  const sectionCode = isObj(employment) && typeof employment.employeeCode === 'string' ? employment.employeeCode : undefined;
  if (code !== undefined && sectionCode !== undefined && sectionCode !== code) {
    throw new CliError(`The server answered for employee ${sectionCode.slice(0, 80)} when asked about ${code}; nothing was sent`, { code: 'EMPLOYEE_MISMATCH', exitCode: ExitCode.FAILURE, hint: `Pass the employee id (a UUID) instead of the code.` });
  }
  const entity = isObj(employment) && typeof employment.entity === 'string' ? employment.entity : undefined;
  if (!entity && !handBody) throw new ResponseFormatError(`The employment section of ${opts.employee} names no legal entity`, 200, JSON.stringify(employment ?? null).slice(0, 160));
  code ??= sectionCode;
  const who = code ?? id;
  const saved = () => ctx.log.info(`${ctx.errColors.green('✓')} Dynamic details saved for ${sanitizeTerminal(who)}.`);

  if (handBody) {
    // The escape hatch: the body as written, whatever the form looks like.
    // Read for masking only: the body is sent as written.
    const readable = entity ? await formIfReadable(ctx, () => getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity })) : undefined;
    if (opts.dryRun) return dryRunBody(ctx, handBody, readable, { out: { format: 'json' }, reveal: opts.reveal });
    if (!(await confirmSend(ctx, prompter, { what: `PATCH /v1/employees/${id}/dynamic-details`, body: handBody, form: readable, yes: opts.yes, reveal: opts.reveal }))) {
      ctx.log.info('Nothing was sent.');
      return ExitCode.INTERRUPTED;
    }
    await submitDynamicDetails(http, id, handBody);
    saved();
    return ExitCode.OK;
  }

  if (!entity) throw new ResponseFormatError(`The employment section of ${opts.employee} names no legal entity`, 200, JSON.stringify(employment ?? null).slice(0, 160));
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
    interactive,
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
      saved();
      return { kind: 'created', exit: ExitCode.OK };
    },
  });
}
