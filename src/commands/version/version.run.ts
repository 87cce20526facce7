import type { OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { writeRecord } from '../../output/writer.js';
import { buildInfo, versionLine } from '../../version.js';
import type { version } from './version.js';

export async function run(opts: OptionsOf<typeof version>, ctx: Context): Promise<void> {
  const build = buildInfo();
  const info = { version: build.version, commit: build.commit, buildDate: build.date, node: ctx.system.node, platform: `${ctx.system.platform}-${ctx.system.arch}` };
  await writeRecord(ctx.io, ctx.io.stdout, info, opts.out, {
    table: () => `partner ${versionLine(build)}\nNode.js ${info.node}\nPlatform ${info.platform}\n`,
  });
}
