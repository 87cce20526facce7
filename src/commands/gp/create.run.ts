import type { Context } from '../../context.js';
import { createGpEmployment, getFormSchema, listEmployees, submitDynamicDetails } from '../../api/employees.js';
import { ApiError, CliError, ExitCode, exitCodeFor, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import type { OptionsOf } from '../../command.js';
import type { create } from './create.js';
import { renderKeyValue } from '../../output/table.js';
import { sanitizeTerminal } from '../../output/sanitize.js';
import { writeRecord } from '../../output/writer.js';
import { outputOptions } from '../../output/options.js';
import { buildBodies, dynamicBody, dynamicKeys, dynamicPart, workEmailOf, type Bodies } from '../../forms/bodies.js';
import { loadServerForm } from '../../forms/load.js';
import { confirmSend, formIfReadable, readBodyFile } from '../../forms/body-file.js';
import { bulkOnboard } from '../../forms/bulk/onboard.js';
import { readSheet } from '../../forms/bulk/read.js';
import { collectValues, failWithIssues, fillFixed, isFieldRejection, issuesFromApi, readValuesFile, validateSections } from '../../forms/inputs.js';
import type { Prompter } from '../../forms/prompter.js';
import { allFields } from '../../forms/questions.js';
import { getAt } from '../../forms/paths.js';
import type { FormSchema } from '../../forms/schema.js';
import { secretsNotKeptHint, secretsResumeNote, withoutSecrets } from '../../forms/secrets.js';
import { type Wizard } from '../../forms/wizard.js';
import { fixIssues, review } from '../../forms/review.js';

export type CreateOptions = OptionsOf<typeof create>;

export async function run(opts: CreateOptions, ctx: Context): Promise<number> {
  return createRun(opts, ctx, await ctx.prompter());
}

const q = (s: string) => (/^[A-Za-z0-9._-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

/** The command with its prompter injected (tests script the answers). */
export async function createRun(opts: CreateOptions, ctx: Context, prompter: Prompter): Promise<number> {
  if (opts.bodyFile !== undefined) return createFromBody(opts, opts.bodyFile, ctx, prompter);
  if (opts.fromCsv !== undefined) {
    if (opts.entity === undefined) throw new UsageError('--from-csv needs --entity NAME, the legal entity that hires every row', undefined, 'MISSING_ENTITY');
    const sheet = await readSheet(opts.fromCsv); // a bad file is reported before any request
    const http = await ctx.http();
    const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: opts.entity }), ctx.log);
    return bulkOnboard(ctx, http, form, { entity: opts.entity, csvPath: opts.fromCsv, resultsPath: opts.results, skipInvalid: opts.skipInvalid, dryRun: opts.dryRun, sheet });
  }
  const fileMode = opts.fromFile !== undefined || opts.sets.length > 0;
  const interactive = ctx.io.canPrompt && !fileMode;
  const http = await ctx.http();

  let entity = opts.entity;
  if (entity === undefined) {
    if (!interactive) throw new UsageError('--entity is required here', 'Pass --entity NAME, the legal entity that hires the employee (no prompts: not a terminal, CI, --no-input, or values given).', 'MISSING_ENTITY');
    entity = await askEntity(ctx, prompter);
  }
  // A bad values file or a missing draft is reported before anything is sent.
  const fileValues = opts.fromFile !== undefined ? await readValuesFile(opts.fromFile, ctx) : undefined;
  const drafts = await ctx.drafts();
  if (opts.resume && !drafts.loadGp(entity)) throw new UsageError(`No saved draft for entity "${entity}"`, `Start one with: partner gp create --entity ${q(entity)}`, 'NO_DRAFT');
  const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity }), ctx.log);
  const sections = form.sections.map((s) => s.key);
  const resumeCmd = `partner gp create --entity ${q(entity)} --resume`;

  let doc: Record<string, unknown> = {};
  let asked = new Set<string>();
  let history: string[] = [];
  const existing = drafts.loadGp(entity);
  if (opts.resume) {
    if (!existing) throw new UsageError(`No saved draft for entity "${entity}"`, `Start one with: partner gp create --entity ${q(entity)}`, 'NO_DRAFT');
    doc = existing.answers;
    asked = new Set(existing.asked);
    history = existing.history ?? [];
    ctx.log.info(`Resuming the draft saved at ${existing.savedAt}.`);
    const note = secretsResumeNote(form, doc);
    if (note) ctx.log.info(note);
  } else if (existing && interactive) {
    const cont = await prompter.confirm({ message: `A draft for ${sanitizeTerminal(entity)} saved at ${existing.savedAt} exists. Continue it?`, default: true });
    if (cont) {
      doc = existing.answers;
      asked = new Set(existing.asked);
      history = existing.history ?? [];
      const note = secretsResumeNote(form, doc);
      if (note) prompter.note(ctx.errColors.dim(note));
    }
  }

  if (!interactive) {
    const values = await collectValues(form, doc, { ...opts, fileValues }, ctx, entity);
    fillFixed(form, values.doc, sections);
    const issues = [...values.issues, ...validateSections(form, values.doc, sections)];
    if (issues.length) failWithIssues(ctx, issues, fileMode);
    const bodies = buildBodies(form, entity, values.doc);
    if (opts.dryRun) return dryRun(ctx, bodies, opts);
    const result = await submit(ctx, { form, entity, bodies, doc: values.doc, drafts, output: opts });
    return result === 'again' ? ExitCode.FAILURE : result;
  }

  const w: Wizard = {
    form,
    doc,
    asked,
    sections,
    prompter,
    colors: ctx.errColors,
    history,
    // Secret answers stay in memory only: the draft file never holds them.
    save: () => drafts.saveGp({ entity: entity!, ...kept(form, w.doc, w.asked, w.history) }),
  };
  prompter.note(
    `${ctx.errColors.bold(`New GP employee for ${sanitizeTerminal(entity)}`)}\n${ctx.errColors.dim('Answers are saved as a draft after each question; Ctrl-C keeps them and --resume continues.')}`,
  );
  try {
    for (;;) {
      const choice = await review(w, opts.dryRun ? 'Show the request bodies (dry run, nothing is sent)' : 'Submit');
      if (choice === 'quit') {
        w.save();
        ctx.io.stderr.write(`Draft saved. Continue with: ${resumeCmd}\n`);
        return ExitCode.INTERRUPTED;
      }
      const bodies = buildBodies(form, entity, w.doc);
      if (opts.dryRun) {
        ctx.io.stderr.write(`Dry run: nothing was sent; the draft is kept (${resumeCmd}).\n`);
        return dryRun(ctx, bodies, opts, false);
      }
      const result = await submit(ctx, { form, entity, bodies, doc: w.doc, drafts, output: opts, wizard: w });
      if (result === 'again') continue;
      return result;
    }
  } catch (err) {
    if (err instanceof InterruptedError && !(err as { created?: boolean }).created) {
      try {
        w.save();
      } catch {
        /* the message below still helps */
      }
      ctx.io.stderr.write(`\nYour answers are saved. Continue with: ${resumeCmd}\n`);
    }
    throw err;
  }
}

