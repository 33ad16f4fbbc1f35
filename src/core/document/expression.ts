import {
  compileExpression,
  evaluateTree,
  ExpressionError,
  type ExpressionRules,
  type Operator,
} from "../shared/expression.js";

/**
 * Expressions of page content (`{{ space.vars.version }}`), which GitBook writes in JavaScript
 * syntax. They are safe expressions (`shared/expression.ts`: parsed by jsep, compiled into a tree
 * of our own, evaluated without running code: no calls, reads of own properties of plain objects
 * and arrays only, never `constructor`, `__proto__` or a getter), under these rules: reads of the
 * scope's roots, literals, `!`, `-`, `+`, comparisons, arithmetic, `&&`, `||`, `??` and `?:`.
 */

/** Values an expression can read: the scope's roots (`space`, `page`...) and what is below them. */
export type ExpressionScope = Readonly<Record<string, unknown>>;

export interface ExpressionOptions {
  /**
   * Evaluate only variable lookups (`space.vars.name`, `page.vars["a b"]`), whose value depends
   * on stored content alone; anything else is reported `unsupported`. Callers that cache or
   * index the result use it, so an operator never makes two renderings of a page disagree.
   */
  readonly deterministicOnly?: boolean;
}

/**
 * An outcome: the value, or why there is none. `unresolved` means a root the scope does not
 * provide (say `visitor.claims.plan`, known only when a visitor reads the page); `unsupported`
 * means syntax outside the rules, an expression longer than 1024 characters, or a value that is
 * not text, a number, a boolean or null; `syntax` means it does not parse.
 */
export type Evaluation =
  | { readonly ok: true; readonly value: string | number | boolean | null | undefined }
  | { readonly ok: false; readonly reason: "syntax" | "unresolved" | "unsupported" };

const OPERATORS = new Set<Operator>([
  "!",
  "-",
  "+",
  "==",
  "!=",
  "===",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "*",
  "/",
  "%",
  "&&",
  "||",
  "??",
  "?:",
]);

/** The rules over one scope: its own roots are the names in scope, any other is `unresolved`. */
function pageRules(scope: ExpressionScope, deterministicOnly: boolean): ExpressionRules {
  return {
    noun: "expression",
    operators: deterministicOnly ? new Set() : OPERATORS,
    literals: !deterministicOnly,
    computedKeys: deterministicOnly ? "literal" : "any",
    resolve(root, keys, refuse) {
      if (root.name === undefined) return refuse(root.at, "only the scope's names can be read");
      if (!Object.hasOwn(scope, root.name))
        return refuse(root.at, `"${root.name}" is not in scope`, "unresolved");
      return [root.name, ...keys.map(({ key }) => key)];
    },
    // Page variables are text: an object is only ever a step of a lookup.
    objects: "refuse",
  };
}

/**
 * Evaluates one expression against a scope.
 *
 * @example
 * ```ts
 * evaluateExpression("space.vars.version", { space: { vars: { version: "2.1" } } });
 * // { ok: true, value: "2.1" }
 * ```
 */
export function evaluateExpression(
  source: string,
  scope: ExpressionScope,
  options: ExpressionOptions = {},
): Evaluation {
  const rules = pageRules(scope, options.deterministicOnly === true);
  try {
    const value = evaluateTree(compileExpression(source, rules), scope, rules);
    return { ok: true, value: value as Exclude<Evaluation, { ok: false }>["value"] };
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, reason: error.code };
    throw error;
  }
}
