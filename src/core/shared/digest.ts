/**
 * A short non-cryptographic digest (32-bit FNV-1a, in base 36). For telling texts apart where a
 * collision costs little (a page token from another list, a cache key beside an id), never for
 * security.
 */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