/** What a draft keeps: the answers, asked questions and back history without secrets. */
function kept(form: FormSchema, doc: Record<string, unknown>, asked: Iterable<string>, history: readonly string[] = []): { answers: Record<string, unknown>; asked: string[]; history: string[] } {
  const { answers, asked: rest, history: back } = withoutSecrets(form, doc, asked, history);
  return { answers, asked: rest, history: back };
}

/** `--body-file`: the POST body as written, shown, confirmed (or --yes), sent once. */
async function createFromBody(opts: CreateOptions, path: string, ctx: Context, prompter: Prompter): Promise<number> {
  const file = await readBodyFile(path, ctx);
  if (opts.entity !== undefined && file.entity !== undefined && file.entity !== opts.entity) {
    throw new UsageError(`${path} names entity "${String(file.entity).slice(0, 80)}" but --entity is "${opts.entity}"`, 'Drop one of them, or make them agree.', 'INVALID_BODY_FILE');
  }
  const entity = opts.entity ?? (typeof file.entity === 'string' ? file.entity : undefined);
  if (entity === undefined) throw new UsageError('Which legal entity? Pass --entity NAME or put "entity" in the body', undefined, 'MISSING_ENTITY');
  const { entity: _e, ...rest } = file;
  const body = { entity, ...rest };
  if (opts.dryRun) {
    await writeRecord(ctx.io, ctx.io.stdout, body, { format: 'json', jq: opts.jq, fields: opts.fields });
    ctx.log.info('Dry run: nothing was sent.');
    return ExitCode.OK;
  }
  const http = await ctx.http();
  const form = await formIfReadable(ctx, () => getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity }));
  if (!(await confirmSend(ctx, prompter, { what: 'POST /v1/employees/gp-employments', body, form, yes: opts.yes }))) {
    ctx.io.stderr.write('Nothing was sent.\n');
    return ExitCode.INTERRUPTED;
  }
  let created: Record<string, unknown>;
  try {
    created = await createGpEmployment(http, body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      throw new CliError(`An employee with these details already exists: ${err.message}`, { code: 'CONFLICT', exitCode: ExitCode.CONFLICT, hint: 'Nothing was created. Look for them with: partner employees list --all --fields employeeCode,fullName,workEmail,status' });
    }
    if (err instanceof NetworkError && (err.cause as { code?: string } | undefined)?.code !== 'ECONNREFUSED') {
      throw new NetworkError(`The create request was sent but no answer came back (${err.message}); the employee may exist`, 'It is not retried automatically. Check with: partner employees list --all --fields id,employeeCode,workEmail,status', 'MAYBE_CREATED', err);
    }
    throw err;
  }
  await printCreated(ctx, created, opts);
  const who = typeof created.employeeCode === 'string' ? created.employeeCode : String(created.id ?? '');
  const next = form && dynamicKeys(form).length ? `\nNext: send its dynamic details (${dynamicKeys(form).join(', ')}) with \`partner dynamic-details submit ${who} --body-file patch.json\`.` : '';
  ctx.io.stderr.write(`${ctx.errColors.green('✓')} Created ${who} (${String(created.status ?? 'ONBOARDING')}).${next}\n`);
  return ExitCode.OK;
}

