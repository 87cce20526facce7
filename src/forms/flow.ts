// The one create-and-submit flow of the form commands (gp create and
// dynamic-details submit): which draft to start from, values from a file or
// --set checked before anything is sent, or the wizard -> review -> send
// loop; a draft kept, replaced or handed over by the same rules for both.
// What is sent, and how its answer is read, is the command's `send`.
import { wrapMessage } from '../text/wrap.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode, InterruptedError, MaybeCreatedError, NetworkError, type UsageError } from '../errors.js';
import { sanitizeTerminal } from '../output/sanitize.js';
import { collectValues, failWithIssues, fillFixed, validateSections, type ValueFlags } from './inputs.js';
import type { Prompter } from './prompter.js';
import { review } from './review.js';
import type { FormSchema } from './schema.js';
import { secretsResumeNote } from './secrets.js';
import type { FieldIssue } from './validate.js';
import type { Wizard } from './wizard.js';

/**
 * What one send came to: `created` (done; `exit` says whether all of it was
 * saved), `retry` (the wizard reviews again: refused answers were asked
 * again, or a conflict was explained), `quit` (the person left the review).
 */
export type Outcome = { kind: 'created'; exit: number } | { kind: 'retry' } | { kind: 'quit' };

/** A draft as the flow sees it; the command knows its file (per entity, per employee) and keeps secrets out. */
export interface DraftSlot {
  load(): { answers: Record<string, unknown>; asked: string[]; history?: string[]; savedAt: string } | undefined;
  save(doc: Record<string, unknown>, asked: Iterable<string>, history: readonly string[]): void;
  /** Whose draft, for the question (`for Acme GmbH`, `of ACME-00042`), terminal-safe. */
  whose: string;
  /** The command line that continues it. */
  resumeCommand: string;
  /** The error for --resume when there is no draft. */
  missing(): UsageError;
}

export interface FormFlow {
  ctx: Context;
  prompter: Prompter;
  form: FormSchema;
  /** The sections this command fills. */
  sections: string[];
  draft: DraftSlot;
  /** Ask on the terminal (no values given, a person there). */
  interactive: boolean;
  resume: boolean;
  dryRun: boolean;
  /** --from-file / --set given. */
  values: ValueFlags;
  /** The entity a values file must agree with (gp create). */
  entity?: string;
  /** The wizard's first line. */
  title: string;
  /** The review's submit choice in a dry run. */
  dryRunLabel: string;
  /** Issues of the values beyond the form's own rules (a section that is not this command's). */
  extraIssues?(doc: Record<string, unknown>): FieldIssue[];
  /** A dry run: prints what would be sent; `wizard` when the answers came from the wizard. */
  showDryRun(doc: Record<string, unknown>, wizard: boolean): Promise<number>;
  /** Sends the answers. With a wizard, refused answers are asked again (`retry`); without, failures throw. */
  send(doc: Record<string, unknown>, wizard?: Wizard): Promise<Outcome>;
}

/** The answers a run starts from, and whether an earlier draft was set aside (kept on disk until the first new answer). */
interface Start {
  doc: Record<string, unknown>;
  asked: Set<string>;
  history: string[];
  setAside?: string;
}

async function start(f: FormFlow): Promise<Start> {
  const existing = f.draft.load();
  const fresh: Start = { doc: {}, asked: new Set(), history: [] };
  const from = (d: NonNullable<typeof existing>): Start => ({ doc: d.answers, asked: new Set(d.asked), history: [...(d.history ?? [])] });
  if (f.resume) {
    if (!existing) throw f.draft.missing();
    f.ctx.log.info(`Resuming the draft saved at ${existing.savedAt}.`);
    const note = secretsResumeNote(f.form, existing.answers, f.sections);
    if (note) f.ctx.log.info(note);
    return from(existing);
  }
  if (!existing || !f.interactive) return fresh;
  const cont = await f.prompter.confirm({ message: `A draft ${f.draft.whose} saved at ${existing.savedAt} exists. Continue it?`, default: true });
  if (cont) {
    const note = secretsResumeNote(f.form, existing.answers, f.sections);
    if (note) f.prompter.note(f.ctx.errColors.dim(note));
    return from(existing);
  }
  f.prompter.note(f.ctx.errColors.dim(`Starting over. The draft saved at ${existing.savedAt} is kept until your first answer replaces it.`));
  return { ...fresh, setAside: existing.savedAt };
}

/** Runs the flow to its exit code. */
export async function runForm(f: FormFlow): Promise<number> {
  const s = await start(f);
  if (!f.interactive) return fromValues(f, s.doc);
  return wizard(f, s);
}

/** Values from a file and --set over the draft (with --resume): every issue listed before anything is sent. */
async function fromValues(f: FormFlow, base: Record<string, unknown>): Promise<number> {
  const values = await collectValues(f.form, base, f.values, f.ctx, f.entity);
  const doc = values.doc;
  fillFixed(f.form, doc, f.sections);
  const issues = [...values.issues, ...validateSections(f.form, doc, f.sections), ...(f.extraIssues?.(doc) ?? [])];
  if (issues.length) failWithIssues(f.ctx, issues, f.values.fromFile !== undefined || f.values.sets.length > 0);
  if (f.dryRun) return f.showDryRun(doc, false);
  const out = await f.send(doc);
  return out.kind === 'created' ? out.exit : out.kind === 'quit' ? ExitCode.INTERRUPTED : ExitCode.FAILURE;
}

