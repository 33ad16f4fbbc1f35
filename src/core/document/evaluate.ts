import type { Nodes } from "mdast";
import { evaluateExpression, type ExpressionOptions } from "./expression.js";
import { parseMarkdown } from "./markdown.js";

/** The variables a page's expressions read: the space's and the page's own (maps of text). */
export type PageScope = {
  readonly space?: { readonly vars: Readonly<Record<string, string>> };
  readonly page?: { readonly vars: Readonly<Record<string, string>> };
};

export type EvaluateMarkdownOptions = ExpressionOptions;

/**
 * `{{ ... }}` on one line, not opened by an escaped brace. Braces cannot appear inside (the
 * expression syntax has no object literals), which keeps the scan linear on `{{{{...`.
 */
const EXPRESSION = /(?<!\\)\{\{([^{}\n]*)\}\}/g;

/**
 * Replaces each `{{ expression }}` in the text of page markdown with its value, and leaves the rest
 * of the markdown byte for byte as it was. Expressions in code spans, code blocks, raw HTML and
 * link destinations are text, not expressions, and stay as written.
 *
 * What an expression gives:
 * - a string, number or boolean: its text, escaped so that it reads as text, not markup (a value
 *   `*new*` shows the asterisks);
 * - nothing (`null`, `undefined`, or a variable the scope's `space` or `page` does not have): the
 *   empty string, as GitBook shows an undefined variable to readers;
 * - no answer (a root the scope does not provide, like `visitor.claims.plan`; syntax that does not
 *   parse or is not supported; anything but a lookup under `deterministicOnly`): the expression
 *   stays as written, so a later renderer that knows more can evaluate it and no text is lost.
 *
 * Evaluate before `extractHeadings` or `plainText` when their output should show values.
 *
 * @example
 * ```ts
 * evaluateMarkdown("Install {{ space.vars.version }}", { space: { vars: { version: "2.1" } } });
 * // "Install 2.1"
 * ```
 */
export function evaluateMarkdown(
  markdown: string,
  scope: PageScope,
  options: EvaluateMarkdownOptions = {},
): string {
  if (!markdown.includes("{{")) return markdown;
  const replacements: { start: number; end: number; text: string }[] = [];
  visitTexts(parseMarkdown(markdown), (start, end) => {
    for (const match of markdown.slice(start, end).matchAll(EXPRESSION)) {
      const evaluation = evaluateExpression(match[1] ?? "", scope, options);
      if (!evaluation.ok) continue;
      const at = start + match.index;
      replacements.push({ start: at, end: at + match[0].length, text: escapeText(evaluation.value) });
    }
  });
  let result = markdown;
  for (const { start, end, text } of replacements.sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + text + result.slice(end);
  }
  return result;
}

/** Calls `visit` with the source range of every text node outside code and HTML. */
function visitTexts(node: Nodes, visit: (start: number, end: number) => void): void {
  if (node.type === "text") {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) visit(start, end);
    return;
  }
  if ("children" in node) for (const child of node.children) visitTexts(child, visit);
}

/**
 * A value as literal markdown text: on one line, with the characters that could open markup
 * inline backslash-escaped (CommonMark lets any ASCII punctuation be escaped), and a leading
 * `-`, `+`, `=`, `>` or `1.` that could start a block escaped too.
 */
function escapeText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  return String(value)
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_[<|~&{#$]/g, "\\$&")
    .replace(/^(\d+)([.)])(?=\s|$)/, "$1\\$2")
    .replace(/^(?:[-+>]|=+$)/, "\\$&");
}
