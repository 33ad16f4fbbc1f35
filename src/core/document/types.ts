/**
 * The part of the reference JSON document model (`components.schemas.JSONDocument` and the
 * `DocumentBlock*`, `DocumentInline*`, `DocumentText` and `DocumentMark*` schemas of
 * `@gitbook/api/spec/openapi.json`) that `markdownToDocument` produces. Each type is assignable to
 * its reference counterpart (a type-level test checks it); `key` is always set here although the
 * reference leaves it optional, so that every node can be addressed (comments target node keys).
 *
 * They are type aliases rather than interfaces so that they are assignable to the structural
 * `DocumentInput` (`schema.ts`), whose `data` objects are string-keyed records.
 */

/** The marks markdown can express. The reference also has keyboard, color, superscript and subscript. */
export type DocumentMarkType = "bold" | "italic" | "strikethrough" | "code";

export type DocumentMark = { object: "mark"; type: DocumentMarkType };

export type DocumentTextLeaf = { object: "leaf"; text: string; marks: DocumentMark[] };

/** A run of text: consecutive leaves, each with its marks. `"\n"` in a leaf is a hard line break. */
export type DocumentText = { object: "text"; key: string; leaves: DocumentTextLeaf[] };

/** The reference `ContentRefURL`: what markdown links and images point at, unless stored as references. */
export type ContentRefURL = { kind: "url"; url: string };

/**
 * The reference `ContentRef` kinds a link or image can hold: a URL, or a page, an anchor of a page
 * or a file of the space by id (stored references, link-references/references.ts).
 */
export type ContentRef =
  | ContentRefURL
  | { kind: "page"; page: string }
  | { kind: "file"; file: string }
  | { kind: "anchor"; anchor: string; page?: string };

/** What an image shows: a URL or a file of the space. */
export type DocumentImageRef = ContentRefURL | { kind: "file"; file: string };

export type DocumentInlineImage = {
  object: "inline";
  type: "inline-image";
  key: string;
  data: { ref: DocumentImageRef; alt?: string };
  isVoid: true;
};

export type DocumentInlineLink = {
  object: "inline";
  type: "link";
  key: string;
  nodes: (DocumentText | DocumentInlineImage)[];
  data: { ref: ContentRef };
};

/** `{{ expression }}` in unmarked text outside links (see `evaluateMarkdown`). */
export type DocumentInlineExpression = {
  object: "inline";
  type: "expression";
  key: string;
  data: { expression: string };
  isVoid: true;
};

/** A mention of a user (markdown: a link to `user:<id>`, see document/mentions.ts). */
export type DocumentInlineMention = {
  object: "inline";
  type: "mention";
  key: string;
  data: { ref: { kind: "user"; user: string } };
  isVoid: true;
};

export type DocumentInline =
  DocumentInlineLink | DocumentInlineImage | DocumentInlineExpression | DocumentInlineMention;

/** The content of a paragraph or a heading. */
export type DocumentPhrasing = DocumentText | DocumentInline;

export type DocumentBlockParagraph = {
  object: "block";
  type: "paragraph";
  key: string;
  nodes: DocumentPhrasing[];
};

export type DocumentBlockHeading = {
  object: "block";
  type: "heading-1" | "heading-2" | "heading-3";
  key: string;
  nodes: DocumentPhrasing[];
  data: Record<string, never>;
  /** The heading's anchor, as `extractHeadings` computes it. */
  meta: { id: string };
};

export type DocumentBlockListItem = {
  object: "block";
  type: "list-item";
  key: string;
  nodes: DocumentBlockInListItem[];
  /** Set on the items of a `list-tasks` only. */
  data?: { checked: boolean };
};

export type DocumentBlockListOrdered = {
  object: "block";
  type: "list-ordered";
  key: string;
  /** `start` only when the list does not start at 1. */
  data: { start?: number };
  nodes: DocumentBlockListItem[];
};

