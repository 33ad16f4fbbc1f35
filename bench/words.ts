/**
 * `count` made-up words, each the digits of its number (plus 7) in base `syllables.length`,
 * spelled with `syllables`: the same words on every run, for benchmarks that draw text.
 */
export function madeUpWords(count: number, syllables: readonly string[]): string[] {
  return Array.from({ length: count }, (_, i) => {
    let word = "";
    for (let n = i + 7; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
    return word;
  });
}
