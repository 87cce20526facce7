// Runs a command in-process: its definition parses the arguments, its run
// module gets a real context with the test IO and an undici MockAgent as the
// HTTP layer. Net connect is disabled (an unmatched request fails the
// command) and every stub must be used (assertNoPendingInterceptors).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent, type Interceptable } from 'undici';
import type { CommandDef, CommandModule } from '../../src/command.js';
import { createContext, type GlobalOptions } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { parserFor } from './parse.js';

export const ORIGIN = 'https://api.partner.test';
export const TOKEN = 'test_token_9f8e7d6c5b4a';

export interface InProcessResult {
  code: number;
  out: string;
  err: string;
}

export async function runInProcess(
  def: CommandDef,
  args: string[],
  raw: Record<string, unknown>,
  o: {
    stub?: (api: Interceptable) => void;
    tty?: boolean;
    columns?: number;
    stdin?: string;
    globals?: Partial<GlobalOptions>;
    /** Keep config and cache here across calls (the caller removes it); default: a fresh temp dir per call. */
    dir?: string;
    /** Environment over the default one (undefined removes a variable). */
    env?: Record<string, string | undefined>;
  } = {},
): Promise<InProcessResult> {
  const agent = new MockAgent();
  agent.disableNetConnect();
  o.stub?.(agent.get(ORIGIN));
  const io = testIO({ tty: o.tty, columns: o.columns, stdin: o.stdin });
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'partner-unit-'));
  const ctx = createContext({
    io,
    env: Object.fromEntries(Object.entries({ PARTNER_BASE_URL: ORIGIN, PARTNER_TOKEN: TOKEN, PARTNER_CONFIG_DIR: join(dir, 'config'), PARTNER_CACHE_DIR: join(dir, 'cache'), ...o.env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
    globals: { sandbox: false, debug: false, timeout: 5, color: false, input: false, ...o.globals },
    signal: new AbortController().signal,
    dispatcher: agent,
    needsToken: def.needsToken !== false,
  });
  try {
    const opts = parserFor(def)(args, raw);
    const mod = (await def.load()) as CommandModule<unknown>;
    const code = (await mod.run(opts, ctx)) ?? 0;
    agent.assertNoPendingInterceptors();
    return { code, out: io.out(), err: io.err() };
  } finally {
    await ctx.cleanup();
    if (!o.dir) rmSync(dir, { recursive: true, force: true });
  }
}
