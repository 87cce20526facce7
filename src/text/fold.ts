// Text compared the way people type it: accents and case ignored, the same on
// every machine. NFD splits a letter from its accents, which are dropped;
// upper- then lower-casing (locale-independent, unlike toLocaleLowerCase) also
// folds what lower-casing alone leaves apart (ß and SS, ligatures).

const ASCII = /^[\x00-\x7f]*$/;

/** "José GARCÍA" -> "jose garcia"; "Straße" -> "strasse". */
export function foldText(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  return s.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().toLowerCase();
}