async function wizard(f: FormFlow, s: Start): Promise<number> {
  const { ctx, draft } = f;
  // A set-aside draft stays on disk until the person answers something: a
  // question, not a fixed value filled in on the way (history counts answers).
  let replaced = s.setAside === undefined;
  const w: Wizard = {
    form: f.form,
    doc: s.doc,
    asked: s.asked,
    sections: f.sections,
    prompter: f.prompter,
    colors: ctx.errColors,
    history: s.history,
    save: () => {
      if (!replaced && (w.history?.length ?? 0) === 0) return;
      replaced = true;
      draft.save(w.doc, w.asked, w.history ?? []);
    },
  };
  f.prompter.note(ctx.errColors.bold(f.title));
  try {
    for (;;) {
      const choice = await review(w, f.dryRun ? f.dryRunLabel : 'Submit');
      if (choice === 'quit') {
        w.save();
        ctx.log.info(`Draft saved. Continue with: ${draft.resumeCommand}`);
        return ExitCode.INTERRUPTED;
      }
      if (f.dryRun) return await f.showDryRun(w.doc, true);
      const out = await f.send(w.doc, w);
      if (out.kind === 'retry') continue;
      return out.kind === 'created' ? out.exit : ExitCode.INTERRUPTED;
    }
  } catch (err) {
    // Ctrl-C before anything may have been created: the answers given are kept.
    if (err instanceof InterruptedError) {
      ctx.io.stderr.write('\n');
      ctx.log.info(keepOnInterrupt(w, replaced || (w.history?.length ?? 0) > 0, s.setAside, draft.resumeCommand));
    }
    throw err;
  }
}

/** Saves what this run answered and says so; with nothing answered, the draft on disk (if any) is left as it was. */
function keepOnInterrupt(w: Wizard, answered: boolean, setAside: string | undefined, resumeCmd: string): string {
  if (!answered) {
    return setAside !== undefined ? `Nothing new was answered: the draft saved at ${setAside} is kept. Continue it with: ${resumeCmd}` : 'Nothing was answered, so no draft was saved.';
  }
  try {
    w.save();
  } catch {
    return `Your answers could not be saved. Start again with the same command without --resume.`;
  }
  return `Your answers are saved. Continue with: ${resumeCmd}`;
}

export const LOOK_FOR_EMPLOYEE = 'partner employees list --all --fields employeeCode,fullName,workEmail,status';
const CHECK_CREATED = 'partner employees list --all --fields id,employeeCode,workEmail,status';

/** A 409 to a create: nothing was created, an employee with these details exists. */
export function isConflict(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 409;
}

/**
 * The conflict as words: what exists (with the work e-mail when known), then
 * the server's message only when it adds something: not when it says the
 * same again ("an employee with work email X already exists", the spec's
 * sample "resource already exists or state conflict").
 */
export function conflictMessage(err: ApiError, email?: string): string {
  const head = `An employee with these details already exists${email ? ` (work e-mail ${email})` : ''}`;
  const said = err.message.trim();
  const same = said === '' || said === `HTTP ${err.status}` || /already exists/i.test(said) || (email !== undefined && said.toLowerCase().includes(email.toLowerCase()));
  return same ? head : `${head}: ${said}`;
}

/** A failure of a create request that never left this machine (refused, no such host): safe to try again. */
export function notSent(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause?.code;
  return err instanceof NetworkError && (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EAI_AGAIN');
}

/**
 * What a failed create request means, as the typed error to throw: a 409 is
 * CONFLICT (exit 6, nothing created); no answer after sending, or Ctrl-C
 * while waiting, is MaybeCreatedError; anything else is returned unchanged.
 * `keep` is added to the hint (where the answers are kept). After Ctrl-C the
 * CLI prints only "Interrupted.", so the words go to stderr here.
 */
export function createFailure(ctx: Pick<Context, 'io'>, err: unknown, o: { email?: string; keep?: string } = {}): unknown {
  // The 409 stays the cause: its status and correlation id are shown (render-error.ts answerOf).
  if (isConflict(err)) return new CliError(conflictMessage(err, o.email), { code: 'CONFLICT', exitCode: ExitCode.CONFLICT, hint: `Nothing was created. Look for the existing employee with: ${LOOK_FOR_EMPLOYEE}`, cause: err });
  if (!(err instanceof NetworkError || err instanceof InterruptedError) || notSent(err)) return err;
  const check = `${CHECK_CREATED}${o.email ? ` (look for ${sanitizeTerminal(o.email)})` : ''}`;
  const keep = o.keep ? ` ${o.keep}` : '';
  if (err instanceof InterruptedError) {
    ctx.io.stderr.write(`\n${wrapMessage(`Interrupted after the create request was sent: the employee may exist. Check with: ${check}.${keep}`, ctx.io.stderrColumns)}\n`);
    return new MaybeCreatedError('Interrupted after the create request was sent: the employee may exist', { interrupted: true, hint: `Check with: ${check}.${keep}`, cause: err });
  }
  return new MaybeCreatedError(`The create request was sent but no answer came back (${err.message}); the employee may exist`, { hint: `The request is not retried automatically. Check before trying again: ${check}.${keep}`, cause: err });
}
