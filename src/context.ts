import { packageVersion } from './version.js';
import { AuthError, UsageError } from './errors.js';
import type { IO } from './io.js';
import type { HttpClient, RetryEvent } from './api/http.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedProfile } from './config/resolve.js';
import { colors, type Colors } from './output/colors.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  sandbox: boolean;
  debug: boolean;
  /** Per-request time limit, seconds. */
  timeout: number;
  color: boolean;
  input: boolean;
}

export interface ApiOptions {
  /** Keep-alive connections (the page walker's concurrency). */
  connections?: number;
  onRetry?: (e: RetryEvent) => void;
  /** Commands that work without a token (the JWKS is public). */
  tokenOptional?: boolean;
}

export interface Logger {
  debug(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

/**
 * What a command receives. Everything it touches comes from here; expensive
 * members (config file, HTTP client, the in-process sandbox) are created on
 * first use.
 */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  version: string;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  now(): number;
  log: Logger;
  colors: Colors;
  /** The config file (profiles, tokens); opened on first use. */
  config(): Promise<ConfigStore>;
  /** Flags > env > profile; with --sandbox, the in-process sandbox. */
  profile(): Promise<ResolvedProfile>;
  /** The one HTTP client for the resolved profile; needs a token unless told otherwise. */
  api(opts?: ApiOptions): Promise<HttpClient>;
  /** Runs after the command, success or failure (close servers, remove temp files). */
  onCleanup(fn: () => unknown): void;
  cleanup(): Promise<void>;
}


export function createContext(init: { io: IO; env: NodeJS.ProcessEnv; globals: GlobalOptions; signal: AbortSignal; now?: () => number }): Context {
  const { io, env, globals } = init;
  const c = colors(io.color);
  const log: Logger = {
    debug: (m) => {
      if (globals.debug) io.stderr.write(`${c.dim(`[debug] ${m}`)}\n`);
    },
    warn: (m) => io.stderr.write(`${c.yellow('warning:')} ${m}\n`),
    info: (m) => io.stderr.write(`${m}\n`),
  };
  const cleanups: (() => unknown)[] = [];
  let store: ConfigStore | undefined;
  let resolved: Promise<ResolvedProfile> | undefined;
  let client: Promise<HttpClient> | undefined;

  const openStore = async (): Promise<ConfigStore> => {
    if (!store) {
      const { ConfigStore } = await import('./config/store.js');
      store = new ConfigStore(env);
      for (const w of store.warnings) log.warn(w);
    }
    return store;
  };

  const ctx: Context = {
    io,
    env,
    globals,
    version: packageVersion(),
    signal: init.signal,
    now: init.now ?? Date.now,
    log,
    colors: c,
    config: openStore,
    profile() {
      resolved ??= (async () => {
        if (globals.sandbox) {
          const { startSandbox } = await import('./sandbox/server.js');
          const sandbox = await startSandbox({});
          cleanups.push(() => sandbox.close());
          log.debug(`sandbox listening on ${sandbox.url}`);
          return { name: 'sandbox', nameSource: 'sandbox', baseUrl: sandbox.url, baseUrlSource: 'sandbox', token: sandbox.tokens.companyA, tokenSource: 'sandbox' } satisfies ResolvedProfile;
        }
        // Start-up speed: with the base URL and token both given from outside
        // (CI, scripts, benchmarks) the config file is never read, so skip
        // loading it (conf costs ~90 ms). Same result as resolveProfile's
        // precedence in that case: flags > env, profile name "default".
        const envBase = env.PARTNER_BASE_URL || undefined;
        const envToken = env.PARTNER_TOKEN || undefined;
        if ((globals.baseUrl ?? envBase) && envToken && globals.profile === undefined && !env.PARTNER_PROFILE) {
          return {
            name: 'default',
            nameSource: 'none',
            baseUrl: globals.baseUrl ?? envBase,
            baseUrlSource: globals.baseUrl ? 'flag' : 'env',
            token: envToken,
            tokenSource: 'env',
          } satisfies ResolvedProfile;
        }
        const { resolveProfile } = await import('./config/resolve.js');
        // The store is opened synchronously inside resolveProfile only when needed.
        const { ConfigStore } = await import('./config/store.js');
        return resolveProfile({ profile: globals.profile, baseUrl: globals.baseUrl }, env, () => {
          if (!store) {
            store = new ConfigStore(env);
            for (const w of store.warnings) log.warn(w);
          }
          return store;
        });
      })();
      return resolved;
    },
    api(opts = {}) {
      client ??= (async () => {
        const p = await ctx.profile();
        if (!p.token && !opts.tokenOptional) {
          throw new AuthError(`Not logged in (profile "${p.name}")`, 'Run `partner auth login --base-url URL`, or set PARTNER_TOKEN. To try without an account, add --sandbox.');
        }
        if (!p.baseUrl) {
          throw new UsageError('No API base URL is configured', 'Run `partner auth login --base-url URL`, set PARTNER_BASE_URL, pass --base-url, or try --sandbox.', 'NO_BASE_URL');
        }
        const { HttpClient } = await import('./api/http.js');
        const http = new HttpClient({
          baseUrl: p.baseUrl,
          token: p.token,
          userAgent: `partner-cli/${ctx.version}`,
          timeoutMs: globals.timeout * 1000,
          connections: opts.connections,
          signal: init.signal,
          debug: globals.debug ? log.debug : undefined,
          onRetry: opts.onRetry,
        });
        cleanups.push(() => http.close());
        return http;
      })();
      return client;
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    async cleanup() {
      // Last registered first: the HTTP client closes before the sandbox it talks to.
      while (cleanups.length) {
        try {
          await cleanups.pop()!();
        } catch (err) {
          log.debug(`cleanup failed: ${(err as Error).message}`);
        }
      }
    },
  };
  return ctx;
}
