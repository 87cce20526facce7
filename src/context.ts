// The only factory. Everything a command touches comes from here: io (per
// stream), the resolved profile, the HTTP client, the prompter, the drafts
// store and the clock. Expensive members are created on first use (each says
// what it depends on), so a command pays only for what it uses.
import { join } from 'node:path';
import type { Command } from 'commander';
import { wrapMessage } from './text/wrap.js';
import { packageVersion } from './version.js';
import { AuthError, UsageError } from './errors.js';
import type { IO } from './io.js';
import type { HttpClient, RetryEvent } from './api/http.js';
import type { DeliveryClient } from './api/delivery.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedProfile } from './config/resolve.js';
import type { KeyringBackend } from './config/keyring.js';
import type { TokenStore } from './config/token-store.js';
import type { DraftStore } from './forms/drafts.js';
import type { ErrorFormat } from './output/error-format.js';
import type { Prompter } from './forms/prompter.js';
import { colors, writeWarning, type Colors } from './output/colors.js';
import type { Output } from './output/options.js';
import type { Clock, GlobalOptions, Logger, RunBasics } from './run-basics.js';

// Commands take these from here with the rest of their context.
export type { Clock, GlobalOptions, Logger, RunBasics };

export interface HttpOptions {
  /** Keep-alive connections (the page walker's concurrency). */
  connections?: number;
  onRetry?: (e: RetryEvent) => void;
  /** Another origin than the profile's (a key set at --jwks-url); implies no token. */
  baseUrl?: string;
  /** A token other than the profile's (login's check), or null for none (the public key set). */
  token?: string | null;
  /** The total deadline of one request, ms (default: --timeout). */
  timeoutMs?: number;
  /** What stops the client's requests instead of Ctrl-C itself (bulk onboarding: Ctrl-C after a grace, so rows in flight finish). */
  signal?: AbortSignal;
}

export interface DeliveryOptions {
  /** Keep-alive connections per receiver. */
  connections?: number;
  /** The total deadline of one delivery, ms (default: --timeout). */
  timeoutMs?: number;
  /** What stops deliveries instead of Ctrl-C itself (webhook listen: SIGTERM lets forwards in flight finish). */
  signal?: AbortSignal;
}

/**
 * What a command receives. Everything it touches comes from here; expensive
 * members (config file, HTTP client, the in-process sandbox) are created on
 * first use.
 */
export interface Context extends RunBasics {
  version: string;
  /** The runtime: Node.js version, platform and architecture (doctor, `partner version`). */
  system: { node: string; platform: string; arch: string };
  /** The command's resolved output when it prints data (the run receives it as `opts.out`); undefined otherwise. */
  out?: Output;
  /** How this run's errors are printed (the output contract's rule): text, or one JSON object. */
  errors: ErrorFormat;
  /** Colours for what goes to stdout (tables, verdicts). */
  colors: Colors;
  /** Colours for what goes to stderr (prompts, notes, messages). */
  errColors: Colors;
  /** The config file (profiles, tokens); opened on first use. */
  config(): Promise<ConfigStore>;
  /** Where saved tokens live: the system keyring, or the config file (config/token-store.ts). */
  tokens(): Promise<TokenStore>;
  /** Flags > env > profile (config/resolve.ts); with --sandbox, the in-process sandbox. */
  profile(): Promise<ResolvedProfile>;
  /**
   * An HTTP client (api/http.ts: retries, timeouts, proxy, --debug). Without
   * overrides: the one client of the resolved profile, which must have a token
   * unless the command declared `needsToken: false`.
   */
  http(opts?: HttpOptions): Promise<HttpClient>;
  /**
   * A client that POSTs to URLs the user chose (webhook forwarding, replay,
   * sandbox emit: api/delivery.ts): no profile, no token, no retries. Each
   * call makes a new one, closed at cleanup.
   */
  delivery(opts?: DeliveryOptions): Promise<DeliveryClient>;
  /** Prompts on the terminal (stderr); fails with a usage error naming `flag` when prompting is not possible. */
  prompter(): Promise<Prompter>;
  /** Drafts of half-filled forms (config dir, 0600). */
  drafts(): Promise<DraftStore>;
  /** The whole command tree as commander holds it, declared in full (shell completion scripts are generated from it). */
  commandTree(): Command;
  /** Runs after the command, success or failure (close servers, remove temp files). */
  onCleanup(fn: () => unknown): void;
  cleanup(): Promise<void>;
}