async function askEntity(ctx: Context, prompter: Prompter): Promise<string> {
  let names: string[] = [];
  try {
    const page = await listEmployees(await ctx.http(), { pageSize: 100 }, ctx.signal);
    names = [...new Set(page.data.map((e) => e.entity).filter((e): e is string => typeof e === 'string' && e !== ''))].sort();
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    ctx.log.debug(`could not list entities: ${(err as Error).message}`);
  }
  const OTHER = '\u0000other';
  if (names.length) {
    const pick = await prompter.select<string>({ message: 'Legal entity', help: 'The entity that employs the new hire.', choices: [...names.map((n) => ({ name: sanitizeTerminal(n), value: n })), { name: 'Another entity…', value: OTHER }] });
    if (pick !== OTHER) return pick;
  }
  const text = await prompter.input({ message: 'Legal entity name', validate: (v) => (v.trim() === '' ? 'The entity name is required' : true) });
  return text.trim();
}

async function dryRun(ctx: Context, bodies: Bodies, opts: CreateOptions, say = true): Promise<number> {
  // The bodies are JSON whatever the terminal: they are what would be sent.
  await writeRecord(ctx.io, ctx.io.stdout, { create: bodies.create, dynamicDetails: bodies.dynamic ?? null }, { format: 'json', jq: opts.jq, fields: opts.fields });
  if (say) ctx.log.info('Dry run: the values are valid; nothing was sent.');
  return ExitCode.OK;
}

interface SubmitInput {
  form: FormSchema;
  entity: string;
  bodies: Bodies;
  doc: Record<string, unknown>;
  drafts: import('../../forms/drafts.js').DraftStore;
  /** The command's options, for how the result is printed. */
  output: CreateOptions;
  wizard?: Wizard;
}

/**
 * POST (never retried), then PATCH the dynamic sections. Returns the exit
 * code, or 'again' when the wizard should review again (422 asked again, 409 explained).
 */
