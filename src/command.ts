import type { Command } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { envFlag, type IO } from './io.js';
import { declaredFormat, errorFormatFor, type ErrorFormat } from './output/error-format.js';

/**
 * What a command module exports: `parse` turns commander's positional
 * arguments and raw flags into typed options (throwing UsageError, before
 * anything is sent), and `run` is a plain function of those and the context.
 */
export interface CommandModule<O> {
  parse(args: string[], raw: Record<string, unknown>, env: NodeJS.ProcessEnv): O;
  run(opts: O, ctx: Context): Promise<number | void>;
}

export interface Runtime {
  io: IO;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Set by the action: the exit code the command asked for, and its context. */
  exitCode: number;
  context?: Context;
  /** How cli.ts reports a failure of the running command: JSON when its data is JSON (output/error-format.ts). */
  errorFormat?: ErrorFormat;
}

/** Global flags, typed once, read from the root command. */
export function globalOptions(cmd: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  return {
    profile: o.profile as string | undefined,
    baseUrl: o.baseUrl as string | undefined,
    sandbox: Boolean(o.sandbox),
    debug: Boolean(o.debug) || envFlag(env.PARTNER_DEBUG),
    timeout: o.timeout as number,
    color: o.color !== false,
    input: o.input !== false,
  };
}

/**
 * Builds a commander action that imports the command's module only when it
 * runs (so --help and --version load almost nothing), turns commander's
 * arguments into typed options with `parse`, and runs it with a context.
 */
export function lazyAction<O>(runtime: Runtime, load: () => Promise<CommandModule<O>>) {
  return async (...actionArgs: unknown[]) => {
    const cmd = actionArgs[actionArgs.length - 1] as Command;
    const globals = globalOptions(cmd, runtime.env);
    runtime.errorFormat = errorFormatFor(declaredFormat(cmd.opts(), cmd.options.some((o) => o.long === '--output'), runtime.io.stdoutIsTTY));
    const args = (cmd.processedArgs as unknown[]).flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a.map(String) : [String(a)]));
    // The context (and chalk, through it) is loaded only when a command runs, never for --help.
    const [mod, { createContext }] = await Promise.all([load(), import('./context.js')]);
    const opts = mod.parse(args, cmd.opts(), runtime.env);
    const ctx = createContext({ io: { ...runtime.io, color: runtime.io.color && globals.color, canPrompt: runtime.io.canPrompt && globals.input }, env: runtime.env, globals, signal: runtime.signal });
    runtime.context = ctx;
    const code = await mod.run(opts, ctx);
    runtime.exitCode = typeof code === 'number' ? code : 0;
  };
}
