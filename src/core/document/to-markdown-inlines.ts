import type { Link, PhrasingContent } from "mdast";
import { mentionedUser, mentionUrl } from "./mentions.js";
import type { DocumentInputNode } from "./schema.js";

/**
 * Inline content of the reference model back to mdast phrasing content. Marks become nested
 * emphasis, strong, delete and inline code: at each position the mark that runs the longest opens
 * first, so `*a **b** c*` comes back as written rather than as three separate emphases, and
 * whitespace at the edge of a marked run moves outside it (`**a **b` is not valid emphasis).
 * Marks markdown cannot express (keyboard, color, superscript, subscript) are dropped.
 */

/** Turns a content reference into a URL; `undefined` keeps the link text without a link. */
export type RefResolver = (ref: Readonly<Record<string, unknown>>) => string | undefined;

const WRAPPERS = { bold: "strong", italic: "emphasis", strikethrough: "delete" } as const;
type Wrapper = keyof typeof WRAPPERS;
const WRAPPER_ORDER = Object.keys(WRAPPERS) as Wrapper[];

type Item =
  | { kind: "leaf"; text: string; code: boolean; marks: ReadonlySet<string> }
  | { kind: "link"; url: string; inner: Item[]; marks: ReadonlySet<string> }
  | { kind: "node"; node: PhrasingContent; marks: ReadonlySet<string> };

const NO_MARKS: ReadonlySet<string> = new Set();

/** Converts the children of a paragraph, heading or table cell. */
export function phrasingToMdast(
  nodes: readonly DocumentInputNode[],
  resolve: RefResolver,
): PhrasingContent[] {
  return nest(nodes.flatMap((node) => items(node, resolve)));
}

/** A reference's URL: URL refs give theirs, anything else goes through `resolve`. */
export function refUrl(ref: unknown, resolve: RefResolver): string | undefined {
  if (!ref || typeof ref !== "object") return undefined;
  const record = ref as Record<string, unknown>;
  if (record["kind"] === "url" && typeof record["url"] === "string") return record["url"];
  return resolve(record);
}

function items(node: DocumentInputNode, resolve: RefResolver): Item[] {
  if (node.object === "text") {
    return node.leaves.map((leaf) => {
      const types = leaf.marks.map((mark) => mark.type);
      return { kind: "leaf", text: leaf.text, code: types.includes("code"), marks: new Set(types) };
    });
  }
  const data = node.data ?? {};
  const children = () => (node.nodes ?? []).flatMap((child) => items(child, resolve));
  const plain = (text: string): Item => ({ kind: "leaf", text, code: false, marks: NO_MARKS });
  switch (node.type) {
    case "link": {
      const inner = children();
      const url = refUrl(data["ref"], resolve);
      if (url === undefined) return inner;
      const marks = commonMarks(inner);
      return [{ kind: "link", url, inner: inner.map((item) => without(item, marks)), marks }];
    }
    case "inline-image": {
      const url = refUrl(data["ref"], resolve);
      if (url === undefined) return [];
      const alt = typeof data["alt"] === "string" ? data["alt"] : null;
      return [{ kind: "node", node: { type: "image", url, alt }, marks: NO_MARKS }];
    }
    case "expression":
      return [plain(`{{ ${String(data["expression"] ?? "")} }}`)];
    case "mention": {
      const ref = data["ref"] as Record<string, unknown> | undefined;
      const user = ref?.["kind"] === "user" ? ref["user"] : undefined;
      if (typeof user !== "string" || mentionedUser(mentionUrl(user)) === undefined) return [];
      const link: Link = {
        type: "link",
        url: mentionUrl(user),
        children: [{ type: "text", value: `@${user}` }],
      };
      return [{ kind: "node", node: link, marks: NO_MARKS }];
    }
    case "emoji":
      return [plain(emoji(String(data["code"] ?? "")))];
    case "inline-math":
      return [
        {
          kind: "node",
          node: { type: "html", value: `$$${String(data["formula"] ?? "")}$$` },
          marks: NO_MARKS,
        },
      ];
    default:
      return children();
  }
}

function nest(list: readonly Item[]): PhrasingContent[] {
  const result: PhrasingContent[] = [];
  let index = 0;
  while (index < list.length) {
    const item = list[index]!;
    const runLength = (mark: Wrapper) => {
      let end = index;
      while (end < list.length && list[end]!.marks.has(mark)) end++;
      return end - index;
    };
    let best: Wrapper | undefined;
    for (const mark of WRAPPER_ORDER) {
      if (item.marks.has(mark) && (!best || runLength(mark) > runLength(best))) best = mark;
    }
    if (!best) {
      result.push(...render(item));
      index++;
      continue;
    }
    const length = runLength(best);
    const run = list.slice(index, index + length).map((entry) => without(entry, new Set([best])));
    const [lead, core, trail] = splitEdgeWhitespace(run);
    if (lead) result.push({ type: "text", value: lead });
    if (core.length > 0) result.push({ type: WRAPPERS[best], children: nest(core) });
    if (trail) result.push({ type: "text", value: trail });
    index += length;
  }
  return result;
}

function render(item: Item): PhrasingContent[] {
  if (item.kind === "node") return [item.node];
  if (item.kind === "link") return [{ type: "link", url: item.url, children: nest(item.inner) }];
  if (item.text === "") return [];
  if (item.code) return [{ type: "inlineCode", value: item.text }];
  return item.text
    .split("\n")
    .flatMap((part, line): PhrasingContent[] => [
      ...(line > 0 ? [{ type: "break" } as const] : []),
      ...(part ? [{ type: "text", value: part } as const] : []),
    ]);
}

/** Whitespace at the start of the first and the end of the last leaf of a run, moved out of it. */
function splitEdgeWhitespace(run: Item[]): [string, Item[], string] {
  const core = [...run];
  const first = core[0];
  const last = core[core.length - 1];
  if (!first || !last) return ["", core, ""];
  let lead = "";
  let trail = "";
  if (first.kind === "leaf" && !first.code) {
    lead = first.text.slice(0, first.text.length - first.text.trimStart().length);
    core[0] = { ...first, text: first.text.slice(lead.length) };
  }
  const end = core[core.length - 1]!;
  if (end.kind === "leaf" && !end.code) {
    trail = end.text.slice(end.text.trimEnd().length);
    core[core.length - 1] = { ...end, text: end.text.slice(0, end.text.length - trail.length) };
  }
  const nonEmpty = core.filter((entry) => entry.kind !== "leaf" || entry.text !== "");
  return nonEmpty.length > 0 ? [lead, nonEmpty, trail] : [lead + trail, [], ""];
}

/** Marks shared by every non-empty leaf and link of a link's content. */
function commonMarks(list: readonly Item[]): ReadonlySet<string> {
  const relevant = list.filter((item) => item.kind !== "leaf" || item.text !== "");
  if (relevant.length === 0 || relevant.some((item) => item.kind === "node")) return NO_MARKS;
  return new Set(WRAPPER_ORDER.filter((mark) => relevant.every((item) => item.marks.has(mark))));
}

function without(item: Item, marks: ReadonlySet<string>): Item {
  if (marks.size === 0) return item;
  return { ...item, marks: new Set([...item.marks].filter((mark) => !marks.has(mark))) };
}

/** The reference stores an emoji as its code points in hexadecimal, joined by `-`. */
function emoji(code: string): string {
  const points = code.split("-").map((part) => Number.parseInt(part, 16));
  return points.every((point) => Number.isInteger(point) && point >= 0 && point <= 0x10ffff)
    ? String.fromCodePoint(...points)
    : "";
}