export interface ContextInit {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  signal: AbortSignal;
  clock?: Clock;
  /** The command's declaration: whether `http()` requires a token. */
  needsToken?: boolean;
  /** Tests: a prompter with scripted answers. */
  prompter?: Prompter;
  /** The command's resolved output when it prints data (its error format among it). */
  out?: Output;
  /** The error format when the command has no output object (a JSON switch: CommandDef.jsonFlag); else out's. */
  errors?: ErrorFormat;
  /** The command as typed (`partner gp create`), for the audit log. */
  command?: string;
  /** Tests: the keyring (default: the operating system's, each call in a child process). */
  keyring?: KeyringBackend;
  /** The command tree the command runs in (program.ts); the tree stands above the context, so it is handed in. */
  commandTree?: () => Command;
}

/** Debug lines (with --debug), warnings and notes, all on stderr. */
function createLogger(io: IO, globals: GlobalOptions, errColors: Colors): Logger {
  return {
    debug: (m) => {
      if (globals.debug) io.stderr.write(`${errColors.dim(`[debug] ${m}`)}\n`);
    },
    warn: (m) => writeWarning(io, m),
    info: (m) => io.stderr.write(`${wrapMessage(m, io.stderrColumns)}\n`),
  };
}

/** The audit log of the profile's writes (audit/log.ts): none for the sandbox, or when the profile turned it off. */
function auditOf(init: ContextInit, p: ResolvedProfile, baseUrl: string): HttpClientInit['audit'] {
  if (p.tokenSource === 'sandbox' || p.audit === false) return undefined;
  const { env } = init;
  let log: import('./audit/log.js').AuditLog | undefined;
  // Loaded at the first write: a command that only reads never loads the log, its locks or its directory.
  return async (method: string, path: string) => {
    const [{ AuditLog, osUser }, { stateDir }] = await Promise.all([import('./audit/log.js'), import('./config/paths.js')]);
    log ??= new AuditLog({ dir: stateDir(env) });
    return log.sent({ profile: p.name, baseUrl, command: init.command ?? 'partner', user: osUser(env) }, method, path);
  };
}

type HttpClientInit = ConstructorParameters<typeof import('./api/http.js').HttpClient>[0];

/** What every HTTP client of this run shares: the global --timeout and --debug, the abort signal, the test dispatcher. */
interface ClientBase {
  init: ContextInit;
  version: string;
  debug: ((m: string) => void) | undefined;
  cleanups: (() => unknown)[];
}

/** The HTTP client: depends on the profile (base URL, token) and the global --timeout and --debug. */
async function newHttpClient(base: ClientBase, baseUrl: string, token: string | undefined, opts: HttpOptions, profile?: ResolvedProfile): Promise<HttpClient> {
  const { init } = base;
  const { HttpClient } = await import('./api/http.js');
  const http = new HttpClient({
    baseUrl,
    token,
    userAgent: `partner-cli/${base.version}`,
    timeoutMs: opts.timeoutMs ?? init.globals.timeout * 1000,
    connections: opts.connections,
    signal: opts.signal ?? init.signal,
    debug: base.debug,
    onRetry: opts.onRetry,
    audit: profile ? auditOf(init, profile, baseUrl) : undefined,
  });
  base.cleanups.push(() => http.close());
  return http;
}

/** A client for URLs the user chose: depends on the global --timeout and --debug only. */
async function newDeliveryClient(base: ClientBase, opts: DeliveryOptions): Promise<DeliveryClient> {
  const { init } = base;
  const { HttpDeliveryClient } = await import('./api/delivery.js');
  const client = new HttpDeliveryClient({
    userAgent: `partner-cli/${base.version}`,
    timeoutMs: opts.timeoutMs ?? init.globals.timeout * 1000,
    connections: opts.connections,
    signal: opts.signal ?? init.signal,
    debug: base.debug,
  });
  base.cleanups.push(() => client.close());
  return client;
}

/** The in-process sandbox as the profile; its signing keys are kept across runs: what one command signs, the next one verifies. */
async function sandboxProfile(env: NodeJS.ProcessEnv, log: Logger, cleanups: (() => unknown)[]): Promise<ResolvedProfile> {
  const { startSandbox } = await import('./sandbox/server.js');
  const { cacheDir } = await import('./config/paths.js');
  const { SANDBOX_KEYS_FILE } = await import('./sandbox/signing.js');
  const sandbox = await startSandbox({ signingKeysFile: join(cacheDir(env), SANDBOX_KEYS_FILE), warn: (m) => log.warn(m) });
  cleanups.push(() => sandbox.close());
  log.debug(`sandbox listening on ${sandbox.url}`);
  return { name: 'sandbox', nameSource: 'sandbox', baseUrl: sandbox.url, baseUrlSource: 'sandbox', token: sandbox.tokens.companyA, tokenSource: 'sandbox', tokenStorage: 'sandbox' } satisfies ResolvedProfile;
}

