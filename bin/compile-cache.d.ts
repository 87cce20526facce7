// Types of bin/compile-cache.js (plain JavaScript: the launcher runs before any build).
export function cacheDir(env: NodeJS.ProcessEnv): string;
export function enableCompileCache(env?: NodeJS.ProcessEnv): string | undefined;
