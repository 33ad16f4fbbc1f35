import * as z from "zod";
import type { IndexValue, ReadTransaction, StoredRecord, Table } from "../storage/port.js";
import { compareTuples } from "../storage/order.js";
import { badRequest } from "./errors.js";
import { queryInteger } from "./schema.js";
import { fnv1a } from "./digest.js";

/**
 * Pagination of list operations, the API's list shape: `{next: {page}, count, items}`.
 *
 * Pages are keyset-based: the opaque `page` token holds the index position of the last item
 * returned, so items added or removed between two calls never shift later pages (no item is
 * skipped or repeated, unless it was inserted before the position already reached). `next` is
 * absent on the last page. `count` is the number of items of the whole list.
 *
 * A page reads about `limit` records, and `count` is one `tx.count` of the index range, which the
 * ranges lists use answer from a maintained counter (shared/counters.ts): neither grows with the
 * list. Only `filter`, for filters the caller asks for (a text search, a flag), reads the whole
 * range to count it; permissions never filter records one by one (see `visible`).
 */

/** Items per page when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest accepted `limit`, the API's limit. */
export const MAX_PAGE_SIZE = 1000;
/**
 * The budget of a page of a list whose items may be large (documents: comments, change requests;
 * merge rules: spaces, organizations), in characters of JSON (`maxChars`): a page past it ends
 * early, with `next`.
 */
export const LARGE_ITEMS_PAGE_CHARS = 1_048_576;
/** Longest `page` token accepted; tokens hold an index position, far shorter in practice. */
export const MAX_PAGE_TOKEN_LENGTH = 8192;

/** The `page` and `limit` query parameters, to spread into an operation's query schema. */
export const pageQuery = {
  page: z.string().min(1).max(MAX_PAGE_TOKEN_LENGTH).optional(),
  limit: queryInteger(0, MAX_PAGE_SIZE).optional(),
};

/** The response envelope of a list of `item`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    next: z.object({ page: z.string() }).optional(),
    count: z.number(),
    items: z.array(item),
  });
}

export interface Page<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

export interface PageRequest {
  readonly page?: string | undefined;
  readonly limit?: number | undefined;
}

export interface PaginateOptions<R extends object, T> {
  readonly table: Table<R>;
  readonly index: string;
  readonly where?: readonly IndexValue[];
  readonly reverse?: boolean;
  /**
   * Keeps only the records matching a filter the caller asked for (text search, a flag). The
   * count then scans the whole range, and a page may read far past `limit` records: never use it
   * for permissions, which must be `visible` or an index range of their own.
   */
  readonly filter?: (record: R) => boolean | Promise<boolean>;
  /** False when the caller may see nothing of the range: an empty page, nothing read. */
  readonly visible?: boolean;
  readonly map: (record: R) => T | Promise<T>;
  /**
   * A budget in characters of JSON for the page's items, for lists whose items may be large (a
   * document each): the page ends before the item that would pass it, keeping at least one, and
   * `next` resumes there. Items are then mapped one at a time.
   */
  readonly maxChars?: number;
}

const BATCH = 200;

