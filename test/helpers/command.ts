// Runs a command in-process: its definition parses the arguments, its run
// module gets a real context with the test IO, and its requests go through
// partner's own transport (node:http), stubbed by nock under it. Net connect
// is disabled (an unmatched request fails the command, and the test: a
// command that reports a failure and exits 0 must not hide it) and every stub
// must be used (scope.done()).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { prepareCommand, type CommandDef, type CommandModule } from '../../src/command.js';
import type { Output } from '../../src/output/options.js';
import { createContext, type GlobalOptions } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { rawArgsFor } from './parse.js';
import { noKeyring, type KeyringBackend } from '../../src/config/keyring.js';

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
    /** Stubs of the API's origin (ORIGIN), nock's: `api.get('/v1/employees?page=2').reply(200, {...})`. */
    stub?: (api: nock.Scope) => void;
    tty?: boolean;
    /** stderr a terminal (default: as `tty`): errors are text for a person reading them. */
    stderrTty?: boolean;
    columns?: number;
    stdin?: string;
    globals?: Partial<GlobalOptions>;
    /** Keep config and cache here across calls (the caller removes it); default: a fresh temp dir per call. */
    dir?: string;
    /** Environment over the default one (undefined removes a variable). */
    env?: Record<string, string | undefined>;
    /** The keyring (test/helpers/keyring.ts memoryKeyring); default: none can be reached, never the system's. */
    keyring?: KeyringBackend;
  } = {},
): Promise<InProcessResult> {
  const api = nock(ORIGIN);
  o.stub?.(api);
  const io = testIO({ tty: o.tty, columns: o.columns, stdin: o.stdin });
  if (o.stderrTty !== undefined) io.stderrIsTTY = o.stderrTty;
  // As the entry point does: the output resolved (and --jq compiled) before the command runs.
  const opts = (await prepareCommand(def, rawArgsFor(def, args), raw, {}, { stdoutIsTTY: io.stdoutIsTTY, stderrIsTTY: io.stderrIsTTY })) as { out?: Output };
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'partner-unit-'));
  const ctx = createContext({
    io,
    env: Object.fromEntries(Object.entries({ PARTNER_BASE_URL: ORIGIN, PARTNER_TOKEN: TOKEN, PARTNER_CONFIG_DIR: join(dir, 'config'), PARTNER_CACHE_DIR: join(dir, 'cache'), PARTNER_STATE_DIR: join(dir, 'state'), ...o.env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
    globals: { sandbox: false, debug: false, timeout: 5, color: false, input: false, ...o.globals },
    signal: new AbortController().signal,
    keyring: o.keyring ?? noKeyring,
    needsToken: def.needsToken !== false,
    out: opts.out,
  });
  const unmatched: string[] = [];
  const noMatch = (req: { method?: string; href?: string; host?: string; path?: string }) => unmatched.push(`${req.method ?? ''} ${req.href ?? `${req.host ?? ''}${req.path ?? ''}`}`);
  nock.disableNetConnect();
  nock.emitter.on('no match', noMatch);
  try {
    const mod = (await def.load()) as CommandModule<unknown>;
    const code = (await mod.run(opts, ctx)) ?? 0;
    if (unmatched.length > 0) throw new Error(`requests no stub matched: ${unmatched.join(', ')}`);
    api.done();
    return { code, out: io.out(), err: io.err() };
  } finally {
    await ctx.cleanup();
    nock.emitter.off('no match', noMatch);
    nock.cleanAll();
    nock.enableNetConnect();
    if (!o.dir) rmSync(dir, { recursive: true, force: true });
  }
}
