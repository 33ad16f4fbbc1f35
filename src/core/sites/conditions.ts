import jsep from "jsep";
import { badRequest } from "../shared/errors.js";

/**
 * Conditions of site sections and site spaces (`visitor.claims.plan == "pro"`): which visitors
 * see them, decided by the claims of a visitor token. They are JavaScript syntax, parsed with
 * jsep, then checked against a safe subset and compiled into a small tree of our own, which
 * `evaluateCondition` walks: no code ever runs (no `eval`, no `Function`, no calls).
 *
 * The safe subset:
 * - claim reads: `visitor.claims` followed by one or more keys, each `.name` or `["name"]` (a
 *   string literal), optionally with `?.`; `visitor.claims.unsigned...` reads the `unsigned`
 *   claim, where visitor tokens carry their unsigned claims. The keys `constructor`, `__proto__`
 *   and `prototype` are refused anywhere in the path.
 * - literals: strings, numbers (a leading `-` is part of the number), `true`, `false`, `null`;
 * - comparisons `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`; `&&`, `||`, `!`; parentheses.
 * Anything else (other identifiers, `this`, calls, arithmetic, ternaries, arrays, several
 * expressions) is refused with the 0-based character index where the refused part starts.
 *
 * Positions: jsep reports the index of a syntax error, but its nodes carry no positions, so the
 * parser below is jsep's own `Jsep` class with `gobbleToken` and `gobbleIdentifier` wrapped to
 * record where each token and each member name starts (a global jsep hook would also change the
 * page expressions of `content/document/expression.ts`). Operators take the position of their
 * left operand, a refused member name its own position, and a parenthesized group the position
 * of its first token (or of `(` when that group is itself refused as a whole).
 *
 * An empty or blank condition is refused: a condition that is always true is no condition, and
 * `null` is how a request removes one.
 */

/** What a parsed condition is made of: claim reads, literals and operators, nothing else. */
export type ConditionNode =
  | { readonly kind: "claim"; readonly path: readonly string[] }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | { readonly kind: "not"; readonly operand: ConditionNode }
  | {
      readonly kind: "logical";
      readonly operator: "&&" | "||";
      readonly left: ConditionNode;
      readonly right: ConditionNode;
    }
  | {
      readonly kind: "compare";
      readonly operator: ComparisonOperator;
      readonly left: ConditionNode;
      readonly right: ConditionNode;
    };

export type ComparisonOperator = "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=";

export interface Condition {
  /** The text as written, kept so that responses echo it unchanged. */
  readonly source: string;
  readonly tree: ConditionNode;
}

const COMPARISONS = new Set<string>(["==", "!=", "===", "!==", "<", "<=", ">", ">="]);
const FORBIDDEN_KEYS = new Set(["constructor", "__proto__", "prototype"]);

interface JsepParser {
  index: number;
  parse(): jsep.Expression;
  gobbleSpaces(): void;
  gobbleToken(): jsep.Expression | false | undefined;
  gobbleIdentifier(): jsep.Expression;
}
type JsepClass = new (expression: string) => JsepParser;

/** jsep exports its parser class at runtime (`jsep.Jsep`); its typings do not declare it. */
const Jsep = (jsep as unknown as { Jsep: JsepClass }).Jsep;

/** A jsep parser that records, per node, the index where the node's text starts. */
class PositionedParser extends Jsep {
  readonly starts = new WeakMap<object, number>();

  override gobbleToken() {
    this.gobbleSpaces();
    const start = this.index;
    const node = super.gobbleToken();
    // A group's inner node keeps its own, inner position.
    if (node && !this.starts.has(node)) this.starts.set(node, start);
    return node;
  }

  override gobbleIdentifier() {
    const start = this.index;
    const node = super.gobbleIdentifier();
    this.starts.set(node, start);
    return node;
  }
}

/**
 * Parses a condition and checks it against the safe subset; `field` names the request field in
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
  const parser = new PositionedParser(text);
  let tree: jsep.Expression;
  try {
    tree = parser.parse();
  } catch (error) {
    const { description, index } = error as { description?: unknown; index?: unknown };
    if (typeof description !== "string" || typeof index !== "number") throw error;
    throw badRequest(`${field}: ${description} (at position ${index})`);
  }
  const refuse = (node: jsep.Expression, reason: string): never => {
    throw badRequest(`${field}: ${reason} (at position ${startOf(node, parser.starts)})`);
  };
  return { source: text, tree: compile(tree, refuse) };
}

function startOf(node: jsep.Expression, starts: WeakMap<object, number>): number {
  const known = starts.get(node);
  if (known !== undefined) return known;
  const expression = node as jsep.CoreExpression;
  if (expression.type === "BinaryExpression") return startOf(expression.left, starts);
  if (expression.type === "ConditionalExpression") return startOf(expression.test, starts);
  if (expression.type === "MemberExpression") return startOf(expression.object, starts);
  if (expression.type === "CallExpression") return startOf(expression.callee, starts);
  if (expression.type === "Compound" && expression.body[0]) return startOf(expression.body[0], starts);
  return 0;
}

type Refuse = (node: jsep.Expression, reason: string) => never;

function compile(node: jsep.Expression, refuse: Refuse): ConditionNode {
  const expression = node as jsep.CoreExpression;
  switch (expression.type) {
    case "Literal":
      if (expression.value instanceof RegExp) return refuse(node, "regular expressions are not allowed");
      return { kind: "literal", value: expression.value };
    case "UnaryExpression": {
      const argument = expression.argument as jsep.CoreExpression;
      if (expression.operator === "!") return { kind: "not", operand: compile(argument, refuse) };
      if (expression.operator === "-" && argument.type === "Literal" && typeof argument.value === "number") {
        return { kind: "literal", value: -argument.value };
      }
      return refuse(node, `operator "${expression.operator}" is not allowed`);
    }
    case "BinaryExpression": {
      const { operator } = expression;
      if (operator === "&&" || operator === "||" || COMPARISONS.has(operator)) {
        const left = compile(expression.left, refuse);
        const right = compile(expression.right, refuse);
        return operator === "&&" || operator === "||"
          ? { kind: "logical", operator, left, right }
          : { kind: "compare", operator: operator as ComparisonOperator, left, right };
      }
      return refuse(node, `operator "${operator}" is not allowed`);
    }
    case "MemberExpression":
    case "Identifier":
      return { kind: "claim", path: claimPath(expression, refuse) };
    case "ThisExpression":
      return refuse(node, '"this" is not allowed');
    case "CallExpression":
      return refuse(node, "function calls are not allowed");
    case "ConditionalExpression":
      return refuse(node, "conditional (?:) expressions are not allowed");
    case "ArrayExpression":
      return refuse(node, "arrays are not allowed");
    case "Compound":
      // Several expressions (`a b`, `a; b`, `new F()`): the first fault, or the second one.
      if (!expression.body[0]) return refuse(node, "expected an expression");
      compile(expression.body[0], refuse);
      return refuse(expression.body[1] ?? node, "a condition is one expression");
    default:
      return refuse(node, `${expression.type} is not allowed`);
  }
}

/**
 * The keys below `visitor.claims` of a member chain, or a refusal of its leftmost fault: the
 * root first, then each key from left to right.
 */
