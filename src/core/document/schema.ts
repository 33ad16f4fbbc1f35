import * as z from "zod";

/**
 * `documentInput`: the request-body schema of a JSON document (the reference `JSONDocument`), as
 * a change request `description` or page content arrives.
 *
 * It checks structure only: a `document` whose `nodes` are blocks, blocks holding blocks, inlines
 * or texts, inlines holding inlines or texts, texts holding leaves with marks, and fragments
 * holding blocks. Node `type`s and `data` are not checked against the reference's block list, so
 * documents written by GitBook with blocks docsbase does not render (tabs, embeds...) are kept as
 * they are. Unknown properties are kept too. Errors name the path of the offending node
 * (`nodes.2.nodes.0.leaves.1.text: Invalid input: expected string, received number`).
 */

/** Deeper documents are refused before the recursive parse, which could exhaust the stack. */
export const MAX_DOCUMENT_DEPTH = 64;

const data = z.record(z.string(), z.unknown());
const key = z.string().optional();

const mark = z.looseObject({ object: z.literal("mark"), type: z.string().min(1), data: data.optional() });
const leaf = z.looseObject({ object: z.literal("leaf"), text: z.string(), marks: z.array(mark) });
const text = z.looseObject({ object: z.literal("text"), key, leaves: z.array(leaf) });

const inline = z.looseObject({
  object: z.literal("inline"),
  type: z.string().min(1),
  key,
  data: data.optional(),
  isVoid: z.boolean().optional(),
  get nodes() {
    return z.array(inlineChild).optional();
  },
  get fragments() {
    return z.array(fragment).optional();
  },
});

const block = z.looseObject({
  object: z.literal("block"),
  type: z.string().min(1),
  key,
  data: data.optional(),
  isVoid: z.boolean().optional(),
  get nodes() {
    return z.array(blockChild).optional();
  },
  get fragments() {
    return z.array(fragment).optional();
  },
});

const fragment = z.looseObject({
  object: z.literal("fragment"),
  key,
  fragment: z.string().optional(),
  type: z.string().optional(),
  get nodes() {
    return z.array(block);
  },
});

const nodeError = (expected: string) => ({ error: `Expected ${expected} (by its "object")` });
const inlineChild = z.discriminatedUnion("object", [text, inline], nodeError("a text or an inline"));
const blockChild = z.discriminatedUnion(
  "object",
  [block, inline, text],
  nodeError("a block, an inline or a text"),
);

const document = z.looseObject({
  object: z.literal("document"),
  data: data.default({}),
  nodes: z.array(block),
});

export const documentInput = z
  .unknown()
  .superRefine((value, context) => {
    if (depthExceeds(value, MAX_DOCUMENT_DEPTH)) {
      context.addIssue({ code: "custom", message: `Nested deeper than ${MAX_DOCUMENT_DEPTH} nodes` });
    }
  })
  .pipe(document);

export type DocumentInput = z.infer<typeof documentInput>;
export type DocumentInputBlock = z.infer<typeof block>;
export type DocumentInputInline = z.infer<typeof inline>;
export type DocumentInputText = z.infer<typeof text>;
export type DocumentInputNode = DocumentInputBlock | DocumentInputInline | DocumentInputText;

/** Whether `nodes` (or `fragments`) arrays nest deeper than `limit`, checked without recursion. */
export function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > limit) return true;
    if (!current || typeof current !== "object") continue;
    for (const field of ["nodes", "fragments"] as const) {
      const children: unknown = (current as Record<string, unknown>)[field];
      if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return false;
}
