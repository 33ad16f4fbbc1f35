import { type Budget, parseFailure } from "./failure.js";
import { MAX_NESTING_DEPTH, MAX_RESOLVED_BYTES } from "./limits.js";

/**
 * The size and nesting of a parsed file, checked before anything stores or recurses over it. A
 * YAML alias parses to the value of its anchor, shared, so a small text can stand for a document
 * many times its size once stored as JSON; this walk counts each value as often as it is reached,
 * as JSON would write it, and stops at the first limit passed, so it never does more than
 * `MAX_RESOLVED_BYTES` steps. It is iterative: the input's nesting never reaches the call stack.
 */
export function measureParsed(value: unknown, where: string, budget: Budget): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    // `depth` 0 is the file's own value: a collection at `depth` is at level `depth + 1`, as
    // request bodies count (shared/nesting.ts).
    if (depth >= MAX_NESTING_DEPTH && typeof node === "object" && node !== null) {
      throw parseFailure(`${where}: nested deeper than the limit of ${MAX_NESTING_DEPTH} levels`);
    }
    budget.resolvedBytes += jsonBytes(node, MAX_RESOLVED_BYTES - budget.resolvedBytes);
    if (budget.resolvedBytes > MAX_RESOLVED_BYTES) {
      throw parseFailure(
        `${where}: the document and its references exceed the limit of ${MAX_RESOLVED_BYTES} bytes once parsed (YAML aliases resolved)`,
      );
    }
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
    } else if (typeof node === "object" && node !== null) {
      for (const item of Object.values(node)) stack.push([item, depth + 1]);
    }
  }
}

/**
 * The UTF-8 bytes JSON writes for `node` itself: brackets, separators and keys for a collection
 * (its items are counted when reached), the whole for a scalar. Escapes are not counted. A string
 * longer than `room` is over the budget whatever its encoding, so it is not counted further.
 */
function jsonBytes(node: unknown, room: number): number {
  if (typeof node === "string") return node.length > room ? node.length : utf8Bytes(node) + 2;
  if (Array.isArray(node)) return 2 + Math.max(0, node.length - 1);
  if (typeof node === "object" && node !== null) {
    const keys = Object.keys(node);
    let bytes = 2 + Math.max(0, keys.length - 1);
    for (const key of keys) bytes += utf8Bytes(key) + 3;
    return bytes;
  }
  return String(node).length;
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    // A surrogate pair is 4 bytes, 2 for each half.
    else if (code >= 0xd800 && code <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}
