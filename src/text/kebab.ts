/** A flag's option key as typed on the command line: `pageSize` -> `page-size`. */
export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
