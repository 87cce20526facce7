/** `leaf` inside `levels` arrays (`[[["x"]]]` is 3 levels), built in a loop: JSON.stringify could not build 100,000. */
export function nested(levels: number, leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** The error `fn` throws (or the rejection of what it returns), for assertions on its code and message. */
export async function failure(fn: () => unknown): Promise<{ code?: string; exitCode?: number; message: string }> {
  try {
    await fn();
  } catch (e) {
    return e as { code?: string; exitCode?: number; message: string };
  }
  throw new Error('expected a failure, got none');
}
