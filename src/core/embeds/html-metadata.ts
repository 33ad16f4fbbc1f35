/**
 * What an embed shows of a web page, read from its HTML: the title, the site's name and its icon
 * (docs/api.md, "Embeds"). A scanner of the few tags that carry them (`<title>`, `<meta>`,
 * `<link>`), not an HTML parser: it reads the document up to `</head>`, within
 * {@link MAX_SCANNED_CHARACTERS}, and every pattern it runs is linear in what it scans.
 */

/** The head of a page is read within this many characters; what follows is never scanned. */
export const MAX_SCANNED_CHARACTERS = 256 * 1024;

/** A page's metadata; each field is absent when the page does not say. */
export interface PageMetadata {
  readonly title?: string;
  readonly site?: string;
  /** An absolute http(s) URL. */
  readonly icon?: string;
}

const TAG = /<(title|meta|link)\b([^<>]*)>/gi;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const TITLE_END = /<\/title\s*>/i;
const HEAD_END = /<\/head\s*>|<body\b/i;
/** Icons, best first: the reference renderer shows a small square one. */
const ICON_RELS = ["icon", "shortcut icon", "apple-touch-icon"];
/** Longest title or site name kept: a page may put anything in its tags. */
const MAX_TEXT = 512;

/**
 * The metadata of the page at `url` whose HTML is `html`: the title from OpenGraph (`og:title`),
 * Twitter (`twitter:title`) or `<title>`; the site from `og:site_name` or `application-name`; the
 * icon from `<link rel="icon">` (or `shortcut icon`, `apple-touch-icon`), resolved against `url`.
 *
 * @example
 * ```ts
 * readPageMetadata('<title>Docs &amp; more</title><link rel="icon" href="/f.png">', "https://a.test/x");
 * // { title: "Docs & more", icon: "https://a.test/f.png" }
 * ```
 */
export function readPageMetadata(html: string, url: string): PageMetadata {
  let head = html.slice(0, MAX_SCANNED_CHARACTERS);
  const end = HEAD_END.exec(head);
  if (end) head = head.slice(0, end.index);
  const meta = new Map<string, string>();
  const icons = new Map<string, string>();
  let title: string | undefined;
  for (const match of head.matchAll(TAG)) {
    const name = match[1]!.toLowerCase();
    const attributes = attributesOf(match[2]!);
    if (name === "title") {
      if (title !== undefined) continue;
      const from = match.index + match[0].length;
      const close = TITLE_END.exec(head.slice(from));
      title = head.slice(from, close ? from + close.index : undefined);
    } else if (name === "meta") {
      const key = (attributes.get("property") ?? attributes.get("name"))?.toLowerCase();
      const content = attributes.get("content");
      if (key !== undefined && content !== undefined && !meta.has(key)) meta.set(key, content);
    } else {
      const rel = attributes.get("rel")?.toLowerCase().trim().replace(/\s+/g, " ");
      const href = attributes.get("href");
      if (rel !== undefined && href !== undefined && !icons.has(rel)) icons.set(rel, href);
    }
  }
  const titleText = text(meta.get("og:title")) ?? text(meta.get("twitter:title")) ?? text(title);
  const site = text(meta.get("og:site_name")) ?? text(meta.get("application-name"));
  const iconHref = ICON_RELS.map((rel) => icons.get(rel)).find((href) => href !== undefined);
  const icon = iconHref === undefined ? undefined : absoluteUrl(decodeEntities(iconHref), url);
  return {
    ...(titleText !== undefined ? { title: titleText } : {}),
    ...(site !== undefined ? { site } : {}),
    ...(icon !== undefined ? { icon } : {}),
  };
}

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/** Decoded, with runs of white space as one space, trimmed and cut; `undefined` when empty. */
function text(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const clean = decodeEntities(raw).replace(/\s+/g, " ").trim();
  if (!clean) return undefined;
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** The character references a title is likely to hold: numeric ones and the common names. */
function decodeEntities(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED[name.toLowerCase()] ?? whole;
    const code =
      name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}

/** `href` resolved against `base`, when the result is an http(s) URL (no `data:`, `javascript:`). */
function absoluteUrl(href: string, base: string): string | undefined {
  try {
    const resolved = new URL(href.trim(), base);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}
