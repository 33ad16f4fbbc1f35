import type { FetchFunction } from "../net/outbound.js";
import { type Budget, Failure, parseFailure } from "./failure.js";
import { fetchFile, parseText } from "./files.js";
import {
  MAX_NESTING_DEPTH,
  MAX_REFERENCE_DEPTH,
  MAX_REFERENCED_FILES,
  MAX_REPORTED_ERRORS,
  MAX_RESOLVED_NODES,
} from "./limits.js";
import type { OpenAPIErrorObject, OpenAPISpecProcessingErrorCode } from "./tables.js";

/** External `$ref`s: fetching the files they reach, and inlining them for the validator. */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Escapes a key for a JSON pointer (RFC 6901). */
const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** Every `$ref` string of a JSON value, with the JSON pointer of the object holding it. */
function referencesOf(value: unknown): { ref: string; at: string }[] {
  const found: { ref: string; at: string }[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${at}/${index}`));
    else if (isObject(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (key === "$ref" && typeof item === "string") found.push({ ref: item, at });
        else walk(item, `${at}/${escapeToken(key)}`);
      }
    }
  };
  walk(value, "");
  return found;
}

/** The file URL a `$ref` of the file `base` names (fragment removed), or undefined for a local one. */
function targetFile(ref: string, base: string | undefined, where: string): string | undefined {
  if (ref.startsWith("#")) return undefined;
  let url: URL;
  try {
    url = base ? new URL(ref, base) : new URL(ref);
  } catch {
    throw parseFailure(
      base
        ? `${where}: "${ref}" is not a valid reference`
        : `${where}: relative $ref "${ref}" in a text source: a text source has no base URL, use an absolute URL`,
    );
  }
  url.hash = "";
  return url.href;
}

/**
 * Fetches every file reached through external `$ref`s, breadth first, within the limits on
 * count, depth and size. Every file of one level is tried, so all unreachable ones are reported.
 */
export async function fetchReferences(
  fetch: FetchFunction,
  files: Map<string, unknown>,
  bases: Map<string, string | undefined>,
  root: string,
  budget: Budget,
): Promise<void> {
  let level: { key: string; base: string | undefined }[] = [{ key: root, base: bases.get(root) }];
  for (let depth = 1; level.length; depth++) {
    const wanted = new Map<string, string>();
    for (const { key, base } of level) {
      for (const { ref, at } of referencesOf(files.get(key))) {
        const where = `${key}#${at}/$ref`;
        const file = targetFile(ref, base, where);
        if (file && !files.has(file) && !wanted.has(file)) wanted.set(file, where);
      }
    }
    if (!wanted.size) return;
    if (depth > MAX_REFERENCE_DEPTH) {
      const [where] = wanted.values();
      throw parseFailure(`${where}: references are nested deeper than ${MAX_REFERENCE_DEPTH} files`);
    }
    const failures: OpenAPIErrorObject[] = [];
    let code: OpenAPISpecProcessingErrorCode | undefined;
    const next: typeof level = [];
    for (const [file, where] of wanted) {
      if (++budget.files > MAX_REFERENCED_FILES) {
        throw parseFailure(`${where}: references more than ${MAX_REFERENCED_FILES} files`);
      }
      try {
        const fetched = await fetchFile(fetch, file, where, budget);
        files.set(file, parseText(fetched.text, file, budget));
        bases.set(file, fetched.url);
        next.push({ key: file, base: fetched.url });
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
        code ??= error.code;
        failures.push(...error.errors);
      }
    }
    if (code) throw new Failure(code, failures.slice(0, MAX_REPORTED_ERRORS));
    level = next;
  }
}

/** The value at a JSON pointer fragment (`#/a/b`, or `#` for the whole) of a document. */
function resolvePointer(document: unknown, fragment: string, where: string): unknown {
  const pointer = decodeURIComponent(fragment.replace(/^#/, ""));
  if (pointer === "") return document;
  if (!pointer.startsWith("/")) throw parseFailure(`${where}: "#${pointer}" is not a JSON pointer`);
  let node = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else throw parseFailure(`${where}: nothing at "#${pointer}"`);
  }
  return node;
}

/**
 * A copy of the document in which each `$ref` to another file (and each `$ref` inside another
 * file) is replaced by a copy of its target, so that the validator needs no network. A reference
 * that loops back into a chain being inlined becomes an empty object. `MAX_RESOLVED_NODES` bounds
 * the copy against documents that reference one large part many times, and `MAX_NESTING_DEPTH`
 * its nesting (files nested within the limit can chain into a deeper copy), before the recursion
 * here or in the validator could exhaust the stack.
 */
export function inline(
  files: ReadonlyMap<string, unknown>,
  bases: ReadonlyMap<string, string | undefined>,
  root: string,
): unknown {
  let nodes = 0;
  const copy = (
    node: unknown,
    file: string,
    base: string | undefined,
    at: string,
    chain: string[],
    depth: number,
  ): unknown => {
    if (++nodes > MAX_RESOLVED_NODES) {
      throw parseFailure(
        `${root}: larger than ${MAX_RESOLVED_NODES} values once its references are resolved`,
      );
    }
    // A collection at `depth` is at level `depth + 1`, as request bodies count (shared/nesting.ts).
    if (depth >= MAX_NESTING_DEPTH && typeof node === "object" && node !== null) {
      throw parseFailure(
        `${file}#${at}: nested deeper than the limit of ${MAX_NESTING_DEPTH} levels once references are resolved`,
      );
    }
    if (Array.isArray(node))
      return node.map((item, index) => copy(item, file, base, `${at}/${index}`, chain, depth + 1));
    if (!isObject(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string" && (file !== root || !ref.startsWith("#"))) {
      const where = `${file}#${at}/$ref`;
      const target = ref.startsWith("#") ? file : targetFile(ref, base, where)!;
      const fragment = ref.includes("#") ? ref.slice(ref.indexOf("#")) : "#";
      const id = `${target}${fragment}`;
      if (target === root && fragment !== "#") return { ...node, $ref: fragment };
      // A loop through other files: the validator needs no network, so the looping point is
      // checked as an empty schema (the files themselves are kept as they are).
      if (chain.includes(id)) return {};
      const value = resolvePointer(files.get(target), fragment, where);
      return copy(value, target, bases.get(target), fragment.slice(1), [...chain, id], depth);
    }
    // `fromEntries` defines each key as an own property, so a `__proto__` key stays a plain key.
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        copy(value, file, base, `${at}/${escapeToken(key)}`, chain, depth + 1),
      ]),
    );
  };
  return copy(files.get(root), root, bases.get(root), "", [], 0);
}
