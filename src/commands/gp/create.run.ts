// gp create: which path (--body-file, --from-csv, values given, or the
// wizard), the entity, the draft to continue; the submit is create-submit.ts.
import type { Context } from '../../context.js';
import { getFormSchema, listEmployees } from '../../api/employees.js';
import { InterruptedError, UsageError } from '../../errors.js';
import type { OptionsOf } from '../../command.js';
import type { create } from './create.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { buildBodies } from '../../forms/bodies.js';
import { loadServerForm } from '../../forms/load.js';
import { bulkOnboard, graceSignal } from '../../forms/bulk/onboard.js';
import { AdaptiveConcurrency } from '../../api/adaptive-concurrency.js';
import { readSheet } from '../../forms/bulk/read.js';
import { defaultResultsPath } from '../../forms/bulk/results.js';
import { checkFiles } from '../../config/own-files.js';
import { readValuesFile } from '../../forms/inputs.js';
import type { Prompter } from '../../forms/prompter.js';
import { runForm } from '../../forms/flow.js';
import { createFromBody } from './create-body-file.js';
import { dryRun, kept, resumeCommand, submit } from './create-submit.js';
import type { DraftStore, GpDraft } from '../../forms/drafts.js';
import { partnerCommand, q, suggestion } from '../../text/command-line.js';
import { sortNames } from '../../forms/typed-text.js';

export type CreateOptions = OptionsOf<typeof create>;

export async function run(opts: CreateOptions, ctx: Context): Promise<number> {
  return createRun(opts, ctx, await ctx.prompter());
}

/** The command with its prompter injected (tests script the answers). */
export async function createRun(opts: CreateOptions, ctx: Context, prompter: Prompter): Promise<number> {
  if (opts.bodyFile !== undefined) return createFromBody(opts, opts.bodyFile, ctx, prompter);
  if (opts.fromCsv !== undefined) {
    if (opts.entity === undefined) throw new UsageError('--from-csv needs --entity NAME, the legal entity that hires every row', undefined, 'MISSING_ENTITY');
    // The default results file (beside the sheet) is checked as an explicit --results is (command.ts): never an own file.
    if (opts.results === undefined && opts.fromCsv !== '-' && !opts.dryRun) {
      checkFiles([{ flag: '--results (default)', path: defaultResultsPath(opts.fromCsv), role: 'output' }, { flag: '--from-csv', path: opts.fromCsv, role: 'input' }], ctx.env);
    }
    // A bad file (size, encoding, header) is reported before any request.
    const sheet = await readSheet(opts.fromCsv, { stdin: ctx.io.stdin, signal: ctx.signal, encoding: opts.encoding });
    const adaptive = new AdaptiveConcurrency({ max: opts.concurrency, onChange: (n, why) => ctx.log.debug(`rows in flight: ${n} (${why})`) });
    const http = await ctx.http({
      // One connection per row in flight: node:http hands a kept connection to the next request at once.
      connections: opts.concurrency,
      // After Ctrl-C the rows in flight may finish (bounded); no new row starts.
      signal: graceSignal(ctx.signal),
      onRetry: (e) => {
        if (e.status === 429 || e.status === 503) adaptive.congestion(e.waitMs);
      },
    });
    const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: opts.entity }), ctx.log);
    if (ctx.signal.aborted) throw new InterruptedError();
    return bulkOnboard(ctx, http, form, { entity: opts.entity, csvPath: opts.fromCsv, resultsPath: opts.results, skipInvalid: opts.skipInvalid, dryRun: opts.dryRun, sheet, concurrency: opts.concurrency, adaptive });
  }
  const fileMode = opts.fromFile !== undefined || opts.sets.length > 0;
  const interactive = ctx.io.canPrompt && !fileMode;
  const http = await ctx.http();

  const drafts = await ctx.drafts();
  // --draft ID names its entity: --entity may be left out.
  let entity = opts.entity ?? (opts.draft !== undefined ? gpDraft(drafts, opts.draft).entity : undefined);
  if (entity === undefined) {
    if (!interactive) throw new UsageError('--entity is required here', 'Pass --entity NAME, the legal entity that hires the employee (no prompts: not a terminal, CI, --no-input, or values given).', 'MISSING_ENTITY');
    entity = await askEntity(ctx, prompter);
  }
  const hired = entity;
  // A bad values file or a missing draft is reported before anything is sent.
  const fileValues = opts.fromFile !== undefined ? await readValuesFile(opts.fromFile, ctx) : undefined;
  const missing = () => new UsageError(`No saved draft for entity "${hired}"`, suggestion('Start one with:', partnerCommand(ctx.globals, `gp create --entity ${q(hired)}`)), 'NO_DRAFT');
  if (opts.draft !== undefined) checkDraftEntity(drafts, opts.draft, hired);
  else if (opts.resume && drafts.gpDrafts(hired).length === 0) throw missing();
  const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity: hired }), ctx.log);
  const resumeCmd = (id: string) => resumeCommand(ctx, drafts, hired, id);

  return runForm({
    ctx,
    prompter,
    form,
    sections: form.sections.map((s) => s.key),
    // Secret answers stay in memory only: the draft file never holds them.
    draft: {
      list: () => drafts.gpDrafts(hired),
      newId: () => drafts.newId(),
      save: (id, doc, asked, history) => drafts.saveGp(id, { entity: hired, ...kept(form, doc, asked, history) }),
      remove: (id) => void drafts.delete(id),
      whose: `for ${sanitizeTerminal(hired)}`,
      resumeCommand: resumeCmd,
      missing,
    },
    interactive,
    resume: opts.resume,
    draftId: opts.draft,
    dryRun: opts.dryRun,
    values: { fromFile: opts.fromFile, sets: opts.sets, fileValues },
    entity: hired,
    title: `New GP employee for ${sanitizeTerminal(hired)}`,
    dryRunLabel: 'Show the request bodies (dry run, nothing is sent)',
    showDryRun: async (doc, wizard) => {
      if (wizard) ctx.log.info('Dry run: nothing was sent; the draft is kept (see `partner drafts list`).');
      return dryRun(ctx, form, buildBodies(form, hired, doc), opts, !wizard);
    },
    send: (doc, run, wizard) => submit(ctx, { form, entity: hired, bodies: buildBodies(form, hired, doc), doc, drafts, run, output: opts, wizard }),
  });
}

/** The gp create draft --draft names, or a usage error before anything is sent. */
function gpDraft(drafts: DraftStore, id: string): GpDraft {
  const d = drafts.get(id);
  if (d?.kind !== 'gp-create') throw new UsageError(`No gp create draft ${id}`, suggestion('See the drafts with:', 'partner drafts list'), 'NO_DRAFT');
  return d;
}

/** --draft names a gp create draft of this entity, or nothing is sent. */
function checkDraftEntity(drafts: DraftStore, id: string, entity: string): void {
  const d = gpDraft(drafts, id);
  if (d.entity !== entity) throw new UsageError(`Draft ${id} is for entity "${d.entity.slice(0, 80)}", not "${entity.slice(0, 80)}"`, 'Drop --entity (the draft names its entity), or pass the right draft.', 'NO_DRAFT');
}

async function askEntity(ctx: Context, prompter: Prompter): Promise<string> {
  let names: string[] = [];
  try {
    const page = await listEmployees(await ctx.http(), { pageSize: 100 }, ctx.signal);
    // In the order of the reader's language (Ä with A, not after Z), not by code point.
    names = sortNames([...new Set(page.data.map((e) => e.entity).filter((e): e is string => typeof e === 'string' && e !== ''))]);
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
