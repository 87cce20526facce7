// The one create-and-submit flow of the form commands (gp create and
// dynamic-details submit): which draft to start from, values from a file or
// --set checked before anything is sent, or the wizard -> review -> send
// loop; a draft kept, replaced or handed over by the same rules for both.
// What is sent, and how its answer is read, is the command's `send`.
import { whenAgo } from '../text/when.js';
import { suggestion } from '../text/command-line.js';
import { wrapMessage } from '../text/wrap.js';
import type { FormContext } from './form-context.js';
import { ApiError, CliError, ExitCode, InterruptedError, MaybeCreatedError, NetworkError, UsageError } from '../errors.js';
import { draftName } from './drafts.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { collectValues, failWithIssues, fillFixed, issuesOf, type ValueFlags } from './inputs.js';
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

/** One saved draft as the flow sees it. */
export interface SlotDraft {
  id: string;
  answers: Record<string, unknown>;
  asked: string[];
  history?: string[];
  savedAt: string;
}

/** The drafts of one entity (gp create) or employee (dynamic-details submit) as the flow sees them; the command keeps secrets out. */
export interface DraftSlot {
  /** This entity's (employee's) drafts, newest first. */
  list(): SlotDraft[];
  /** A new draft id (no file yet). */
  newId(): string;
  /** Saves draft `id`: only ever the run's own. */
  save(id: string, doc: Record<string, unknown>, asked: Iterable<string>, history: readonly string[]): void;
  remove(id: string): void;
  /** Whose draft, for the question (`for Acme GmbH`, `of ACME-00042`), terminal-safe. */
  whose: string;
  /** The command line that continues draft `id` (naming it when there are several). */
  resumeCommand(id: string): string;
  /** The error for --resume when there is no draft. */
  missing(): UsageError;
}

/**
 * The draft of this run, handed to `send`. A run owns the draft it made, or
 * the one it was told to continue (--resume, --draft, or chosen on the
 * terminal); values given without the wizard are kept, on failure, as a new
 * draft of their own: a scripted run never replaces or deletes another's.
 */
export interface RunDraft {
  /** The command that continues this run's draft. */
  resumeCommand(): string;
  /** Values given without the wizard, kept after a failed send as a draft of their own; returns the command that continues it. */
  keep(doc: Record<string, unknown>): string;
  /** After a successful send: the draft this run made or continued is deleted, no other. */
  done(): void;
}

export interface FormFlow {
  ctx: FormContext;
  prompter: Prompter;
  form: FormSchema;
  /** The sections this command fills. */
  sections: string[];
  draft: DraftSlot;
  /** Ask on the terminal (no values given, a person there). */
  interactive: boolean;
  resume: boolean;
  /** --draft ID: continue this draft (implies resume). */
  draftId?: string;
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
  send(doc: Record<string, unknown>, run: RunDraft, wizard?: Wizard): Promise<Outcome>;
}

/** The answers a run starts from, its own draft's id, and the draft it continues (if any) or set aside. */
interface Start {
  doc: Record<string, unknown>;
  asked: Set<string>;
  history: string[];
  /** The draft this run saves into (continued, or new). */
  id: string;
  /** The draft it continues: deleted after a successful send. */
  resumed?: string;
  /** When the draft offered and declined was saved (it stays on disk, untouched). */
  setAside?: string;
}

/** "2026-11-28 01:42 UTC": when a draft was saved, for the picker and messages. */
export function savedWhen(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : sanitizeTerminal(iso.slice(0, 40));
}

/** "saved 3 min ago, 00:21": when a draft was saved, for a person (a saved time that is no time is shown cut and cleaned). */
function savedAgo(iso: string, now: number): string {
  const when = whenAgo(iso, now);
  return `saved ${when === iso ? sanitizeTerminal(iso.slice(0, 40)) : when}`;
}

/** One draft in the picker (a terminal): when, in local time and how long ago ("3 min ago, 00:21"), who, id. */
function choiceName(d: SlotDraft, now: number): string {
  const name = draftName(d.answers);
  return `${savedAgo(d.savedAt, now)}  ${name ? sanitizeTerminal(name) : '(no name yet)'}  [${d.id}]`;
}

