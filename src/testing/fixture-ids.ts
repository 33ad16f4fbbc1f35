/**
 * The double's id generator: random ids, except that the fixture loader may ask for a given id to
 * be the `skip`-th next one drawn (a page's creation draws its version's id, then the page's).
 * The loader checks that the object created got it, so a change of that order fails loudly.
 */
export interface RequestedIds {
  next(): string;
  request(id: string, skip: number): void;
  clear(): void;
}

export function requestedIds(random: () => string): RequestedIds {
  let pending: { id: string; skip: number } | undefined;
  return {
    next() {
      if (!pending) return random();
      if (pending.skip > 0) {
        pending.skip--;
        return random();
      }
      const { id } = pending;
      pending = undefined;
      return id;
    },
    request(id, skip) {
      pending = { id, skip };
    },
    clear() {
      pending = undefined;
    },
  };
}
