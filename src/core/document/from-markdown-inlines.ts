import type { Definition, Image, ImageReference, Link, LinkReference, PhrasingContent } from "mdast";
import { softBreaksAsSpaces } from "./markdown.js";
import { mentionedUser } from "./mentions.js";
import type {
  DocumentInline,
  DocumentInlineImage,
  DocumentMark,
  DocumentMarkType,
  DocumentPhrasing,
  DocumentText,
  DocumentTextLeaf,
  ContentRef,
  DocumentImageRef,
} from "./types.js";

/**
 * mdast phrasing content to the reference's inline content: emphasis, strong, delete and inline
 * code become marks on text leaves; links and images become inlines; `{{ expression }}` in unmarked
 * text outside links becomes an `expression` inline. Keys are left empty: `assignKeys` sets them.
 */

/** Link and image references resolve through the page's definitions, by normalized identifier. */
export type Definitions = ReadonlyMap<string, Definition>;

/**
 * The reference of a link or image target: `{kind: "url", url}` unless the caller knows better
 * (stored page and file references, link-references/references.ts).
 */
export type LinkRef = (url: string, node: Link | Image | LinkReference | ImageReference) => ContentRef;

export const urlRef: LinkRef = (url) => ({ kind: "url", url });

/** How link targets read: the page's definitions and the reference of a target. */
export interface LinkTargets {
  readonly definitions: Definitions;
  readonly ref: LinkRef;
}

const MARK_ORDER: readonly DocumentMarkType[] = ["bold", "italic", "strikethrough", "code"];
/** As `evaluateMarkdown` finds them; trimmed in code, since `\s*` around a lazy group backtracks. */
const EXPRESSION = /\{\{([^{}\n]*)\}\}/g;

type Item = DocumentTextLeaf | DocumentInline;

interface Context {
  readonly targets: LinkTargets;
  readonly marks: readonly DocumentMarkType[];
  readonly inLink: boolean;
}

/** Converts phrasing content to text nodes and inlines, with a text node around every inline. */
export function phrasingToDocument(
  nodes: readonly PhrasingContent[],
  targets: LinkTargets,
): DocumentPhrasing[] {
  return group(nodes.flatMap((node) => items(node, { targets, marks: [], inLink: false })));
}

/** The data of an image (inline, or lifted into an `images` block); `undefined` for anything else. */
export function imageData(
  node: PhrasingContent,
  targets: LinkTargets,
): DocumentInlineImage["data"] | undefined {
  if (node.type === "image") return withAlt({ ref: imageRef(targets, node.url, node) }, node.alt);
  if (node.type !== "imageReference") return undefined;
  const definition = targets.definitions.get(node.identifier);
  return definition ? withAlt({ ref: imageRef(targets, definition.url, node) }, node.alt) : undefined;
}

/** An image shows a URL or a file: any other reference reads as its URL. */
function imageRef(targets: LinkTargets, url: string, node: Image | ImageReference): DocumentImageRef {
  const ref = targets.ref(url, node);
  return ref.kind === "url" || ref.kind === "file" ? ref : { kind: "url", url };
}

function items(node: PhrasingContent, context: Context): Item[] {
  const all = (children: readonly PhrasingContent[], next: Context) =>
    children.flatMap((child) => items(child, next));
  switch (node.type) {
    case "text":
      return textItems(softBreaksAsSpaces(node.value), context);
    case "emphasis":
      return all(node.children, withMark(context, "italic"));
    case "strong":
      return all(node.children, withMark(context, "bold"));
    case "delete":
      return all(node.children, withMark(context, "strikethrough"));
    case "inlineCode":
      return [leaf(node.value, withMark(context, "code").marks)];
    case "break":
      return [leaf("\n", context.marks)];
    case "html":
      return [leaf(node.value, context.marks)];
    case "footnoteReference":
      return [leaf(`[^${node.label ?? node.identifier}]`, context.marks)];
    case "image":
    case "imageReference": {
      const data = imageData(node, context.targets);
      return data ? [{ object: "inline", type: "inline-image", key: "", data, isVoid: true }] : [];
    }
    case "link":
    case "linkReference": {
      const url = node.type === "link" ? node.url : context.targets.definitions.get(node.identifier)?.url;
      const inner = all(node.children, { ...context, inLink: true });
      if (url === undefined || context.inLink) return inner;
      const user = mentionedUser(url);
      if (user !== undefined) {
        return [
          { object: "inline", type: "mention", key: "", data: { ref: { kind: "user", user } }, isVoid: true },
        ];
      }
      const nodes = group(inner) as (DocumentText | DocumentInlineImage)[];
      const ref = context.targets.ref(url, node);
      return [{ object: "inline", type: "link", key: "", nodes, data: { ref } }];
    }
    default:
      return [];
  }
}

function textItems(text: string, context: Context): Item[] {
  if (context.marks.length > 0 || context.inLink) return [leaf(text, context.marks)];
  const result: Item[] = [];
  let last = 0;
  for (const match of text.matchAll(EXPRESSION)) {
    const expression = (match[1] ?? "").trim();
    if (!expression) continue;
    result.push(leaf(text.slice(last, match.index), []));
    result.push({ object: "inline", type: "expression", key: "", data: { expression }, isVoid: true });
    last = match.index + match[0].length;
  }
  result.push(leaf(text.slice(last), []));
  return result;
}

/**
 * Merges runs of leaves into text nodes (joining neighbours with the same marks) and puts a text
 * node before, between and after inlines, as the editor's model expects.
 */
function group(list: readonly Item[]): DocumentPhrasing[] {
  const result: DocumentPhrasing[] = [];
  let leaves: DocumentTextLeaf[] = [];
  const flush = () => {
    const kept = leaves.filter((candidate) => candidate.text !== "");
    result.push({ object: "text", key: "", leaves: kept.length > 0 ? kept : [leaf("", [])] });
    leaves = [];
  };
  for (const item of list) {
    if (item.object === "inline") {
      flush();
      result.push(item);
      continue;
    }
    const previous = leaves[leaves.length - 1];
    if (previous && sameMarks(previous.marks, item.marks)) previous.text += item.text;
    else leaves.push({ ...item });
  }
  flush();
  return result;
}

function leaf(text: string, marks: readonly DocumentMarkType[]): DocumentTextLeaf {
  return { object: "leaf", text, marks: marks.map((type) => ({ object: "mark", type })) };
}

function withMark(context: Context, mark: DocumentMarkType): Context {
  if (context.marks.includes(mark)) return context;
  const marks = MARK_ORDER.filter((type) => type === mark || context.marks.includes(type));
  return { ...context, marks };
}

function sameMarks(a: readonly DocumentMark[], b: readonly DocumentMark[]): boolean {
  return a.length === b.length && a.every((mark, index) => mark.type === b[index]?.type);
}

function withAlt(
  data: DocumentInlineImage["data"],
  alt: string | null | undefined,
): DocumentInlineImage["data"] {
  return alt ? { ...data, alt } : data;
}
