/**
 * The one nesting bound of request bodies (docs/api.md, "Limits"). Every body is checked against
 * it before any operation's schema runs, so free-form values (a document's `data`, a
 * configuration, a condition...) cannot nest deep enough for a recursive walk (a schema, a copy,
 * `JSON.stringify`, a database's JSON functions) to exhaust the stack or fail.
 *
 * A document nested to its own bound (64 nodes, two levels of objects and arrays each) with a
 * text, a leaf and a mark's `data` at the bottom takes about 140 levels: 256 leaves room for its
 * `data` and for the keys a body puts around it.
 */
export const MAX_BODY_DEPTH = 256;

/** A path shows at most this many keys, each cut to `MAX_SHOWN_KEY` characters: messages stay short. */
const MAX_SHOWN_KEYS = 12;
const MAX_SHOWN_KEY = 40;

interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string;
  readonly parent: Visit | undefined;
}

/**
 * The path (`description.nodes.0.data.a`, its first keys then `…` when longer) of the first value
 * that nests deeper than `limit` levels of arrays and plain objects, counting `value` itself as
 * level 1, or `undefined` when none does. The walk is iterative, so it is safe on any input; it
 * ends on a cyclic value too (the cycle passes the limit). Other objects (a `Uint8Array`, a
 * `Blob`) count as leaves.
 *
 * @example
 * nestingPastLimit({ a: { b: [] } }, 2); // "a.b"
 */
export function nestingPastLimit(value: unknown, limit: number): string | undefined {
  // Every accepted body is walked: this pass keeps no path, the slower one below names it.
  if (!isContainer(value)) return undefined;
  const values: object[] = [value];
  const depths: number[] = [0];
  const push = (child: unknown, depth: number) => {
    if (!isContainer(child)) return;
    values.push(child);
    depths.push(depth);
  };
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (depth >= limit) return pathPastLimit(value, limit);
    if (Array.isArray(current)) {
      for (const child of current) push(child, depth + 1);
    } else {
      for (const key in current) push((current as Record<string, unknown>)[key], depth + 1);
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The same walk as `nestingPastLimit`, keeping each value's parent to name the path it finds. */
function pathPastLimit(value: unknown, limit: number): string {
  const stack: Visit[] = [{ value, depth: 0, key: "", parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    if (!isContainer(visit.value)) continue;
    if (visit.depth >= limit) return pathOf(visit);
    for (const [key, child] of Object.entries(visit.value)) {
      stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return "";
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) {
    keys.push(at.key.length > MAX_SHOWN_KEY ? `${at.key.slice(0, MAX_SHOWN_KEY)}…` : at.key);
  }
  keys.reverse();
  return keys.length > MAX_SHOWN_KEYS ? `${keys.slice(0, MAX_SHOWN_KEYS).join(".")}.…` : keys.join(".");
}
