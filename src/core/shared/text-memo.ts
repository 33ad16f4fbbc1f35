/**
 * Remembers the results of a pure function of a text for the texts it saw last: the same markdown
 * written again (a test double rebuilt from one fixture per test, a re-import, a revert) is not
 * parsed again to be checked. At most `entries` results, each for a text of at most `maxChars`
 * characters, so that it holds a bounded amount of memory (`entries * maxChars` characters of keys
 * at most); the least recently used result goes first. Results are shared between callers: `fn`
 * must return a value nobody changes (a string, `undefined`, a frozen array).
 *
 * Module-level by design: the results depend on the text only, so every docsbase instance of the
 * process may share them, and none can tell another's writes from them.
 *
 * @example
 * ```ts
 * const limitError = textMemo(markdownLimitErrorUncached, { entries: 256, maxChars: 16_384 });
 * ```
 */
export function textMemo<T>(
  fn: (text: string) => T,
  options: { readonly entries: number; readonly maxChars: number },
): (text: string) => T {
  const results = new Map<string, T>();
  return (text) => {
    if (text.length > options.maxChars) return fn(text);
    if (results.has(text)) {
      const result = results.get(text) as T;
      // Most recently used last: a Map iterates in insertion order.
      results.delete(text);
      results.set(text, result);
      return result;
    }
    const result = fn(text);
    results.set(text, result);
    if (results.size > options.entries) results.delete(results.keys().next().value as string);
    return result;
  };
}
