/**
 * Heading anchors, computed as GitHub computes them (github-slugger) so that links written for a
 * repository keep working in a docsbase page: lower case, every character other than letters,
 * marks, digits, `_`, `-` and spaces removed, spaces turned into `-`; a repeated anchor gets
 * `-1`, `-2`... in document order. A heading without any such character gets `section`.
 */
export type Slugger = (title: string) => string;

const REMOVED = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/** A slugger remembers the anchors it gave, so one slugger serves one page. */
export function createSlugger(): Slugger {
  const seen = new Map<string, number>();
  return (title) => {
    const base = title.toLowerCase().replace(REMOVED, "").replace(/ /g, "-") || "section";
    let slug = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(slug, 0);
    return slug;
  };
}