async function submit(ctx: Context, s: SubmitInput): Promise<number | 'again'> {
  const { form, entity, drafts, wizard: w } = s;
  const http = await ctx.http();
  const resumeCmd = `partner gp create --entity ${q(entity)} --resume`;
  const email = workEmailOf(form, s.doc);
  let created: Record<string, unknown>;
  try {
    ctx.log.info(`Creating the employee…`);
    created = await createGpEmployment(http, s.bodies.create);
  } catch (err) {
    // Nothing typed is lost: values from --from-file/--set become a draft that
    // `--resume` walks through (each question pre-filled), whatever went wrong.
    if (!w) {
      drafts.saveGp({ entity, ...kept(form, s.doc, []) });
      ctx.io.stderr.write(`Your values are kept as a draft: ${resumeCmd} (or fix the file and run again).${secretsNotKeptHint(form, s.doc)}\n`);
    }
    if (isFieldRejection(err)) {
      const issues = issuesFromApi(form, err);
      if (w) {
        w.prompter.note(ctx.errColors.red(`\nThe server refused ${issues.length === 1 ? 'an answer' : 'some answers'}; they are asked again:`));
        await fixIssues(w, issues);
        return 'again';
      }
      ctx.io.stderr.write(`The server refused these values:\n${issues.map((i) => `  ${sanitizeTerminal(i.path)}: ${sanitizeTerminal(i.text)}\n`).join('')}`);
      throw err;
    }
    if (err instanceof ApiError && err.status === 409) {
      const message = `An employee with these details already exists${email ? ` (work e-mail ${email})` : ''}: ${err.message}`;
      const look = 'partner employees list --all --fields employeeCode,fullName,workEmail,status';
      if (w) {
        w.prompter.note(ctx.errColors.red(`\n${sanitizeTerminal(message)}`));
        w.prompter.note(`Nothing was created. Change an answer (such as the work e-mail) and submit again, or quit and look for them with: ${look}`);
        return 'again';
      }
      throw new CliError(message, { code: 'CONFLICT', exitCode: ExitCode.CONFLICT, hint: `Nothing was created. Look for the existing employee with: ${look}` });
    }
    if (err instanceof NetworkError || err instanceof InterruptedError) {
      const cause = (err.cause as { code?: string } | undefined)?.code;
      const notSent = err instanceof NetworkError && (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EAI_AGAIN');
      w?.save();
      if (notSent) {
        if (w) ctx.io.stderr.write(`Nothing was sent. Your answers are kept: ${resumeCmd}\n`);
        throw err;
      }
      const check = `partner employees list --all --fields id,employeeCode,workEmail,status${email ? ` (look for ${email})` : ''}`;
      const keep = w ? ` Your answers are kept: ${resumeCmd}` : '';
      if (err instanceof InterruptedError) {
        ctx.io.stderr.write(`\nInterrupted after the create request was sent: the employee may exist. Check with: ${check}.${keep}\n`);
        Object.assign(err, { created: true });
        throw err;
      }
      throw new NetworkError(`The create request was sent but no answer came back (${err.message}); the employee may exist`, `The request is not retried automatically. Check before trying again: ${check}.${keep}`, 'MAYBE_CREATED', err);
    }
    throw err;
  }

  const id = String(created.id ?? '');
  const code = typeof created.employeeCode === 'string' ? created.employeeCode : undefined;
  drafts.deleteGp(entity);
  let exit: number = ExitCode.OK;
  let body = s.bodies.dynamic;
  const finishCmd = `partner dynamic-details submit ${id} --resume`;
  const dynSections = dynamicKeys(form);
  if (body && id) {
    const inDyn = (a: string) => dynSections.includes(a.split('.')[0]);
    const saveDyn = () => drafts.saveDynamic({ employeeId: id, employeeCode: code, entity, ...kept(form, dynamicPart(form, s.doc), w ? [...w.asked].filter(inDyn) : [], w?.history?.filter(inDyn)) });
    saveDyn();
    for (;;) {
      try {
        await submitDynamicDetails(http, id, body);
        drafts.deleteDynamic(id);
        break;
      } catch (err) {
        if (err instanceof InterruptedError) {
          ctx.io.stderr.write(`\nEmployee ${code ?? id} was created; its dynamic details may not be saved. Finish with: ${finishCmd}\n`);
          await printCreated(ctx, created, s.output);
          Object.assign(err, { created: true });
          throw err;
        }
        if (w && isFieldRejection(err)) {
          w.prompter.note(ctx.errColors.red(`\nEmployee ${code ?? id} was created, but the server refused some dynamic details; they are asked again:`));
          const dw: Wizard = { ...w, sections: dynSections, save: saveDyn };
          try {
            await fixIssues(dw, issuesFromApi(form, err));
            const choice = await review(dw, 'Submit the dynamic details');
            if (choice === 'submit') {
              body = dynamicBody(form, s.doc);
              if (body) continue;
              break;
            }
          } catch (inner) {
            if (inner instanceof InterruptedError) {
              ctx.io.stderr.write(`\nEmployee ${code ?? id} was created. Finish its dynamic details with: ${finishCmd}\n`);
              await printCreated(ctx, created, s.output);
              Object.assign(inner, { created: true });
            }
            throw inner;
          }
          ctx.io.stderr.write(`Finish the dynamic details later with: ${finishCmd}\n`);
          exit = ExitCode.INTERRUPTED;
          break;
        }
        const detail = err instanceof ApiError && err.details.length ? `\n${err.details.map((d) => `  ${sanitizeTerminal(d.field)}: ${sanitizeTerminal(d.message)}`).join('\n')}` : '';
        ctx.io.stderr.write(
          `${ctx.errColors.red('Error:')} Employee ${code ?? id} was created, but its dynamic details (${dynSections.join(', ')}) were not saved: ${sanitizeTerminal((err as Error).message)}${detail}\n` +
            `Your answers for them are kept. Finish with: ${finishCmd}${w ? '' : secretsNotKeptHint(form, dynamicPart(form, s.doc))}\n`,
        );
        exit = exitCodeFor(err);
        break;
      }
    }
  }
  await printCreated(ctx, created, s.output);
  if (exit === ExitCode.OK) {
    ctx.io.stderr.write(`${ctx.errColors.green('✓')} Created ${code ?? id} (${String(created.status ?? 'ONBOARDING')}).\nNext: follow the onboarding with \`partner employees list --employee-code ${code ?? '<code>'}\`.\n`);
  }
  return exit;
}

async function printCreated(ctx: Context, created: Record<string, unknown>, opts: CreateOptions): Promise<void> {
  await writeRecord(ctx.io, ctx.io.stdout, created, outputOptions(opts, ctx.io), {
    table: () => renderKeyValue({ id: created.id, employeeCode: created.employeeCode, status: created.status }),
  });
}