function claimPath(node: jsep.MemberExpression | jsep.Identifier, refuse: Refuse): string[] {
  const members: jsep.MemberExpression[] = [];
  let root: jsep.Expression = node;
  while (root.type === "MemberExpression") {
    const member = root as jsep.MemberExpression;
    members.unshift(member);
    root = member.object;
  }
  const identifier = root as jsep.CoreExpression;
  if (identifier.type !== "Identifier") {
    // `this.x`, `f().x`, `[1].length`...: refused as what they are, or else as a wrong root.
    if (identifier.type !== "Literal") compile(identifier, refuse);
    return refuse(identifier, "only visitor.claims can be read");
  }
  if (identifier.name !== "visitor") {
    return refuse(identifier, `unknown identifier "${identifier.name}" (only visitor.claims can be read)`);
  }
  const keys = members.map((member) => {
    const property = member.property as jsep.CoreExpression;
    let key: string;
    if (!member.computed) key = (property as jsep.Identifier).name;
    else if (property.type === "Literal" && typeof property.value === "string") key = property.value;
    else return refuse(property, "a computed member must be a string literal");
    if (FORBIDDEN_KEYS.has(key)) return refuse(property, `"${key}" is not allowed in a claim path`);
    return key;
  });
  const [claims, ...path] = keys;
  if (claims !== "claims")
    return refuse(members[0]?.property ?? identifier, "only visitor.claims can be read");
  if (path.length === 0) return refuse(node, "visitor.claims must be followed by a claim name");
  return path;
}

/**
 * Evaluates a parsed condition against a visitor's claims; the result is the truthiness of the
 * expression. Reads see own data properties of plain objects and arrays only (so
 * `visitor.claims.roles.length` works), and a missing claim is `undefined`. Comparisons follow
 * JavaScript, except that an object or array is equal only to itself and never ordered, so no
 * conversion of a claim's value ever runs.
 *
 * @example
 * ```ts
 * const condition = parseCondition('visitor.claims.plan == "pro"');
 * evaluateCondition(condition, { plan: "pro" }); // true
 * evaluateCondition(condition, {}); // false
 * ```
 */
export function evaluateCondition(condition: Condition, claims: Readonly<Record<string, unknown>>): boolean {
  return Boolean(evaluate(condition.tree, claims));
}

function evaluate(node: ConditionNode, claims: Readonly<Record<string, unknown>>): unknown {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "claim":
      return node.path.reduce<unknown>(readOwn, claims);
    case "not":
      return !evaluate(node.operand, claims);
    case "logical": {
      const left = evaluate(node.left, claims);
      if (node.operator === "&&") return left ? evaluate(node.right, claims) : left;
      return left ? left : evaluate(node.right, claims);
    }
    case "compare":
      return compare(node.operator, evaluate(node.left, claims), evaluate(node.right, claims));
  }
}

function readOwn(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object") return undefined;
  if (!Object.hasOwn(value, key)) return undefined;
  // The descriptor's `value`: a getter (absent from JSON claims anyway) is never called.
  return Object.getOwnPropertyDescriptor(value, key)?.value;
}

type Primitive = string | number | boolean | null | undefined;

function compare(operator: ComparisonOperator, left: unknown, right: unknown): boolean {
  const objects = isObject(left) || isObject(right);
  if (operator === "===" || (objects && operator === "==")) return left === right;
  if (operator === "!==" || (objects && operator === "!=")) return left !== right;
  if (objects) return false;
  const [a, b] = [left as Primitive, right as Primitive];
  switch (operator) {
    case "==":
      return a == b;
    case "!=":
      return a != b;
    case "<":
      return (a as number) < (b as number);
    case "<=":
      return (a as number) <= (b as number);
    case ">":
      return (a as number) > (b as number);
    case ">=":
      return (a as number) >= (b as number);
  }
}

const isObject = (value: unknown) => typeof value === "object" && value !== null;
