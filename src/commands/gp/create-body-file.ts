// gp create --body-file: a hand-written POST body, shown, confirmed (or
// --yes), sent once, whatever the form's format.
import type { Context } from '../../context.js';
import { createGpEmployment, getFormSchema } from '../../api/employees.js';
import { ExitCode, UsageError } from '../../errors.js';
import { createFailure } from '../../forms/flow.js';
import { dynamicKeys } from '../../forms/bodies.js';
import { confirmSend, dryRunBody, formIfReadable, readBodyFile } from '../../forms/body-file.js';
import type { Prompter } from '../../forms/prompter.js';
import { printCreated } from './create-submit.js';
import type { CreateOptions } from './create.run.js';

/** `--body-file`: the POST body as written, shown, confirmed (or --yes), sent once. */
export async function createFromBody(opts: CreateOptions, path: string, ctx: Context, prompter: Prompter): Promise<number> {
  const file = await readBodyFile(path, ctx);
  if (opts.entity !== undefined && file.entity !== undefined && file.entity !== opts.entity) {
    throw new UsageError(`${path} names entity "${String(file.entity).slice(0, 80)}" but --entity is "${opts.entity}"`, 'Drop one of them, or make them agree.', 'INVALID_BODY_FILE');
  }
  const entity = opts.entity ?? (typeof file.entity === 'string' ? file.entity : undefined);
  if (entity === undefined) throw new UsageError('Which legal entity? Pass --entity NAME or put "entity" in the body', undefined, 'MISSING_ENTITY');
  const { entity: _e, ...rest } = file;
  const body = { entity, ...rest };
  // Read for masking only (a GET; a dry run without credentials shows the body unmasked): the body is sent as written.
  const form = await formIfReadable(ctx, async () => getFormSchema(await ctx.http(), { employmentType: 'GLOBAL_PAYROLL', entity }));
  if (opts.dryRun) return dryRunBody(ctx, body, form, opts);
  const http = await ctx.http();
  if (!(await confirmSend(ctx, prompter, { what: 'POST /v1/employees/gp-employments', body, form, yes: opts.yes, reveal: opts.reveal }))) {
    ctx.io.stderr.write('Nothing was sent.\n');
    return ExitCode.INTERRUPTED;
  }
  let created: Record<string, unknown>;
  try {
    created = await createGpEmployment(http, body);
  } catch (err) {
    // The same reading of a failed create as the wizard's (forms/flow.ts).
    throw createFailure(ctx, err);
  }
  await printCreated(ctx, created, opts);
  const who = typeof created.employeeCode === 'string' ? created.employeeCode : String(created.id ?? '');
  const next = form && dynamicKeys(form).length ? `\nNext: send its dynamic details (${dynamicKeys(form).join(', ')}) with \`partner dynamic-details submit ${who} --body-file patch.json\`.` : '';
  ctx.log.info(`${ctx.errColors.green('✓')} Created ${who} (${String(created.status ?? 'ONBOARDING')}).${next}`);
  return ExitCode.OK;
}
