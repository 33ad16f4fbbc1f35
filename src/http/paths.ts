import { badRequest } from "../core/shared/errors.js";

/**
 * Path segments as every route reads them. A segment is percent-decoded as UTF-8, strictly: a
 * malformed escape (`%zz`, a lone `%`), a truncated sequence (`%E0%A4%A`), an encoded surrogate
 * (`%ED%A0%80`) or an overlong form (`%C0%AF`) is the client's error, answered 400 naming the
 * segment, never decoded loosely into something else.
 *
 * @example
 * decodeSegment("spaceId", "a%20b"); // "a b"
 * decodeSegment("spaceId", "%zz"); // throws bad_request "path.spaceId: ..."
 */
export function decodeSegment(name: string, value: string): string {
  // Without an escape there is nothing to decode (most ids).
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest(`path.${name}: not a valid percent-encoded UTF-8 segment`);
  }
}

/** `.` or `..`, with either dot written as `%2e` in either case. */
const MAYBE_DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e)/i;

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether a request target (`/v1/orgs/X/members/%2e%2e`, as it came on the wire) holds a dot
 * segment, plain or percent-encoded. The WHATWG URL parser (`new Request`, `new URL`) resolves
 * such segments before any route sees the path, so that `/orgs/X/members/%2e%2e` would read as
 * `/orgs/X/`: a request naming one resource would be served another, past whatever rules a proxy in
 * front judged the path by. docsbase refuses these targets with 400 instead (docs/api.md,
 * "Paths"). Backslashes count as separators, as the URL parser reads them in `http:` URLs.
 *
 * @example
 * hasDotSegment("/v1/orgs/X/members/%2e%2e"); // true
 * hasDotSegment("/v1/files/abc/..%2fx.txt"); // false: one segment, text "../x.txt"
 */
export function hasDotSegment(target: string): boolean {
  // A dot segment starts the target or follows a separator: most targets have neither, and are
  // answered without splitting (this runs on every request).
  if (!MAYBE_DOT_SEGMENT.test(target)) return false;
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/\\]*/i, "").split(/[?#]/, 1)[0] ?? "";
  return path.split(/[/\\]/).some((segment) => DOT_SEGMENT.test(segment));
}

/** The message of the 400 answered for a target with a dot segment. */
export const DOT_SEGMENT_MESSAGE =
  "path: dot segments (., .., or their percent-encoded forms such as %2e%2e) are not accepted";
