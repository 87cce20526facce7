import type { Context } from '../../context.js';
import { parseTracker, runTracker, type TrackerOptions } from './tracker.js';

export function parse(_args: string[], raw: Record<string, unknown>): TrackerOptions {
  return parseTracker('onboarding', raw);
}

export function run(opts: TrackerOptions, ctx: Context): Promise<void> {
  return runTracker(opts, ctx);
}
