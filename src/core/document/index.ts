/**
 * Page content: markdown to the reference JSON document model and back, the request-body schema
 * of documents, expression evaluation, and the headings and plain text of a page. Pure and
 * runtime-neutral: nothing here touches storage or the platform.
 */
export { createSlugger, type Slugger } from "./anchors.js";
export { evaluateMarkdown, type EvaluateMarkdownOptions, type PageScope } from "./evaluate.js";
export {
  evaluateExpression,
  type Evaluation,
  type ExpressionOptions,
  type ExpressionScope,
} from "./expression.js";
export { INCLUDE_PATTERN, markdownToDocument } from "./from-markdown.js";
export { mentionsIn } from "./mentions.js";
export { extractHeadings, plainText, type PageHeading } from "./outline.js";
export {
  documentInput,
  MAX_DOCUMENT_DEPTH,
  type DocumentInput,
  type DocumentInputBlock,
  type DocumentInputInline,
  type DocumentInputNode,
  type DocumentInputText,
} from "./schema.js";
export { documentToMarkdown, type DocumentToMarkdownOptions } from "./to-markdown.js";
export type { RefResolver } from "./to-markdown-inlines.js";
export type * from "./types.js";