/** The profile's own client: its token must be usable unless the command declared `needsToken: false`, and a base URL is needed. */
function profileClientOf(p: ResolvedProfile, needsToken: boolean | undefined): { baseUrl: string; token: string | undefined } {
  // A token that was set or saved and cannot be used (a line break in it, a locked keyring): said as
  // such. A command that needs no token (the public key set of `webhook verify`) goes on without it.
  if (p.tokenProblem && needsToken !== false) throw p.tokenProblem;
  if (!p.token && needsToken !== false) {
    throw new AuthError(`Not logged in (profile "${p.name}")`, 'Run `partner auth login --base-url URL`, or set PARTNER_TOKEN. To try without an account, add --sandbox.');
  }
  if (!p.baseUrl) {
    throw new UsageError('No API base URL is configured', 'Run `partner auth login --base-url URL`, set PARTNER_BASE_URL, pass --base-url, or try --sandbox.', 'NO_BASE_URL');
  }
  return { baseUrl: p.baseUrl, token: p.token };
}

/** Runs the cleanups, last registered first: the HTTP client closes before the sandbox it talks to. */
async function runCleanups(cleanups: (() => unknown)[], log: Logger): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (err) {
      log.debug(`cleanup failed: ${(err as Error).message}`);
    }
  }
}

export function createContext(init: ContextInit): Context {
  const { io, env, globals } = init;
  const errColors = colors(io.stderrColor);
  const log = createLogger(io, globals, errColors);
  const cleanups: (() => unknown)[] = [];
  const base: ClientBase = { init, version: packageVersion(), debug: globals.debug ? log.debug : undefined, cleanups };
  let store: Promise<ConfigStore> | undefined;
  let tokens: Promise<TokenStore> | undefined;
  let resolved: Promise<ResolvedProfile> | undefined;
  let client: Promise<HttpClient> | undefined;
  let prompter: Promise<Prompter> | undefined;
  let drafts: Promise<DraftStore> | undefined;

  const ctx: Context = {
    io,
    env,
    globals,
    version: base.version,
    signal: init.signal,
    clock: init.clock ?? { now: Date.now },
    system: { node: process.versions.node, platform: process.platform, arch: process.arch },
    log,
    out: init.out,
    errors: init.out?.errors ?? init.errors ?? 'text',
    colors: colors(io.color),
    errColors,
    config() {
      store ??= (async () => {
        const { ConfigStore } = await import('./config/store.js');
        const s = new ConfigStore(env);
        for (const w of s.warnings) log.warn(w);
        return s;
      })();
      return store;
    },
    tokens() {
      // Depends on the config dir (env) and the abort signal; the keyring child is spawned on the first call.
      tokens ??= (async () => {
        const { TokenStore, keyringService } = await import('./config/token-store.js');
        const { configDir } = await import('./config/paths.js');
        const keyring = init.keyring ?? (await import('./config/keyring-system.js')).systemKeyring({ env, signal: init.signal });
        return new TokenStore(keyring, keyringService(configDir(env)));
      })();
      return tokens;
    },
    profile() {
      resolved ??= (async () => {
        if (globals.sandbox) return sandboxProfile(env, log, cleanups);
        const { resolveProfile } = await import('./config/resolve.js');
        return resolveProfile({ profile: globals.profile, baseUrl: globals.baseUrl }, env, () => ctx.config(), () => ctx.tokens());
      })();
      return resolved;
    },
    http(opts = {}) {
      if (opts.baseUrl !== undefined || opts.token !== undefined) {
        return (async () => {
          const baseUrl = opts.baseUrl ?? (await ctx.profile()).baseUrl;
          if (!baseUrl) throw new UsageError('No API base URL is configured', 'Pass --base-url URL or set PARTNER_BASE_URL.', 'NO_BASE_URL');
          return newHttpClient(base, baseUrl, opts.token ?? undefined, opts);
        })();
      }
      client ??= (async () => {
        const p = await ctx.profile();
        const { baseUrl, token } = profileClientOf(p, init.needsToken);
        return newHttpClient(base, baseUrl, token, opts, p);
      })();
      return client;
    },
    delivery: (opts = {}) => newDeliveryClient(base, opts),
    prompter() {
      // Depends on io (stdin, stderr) and the abort signal; @inquirer/prompts loads on the first question.
      prompter ??= init.prompter ? Promise.resolve(init.prompter) : import('./forms/prompter.js').then(({ inquirerPrompter }) => inquirerPrompter(ctx));
      return prompter;
    },
    drafts() {
      // Depends on the config dir (env).
      drafts ??= import('./forms/drafts.js').then(({ DraftStore }) => new DraftStore(env, () => ctx.clock.now()));
      return drafts;
    },
    commandTree() {
      if (!init.commandTree) throw new Error('no command tree: this context was not made by program.ts');
      return init.commandTree();
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    cleanup: () => runCleanups(cleanups, log),
  };
  return ctx;
}
