import type { OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { writeRecord } from '../../output/writer.js';
import type { version } from './version.js';

export async function run(opts: OptionsOf<typeof version>, ctx: Context): Promise<void> {
  const info = { version: ctx.version, node: ctx.system.node, platform: `${ctx.system.platform}-${ctx.system.arch}` };
  await writeRecord(ctx.io, ctx.io.stdout, info, opts.out, {
    table: () => `partner ${info.version}\nNode.js ${info.node}\nPlatform ${info.platform}\n`,
  });
}