async function pick(f: FormFlow, drafts: SlotDraft[], message: string, startNew?: string): Promise<SlotDraft | undefined> {
  const NEW = '\u0000new';
  const now = f.ctx.clock.now();
  const choices = drafts.map((d) => ({ name: choiceName(d, now), value: d.id }));
  const id = await f.prompter.select<string>({ message, help: 'Newest first.', choices: startNew ? [...choices, { name: startNew, value: NEW }] : choices });
  return drafts.find((d) => d.id === id);
}

/** The draft --resume continues: the only one, the one --draft names, or the one picked on a terminal. */
async function toResume(f: FormFlow): Promise<SlotDraft> {
  const drafts = f.draft.list();
  if (f.draftId !== undefined) {
    const d = drafts.find((x) => x.id === f.draftId);
    if (!d) throw new UsageError(`No draft ${f.draftId} ${f.draft.whose}`, suggestion('See the drafts with:', 'partner drafts list'), 'NO_DRAFT');
    return d;
  }
  if (drafts.length === 0) throw f.draft.missing();
  if (drafts.length === 1) return drafts[0]!;
  if (!f.ctx.io.canPrompt) {
    const list = drafts.map((d) => `  ${d.id}  ${savedWhen(d.savedAt)}  ${sanitizeTerminal(draftName(d.answers)) || '(no name yet)'}`).join('\n');
    throw new UsageError(`There are ${drafts.length} drafts ${f.draft.whose}; say which one to continue:\n${list}`, `Pass --draft ID instead of --resume, for example: ${f.draft.resumeCommand(drafts[0]!.id)}`, 'DRAFT_AMBIGUOUS');
  }
  return (await pick(f, drafts, `Which draft ${f.draft.whose} do you want to continue?`))!;
}

async function start(f: FormFlow): Promise<Start> {
  const fresh = (): Start => ({ doc: {}, asked: new Set(), history: [], id: f.draft.newId() });
  // Values given without the wizard save (on failure) under an id of their own, never over the draft they continue.
  const from = (d: SlotDraft): Start => ({ doc: d.answers, asked: new Set(d.asked), history: [...(d.history ?? [])], id: f.interactive ? d.id : f.draft.newId(), resumed: d.id });
  if (f.resume || f.draftId !== undefined) {
    const d = await toResume(f);
    f.ctx.log.info(`Resuming the draft ${savedAgo(d.savedAt, f.ctx.clock.now())} (${d.id}).`);
    const note = secretsResumeNote(f.form, d.answers, f.sections);
    if (note) f.ctx.log.info(note);
    return from(d);
  }
  if (!f.interactive) return fresh();
  const drafts = f.draft.list();
  if (drafts.length === 0) return fresh();
  let chosen: SlotDraft | undefined;
  if (drafts.length === 1) {
    const cont = await f.prompter.confirm({ message: `A draft ${f.draft.whose} (${savedAgo(drafts[0]!.savedAt, f.ctx.clock.now())}) exists. Continue it?`, default: true });
    chosen = cont ? drafts[0] : undefined;
  } else {
    chosen = await pick(f, drafts, `${drafts.length} drafts ${f.draft.whose} exist. Continue one?`, 'Start a new one (the drafts are kept)');
  }
  if (chosen) {
    const note = secretsResumeNote(f.form, chosen.answers, f.sections);
    if (note) f.prompter.note(f.ctx.errColors.dim(note));
    return from(chosen);
  }
  const kept = drafts.length === 1 ? `The draft ${savedAgo(drafts[0]!.savedAt, f.ctx.clock.now())} is kept` : `The ${drafts.length} drafts are kept`;
  f.prompter.note(f.ctx.errColors.dim(suggestion(`Starting a new draft. ${kept}; see them with:`, 'partner drafts list')));
  return { ...fresh(), setAside: drafts[0]!.savedAt };
}

/** The run's draft for `send`: saves only under this run's id, deletes only what it made or continued. */
function runDraft(f: FormFlow, s: Start): RunDraft {
  let own: string | undefined;
  return {
    resumeCommand: () => f.draft.resumeCommand(own ?? s.id),
    keep: (doc) => {
      own ??= f.draft.newId();
      f.draft.save(own, doc, [], []);
      return f.draft.resumeCommand(own);
    },
    done: () => {
      for (const id of new Set([s.id, s.resumed, own])) if (id !== undefined) f.draft.remove(id);
    },
  };
}

/** Runs the flow to its exit code. */
export async function runForm(f: FormFlow): Promise<number> {
  const s = await start(f);
  if (!f.interactive) return fromValues(f, s);
  return wizard(f, s);
}

