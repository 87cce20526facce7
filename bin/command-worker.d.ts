// Types of bin/command-worker.js (plain JavaScript: the launcher runs before any build).
import type { Worker } from 'node:worker_threads';

export const YOUNG_GENERATION_MB: number;
export function startWorker(script?: string, env?: NodeJS.ProcessEnv): Worker;
export function looksLikeWorkerCommand(args: string[], stdoutIsTTY?: boolean): boolean;
