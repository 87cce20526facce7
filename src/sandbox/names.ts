// Text helpers of the generator: e-mail slugs and full names.

/** ASCII slug for e-mail local parts: "José" -> "jose", "李" -> "". */
export function slug(s: string): string {
  return s
    .replace(/\u001b\][^\u0007]*\u0007/g, '')
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/[\u0142\u0141]/g, 'l')
    .replace(/\u00df/g, 'ss')
    .replace(/\u0131/g, 'i')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

export function joinName(...parts: (string | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join(' ');
}