export type DocumentBlockListUnordered = {
  object: "block";
  type: "list-unordered";
  key: string;
  nodes: DocumentBlockListItem[];
};

/** A GFM task list: each item's `data.checked` says whether its box is ticked. */
export type DocumentBlockListTasks = {
  object: "block";
  type: "list-tasks";
  key: string;
  nodes: DocumentBlockListItem[];
};

export type DocumentBlockDivider = {
  object: "block";
  type: "divider";
  key: string;
  isVoid: true;
  data: Record<string, never>;
};

export type DocumentBlockQuote = {
  object: "block";
  type: "blockquote";
  key: string;
  nodes: (DocumentBlockEssential | DocumentBlockQuote)[];
};

export type DocumentHintStyle = "info" | "warning" | "danger" | "success";

export type DocumentBlockHint = {
  object: "block";
  type: "hint";
  key: string;
  data: { style: DocumentHintStyle };
  nodes: DocumentBlockEssential[];
};

export type DocumentBlockCodeLine = {
  object: "block";
  type: "code-line";
  key: string;
  nodes: DocumentText[];
  data: Record<string, never>;
};

export type DocumentBlockCode = {
  object: "block";
  type: "code";
  key: string;
  data: { syntax?: string; title?: string };
  nodes: DocumentBlockCodeLine[];
};

export type DocumentBlockImage = {
  object: "block";
  type: "image";
  key: string;
  data: { ref: DocumentImageRef; alt?: string };
  fragments: { object: "fragment"; key: string; fragment: "caption"; nodes: DocumentBlockParagraph[] }[];
  isVoid: true;
};

export type DocumentBlockImages = {
  object: "block";
  type: "images";
  key: string;
  data: Record<string, never>;
  nodes: DocumentBlockImage[];
  isVoid: false;
};

export type DocumentTableDefinitionText = {
  id: string;
  title: string;
  type: "text";
  textAlignment: "left" | "center" | "right";
};

/** A table cell: its record value names the fragment (`fragment`) that holds its content. */
export type DocumentTableCell = {
  object: "fragment";
  key: string;
  fragment: string;
  nodes: DocumentBlockParagraph[];
};

export type DocumentBlockTable = {
  object: "block";
  type: "table";
  key: string;
  isVoid: true;
  data: {
    view: { type: "grid"; columns: string[]; hideHeader: boolean };
    records: Record<string, { orderIndex: string; values: Record<string, string> }>;
    definition: Record<string, DocumentTableDefinitionText>;
  };
  fragments: DocumentTableCell[];
};

/**
 * The reference `DocumentBlockReusableContent`: includes a reusable content of the space, written
 * `{% include "<reusable content id>" %}` on a line of its own in markdown.
 */
export type DocumentBlockReusableContent = {
  object: "block";
  type: "reusable-content";
  key: string;
  isVoid: true;
  data: { ref: { kind: "reusable-content"; reusableContent: string } };
};

/** The reference `DocumentBlocksEssentials`. */
export type DocumentBlockEssential =
  | DocumentBlockParagraph
  | DocumentBlockHeading
  | DocumentBlockListOrdered
  | DocumentBlockListUnordered
  | DocumentBlockListTasks
  | DocumentBlockDivider;

/** What the reference allows in a `list-item`. */
export type DocumentBlockInListItem =
  DocumentBlockEssential | DocumentBlockCode | DocumentBlockHint | DocumentBlockQuote | DocumentBlockTable;

/** What the reference allows at the top of a document (`DocumentBlocksTopLevels`). */
export type DocumentBlockTopLevel =
  DocumentBlockInListItem | DocumentBlockImages | DocumentBlockReusableContent;

/** The reference `JSONDocument`, restricted to what markdown can express. */
export type JSONDocument = {
  object: "document";
  data: Record<string, never>;
  nodes: DocumentBlockTopLevel[];
};
