import { badRequest } from "../shared/errors.js";
import {
  compileExpression,
  evaluateTree,
  ExpressionError,
  type ExpressionNode,
  type ExpressionRules,
  type Key,
  type ReadKey,
  type ReadRoot,
  type Refuse,
} from "../shared/expression.js";

/**
 * Conditions of site sections and site spaces (`visitor.claims.plan == "pro"`): which visitors
 * see them, decided by the claims of a visitor token. They are safe expressions
 * (`shared/expression.ts`: parsed by jsep, compiled into a tree of our own, evaluated without
 * running code), under these rules:
 * - claim reads: `visitor.claims` followed by one or more keys, each `.name` or `["name"]` (a
 *   string literal), optionally with `?.`; `visitor.claims.unsigned...` reads the `unsigned`
 *   claim, where visitor tokens carry their unsigned claims. The keys `constructor`, `__proto__`
 *   and `prototype` are refused anywhere in the path.
 * - literals: strings, numbers (a leading `-` is part of the number), `true`, `false`, `null`;
 * - comparisons `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`; `&&`, `||`, `!`; parentheses.
 * Anything else (other identifiers, `this`, calls, arithmetic, ternaries, arrays, several
 * expressions) is refused with the 0-based character index where the refused part starts.
 *
 * An empty or blank condition is refused: a condition that is always true is no condition, and
 * `null` is how a request removes one.
 */

export interface Condition {
  /** The text as written, kept so that responses echo it unchanged. */
  readonly source: string;
  /** The compiled condition; its reads are claim paths, below `visitor.claims`. */
  readonly tree: ExpressionNode;
}

const FORBIDDEN_KEYS = new Set(["constructor", "__proto__", "prototype"]);

const CONDITION_RULES: ExpressionRules = {
  noun: "condition",
  operators: new Set(["!", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "&&", "||"]),
  literals: true,
  computedKeys: "string",
  resolve: claimPath,
  // Claims are JSON: an object claim is a value, compared by identity (`roles.length` reads an
  // array's own length), and a key below a string or number reads nothing.
  objects: "opaque",
};

/**
 * Parses a condition and checks it against the rules above; `field` names the request field in
 * error messages.
 *
 * @example
 * ```ts
 * parseCondition('visitor.claims.plan == "pro" && !visitor.claims.unsigned.trial');
 * parseCondition("visitor.claims.constructor");
 * // throws badRequest('body.condition: "constructor" is not allowed in a claim path (at position 15)')
 * ```
 */
export function parseCondition(text: string, field = "body.condition"): Condition {
  if (text.trim() === "") throw badRequest(`${field}: must not be empty (null removes a condition)`);
  try {
    return { source: text, tree: compileExpression(text, CONDITION_RULES) };
  } catch (error) {
    if (error instanceof ExpressionError) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}

/**
 * The keys below `visitor.claims` of a read, or a refusal of its first fault: the root, then
 * each key from left to right, then the `claims` member.
 */
function claimPath(root: ReadRoot, keys: readonly ReadKey[], refuse: Refuse): Key[] {
  if (root.name === undefined) return refuse(root.at, "only visitor.claims can be read");
  if (root.name !== "visitor") {
    return refuse(root.at, `unknown identifier "${root.name}" (only visitor.claims can be read)`);
  }
  for (const { key, at } of keys) {
    if (typeof key === "string" && FORBIDDEN_KEYS.has(key)) {
      refuse(at, `"${key}" is not allowed in a claim path`);
    }
  }
  const [claims, ...path] = keys;
  if (claims?.key !== "claims") return refuse(claims?.at ?? root.at, "only visitor.claims can be read");
  if (path.length === 0) return refuse(root.at, "visitor.claims must be followed by a claim name");
  return path.map(({ key }) => key);
}

/**
 * Evaluates a parsed condition against a visitor's claims; the result is the truthiness of the
 * expression. Reads see own data properties only (so `visitor.claims.roles.length` works), and a
 * missing claim is `undefined`. Comparisons follow JavaScript, except that an object or array is
 * equal only to itself and never ordered, so no conversion of a claim's value ever runs.
 *
 * @example
 * ```ts
 * const condition = parseCondition('visitor.claims.plan == "pro"');
 * evaluateCondition(condition, { plan: "pro" }); // true
 * evaluateCondition(condition, {}); // false
 * ```
 */
export function evaluateCondition(condition: Condition, claims: Readonly<Record<string, unknown>>): boolean {
  return Boolean(evaluateTree(condition.tree, claims, CONDITION_RULES));
}