/** Lists one page of an index range. */
export async function paginate<R extends object, T>(
  tx: ReadTransaction,
  request: PageRequest,
  options: PaginateOptions<R, T>,
): Promise<Page<T>> {
  const fields = options.table.indexes[options.index];
  if (!fields) throw new Error(`Unknown index ${options.index}`);
  const where = options.where ?? [];
  const scope = scopeOf(options);
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  let after = request.page ? decodeCursor(request.page, scope) : undefined;
  if (options.visible === false) return { count: 0, items: [] };

  const matched: R[] = [];
  // Fetch in batches until one record beyond the page is found, so `next` is exact.
  for (;;) {
    const batch = await tx.list(options.table, {
      index: options.index,
      where,
      reverse: options.reverse ?? false,
      // Unfiltered, the record after the page is the only one read beyond it.
      limit: options.filter ? BATCH : limit + 1,
      ...(after ? { after } : {}),
    });
    for (const record of batch) {
      if (!options.filter || (await options.filter(record))) matched.push(record);
      if (matched.length > limit) break;
    }
    const last = batch.at(-1);
    if (matched.length > limit || !options.filter || batch.length < BATCH || !last) break;
    after = positionOf(last, fields.slice(where.length), options.table.key);
  }

  let pageRecords = matched.slice(0, limit);
  let items: T[];
  if (options.maxChars === undefined) {
    items = await Promise.all(pageRecords.map((record) => options.map(record)));
  } else {
    ({ items, kept: pageRecords } = await mapWithin(pageRecords, options.map, options.maxChars));
  }
  // A page ended by the budget has more after it even when `limit` was reached exactly.
  const more = matched.length > limit || items.length < Math.min(matched.length, limit);
  const count = options.filter
    ? await countFiltered(tx, options)
    : await tx.count(options.table, { index: options.index, where });
  const lastOnPage = pageRecords.at(-1);
  const page: Page<T> = { count, items };
  // `limit=0` asks for the count alone: there is no position to resume from, so no `next`.
  if (more && lastOnPage) {
    const position = positionOf(lastOnPage, fields.slice(where.length), options.table.key);
    page.next = { page: encodeCursor(position, scope) };
  }
  return page;
}

/**
 * Maps records in order until their items' JSON would pass `maxChars`, keeping at least one: the
 * items and the records they came from.
 */
export async function mapWithin<R, T>(
  records: readonly R[],
  map: (record: R) => T | Promise<T>,
  maxChars: number,
) {
  const items: T[] = [];
  let chars = 0;
  for (const record of records) {
    const item = await map(record);
    chars += JSON.stringify(item).length;
    if (items.length > 0 && chars > maxChars) break;
    items.push(item);
  }
  return { items, kept: records.slice(0, items.length) };
}

/**
 * Pages a list computed in memory (files of a revision, search results), with the same keyset
 * tokens as stored lists: `position` gives each item's sort tuple (unique, in list order), so a
 * page resumes after the last item seen even if items were added or removed meanwhile.
 */
export function paginateSorted<T>(
  items: readonly T[],
  request: PageRequest,
  options: { scope: string; position: (item: T) => IndexValue[] },
): Page<T> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const scope = JSON.stringify(["sorted", options.scope]);
  let start = 0;
  if (request.page) {
    const after = decodeCursor(request.page, scope);
    start = items.findIndex((item) => compareTuples(options.position(item), after) > 0);
    if (start < 0) start = items.length;
  }
  const slice = items.slice(start, start + limit);
  const page: Page<T> = { count: items.length, items: slice };
  const last = slice.at(-1);
  if (start + limit < items.length && last) {
    page.next = { page: encodeCursor(options.position(last), scope) };
  }
  return page;
}

async function countFiltered<R extends object, T>(
  tx: ReadTransaction,
  options: PaginateOptions<R, T>,
): Promise<number> {
  const all = await tx.list(options.table, {
    index: options.index,
    where: options.where ?? [],
  });
  let count = 0;
  for (const record of all) if (await options.filter!(record)) count++;
  return count;
}

function positionOf(record: object, fields: readonly string[], key: string): IndexValue[] {
  return [...fields, key].map((field) => (record as StoredRecord)[field] as IndexValue);
}

/** A token is bound to its list: replaying it on another list is a client error. */
function scopeOf(
  options: Pick<PaginateOptions<object, unknown>, "table" | "index" | "where" | "reverse">,
): string {
  return JSON.stringify([options.table.name, options.index, options.where ?? [], !!options.reverse]);
}

function encodeCursor(position: readonly IndexValue[], scope: string): string {
  return base64UrlEncode(JSON.stringify({ p: position, s: fnv1a(scope) }));
}

function decodeCursor(token: string, scope: string): IndexValue[] {
  try {
    const decoded = JSON.parse(base64UrlDecode(token)) as { p?: unknown; s?: unknown };
    const valid =
      Array.isArray(decoded.p) &&
      decoded.p.every((value) => typeof value === "string" || typeof value === "number") &&
      decoded.s === fnv1a(scope);
    if (valid) return decoded.p as IndexValue[];
  } catch {
    // Fall through to the client error below.
  }
  throw badRequest("query.page: not a page token of this list");
}

function base64UrlEncode(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(token: string): string {
  const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}