/** Values from a file and --set over the draft (with --resume): every issue listed before anything is sent. */
async function fromValues(f: FormFlow, s: Start): Promise<number> {
  const values = await collectValues(f.form, s.doc, f.values, f.ctx, f.entity);
  const doc = values.doc;
  fillFixed(f.form, doc, f.sections);
  const issues = [...issuesOf(f.form, values, f.sections), ...(f.extraIssues?.(doc) ?? [])];
  if (issues.length) failWithIssues(f.ctx, issues, f.values.fromFile !== undefined || f.values.sets.length > 0);
  if (f.dryRun) return f.showDryRun(doc, false);
  const out = await f.send(doc, runDraft(f, s));
  return out.kind === 'created' ? out.exit : out.kind === 'quit' ? ExitCode.INTERRUPTED : ExitCode.FAILURE;
}

async function wizard(f: FormFlow, s: Start): Promise<number> {
  const { ctx, draft } = f;
  // After a draft was declined (it stays on disk, untouched), this run's own
  // draft is written from the first answer: a question, not a fixed value
  // filled in on the way (history counts answers).
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
      draft.save(s.id, w.doc, w.asked, w.history ?? []);
    },
  };
  f.prompter.note(ctx.errColors.bold(f.title));
  try {
    for (;;) {
      const choice = await review(w, f.dryRun ? f.dryRunLabel : 'Submit');
      if (choice === 'quit') {
        w.save();
        ctx.log.info(suggestion('Draft saved. Continue with:', draft.resumeCommand(s.id)));
        return ExitCode.INTERRUPTED;
      }
      if (f.dryRun) return await f.showDryRun(w.doc, true);
      const out = await f.send(w.doc, runDraft(f, s), w);
      if (out.kind === 'retry') continue;
      return out.kind === 'created' ? out.exit : ExitCode.INTERRUPTED;
    }
  } catch (err) {
    // Ctrl-C before anything may have been created: the answers given are kept.
    if (err instanceof InterruptedError) {
      ctx.io.stderr.write('\n');
      ctx.log.info(keepOnInterrupt(w, replaced || (w.history?.length ?? 0) > 0, s.setAside === undefined ? undefined : savedAgo(s.setAside, ctx.clock.now()), draft.resumeCommand(s.id)));
    }
    throw err;
  }
}

/** Saves what this run answered and says so; with nothing answered, the draft on disk (if any) is left as it was. */
function keepOnInterrupt(w: Wizard, answered: boolean, setAsideSaved: string | undefined, resumeCmd: string): string {
  if (!answered) {
    return setAsideSaved !== undefined ? suggestion(`Nothing new was answered: the draft ${setAsideSaved} is kept. See your drafts with:`, 'partner drafts list') : 'Nothing was answered, so no draft was saved.';
  }
  try {
    w.save();
  } catch {
    return `Your answers could not be saved. Start again with the same command without --resume.`;
  }
  return suggestion('Your answers are saved. Continue with:', resumeCmd);
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
export function createFailure(ctx: Pick<FormContext, 'io'>, err: unknown, o: { email?: string; keep?: string } = {}): unknown {
  // The 409 stays the cause: its status and correlation id are shown (render-error.ts answerOf).
  if (isConflict(err)) return new CliError(conflictMessage(err, o.email), { code: 'CONFLICT', exitCode: ExitCode.CONFLICT, hint: suggestion('Nothing was created. Look for the existing employee with:', LOOK_FOR_EMPLOYEE), cause: err });
  if (!(err instanceof NetworkError || err instanceof InterruptedError) || notSent(err)) return err;
  const check = `${suggestion(`Check with${o.email ? ` (look for ${sanitizeTerminal(o.email)})` : ''}:`, CHECK_CREATED)}`;
  const keep = o.keep ? `\n${o.keep}` : '';
  if (err instanceof InterruptedError) {
    ctx.io.stderr.write(`\n${wrapMessage(`Interrupted after the create request was sent: the employee may exist. ${check}${keep}`, ctx.io.stderrColumns)}\n`);
    return new MaybeCreatedError('Interrupted after the create request was sent: the employee may exist', { interrupted: true, hint: `${check}${keep}`, cause: err });
  }
  return new MaybeCreatedError(`The create request was sent but no answer came back (${err.message}); the employee may exist`, { hint: `The request is not retried automatically. Check before trying again: ${check}${keep}`, cause: err });
}
