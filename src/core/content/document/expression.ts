import jsep from "jsep";

/**
 * Expressions of page content (`{{ space.vars.version }}`), which GitBook writes in JavaScript
 * syntax. `jsep` parses them; this module evaluates the tree itself, over a whitelist of node
 * kinds, so no code ever runs: no `eval`, no `Function`, no calls, and property reads only of
 * own properties of plain objects and arrays (never `constructor`, `__proto__` or a getter).
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
 * means syntax outside the whitelist or a value that is not text, a number, a boolean or null;
 * `syntax` means it does not parse.
 */
export type Evaluation =
  | { readonly ok: true; readonly value: string | number | boolean | null | undefined }
  | { readonly ok: false; readonly reason: "syntax" | "unresolved" | "unsupported" };

type Primitive = string | number | boolean | null | undefined;

class Refusal extends Error {
  constructor(readonly reason: "unresolved" | "unsupported") {
    super(reason);
  }
}

const BINARY: Record<string, (left: Primitive, right: Primitive) => Primitive> = {
  // Loose equality as JavaScript has it: GitBook writes `==` in conditions.
  "==": (left, right) => left == right,
  "!=": (left, right) => left != right,
  "===": (left, right) => left === right,
  "!==": (left, right) => left !== right,
  "<": (left, right) => (left as number) < (right as number),
  "<=": (left, right) => (left as number) <= (right as number),
  ">": (left, right) => (left as number) > (right as number),
  ">=": (left, right) => (left as number) >= (right as number),
  "+": (left, right) =>
    typeof left === "string" || typeof right === "string" ? `${left}${right}` : Number(left) + Number(right),
  "-": (left, right) => Number(left) - Number(right),
  "*": (left, right) => Number(left) * Number(right),
  "/": (left, right) => Number(left) / Number(right),
  "%": (left, right) => Number(left) % Number(right),
};

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
  let tree: jsep.Expression;
  try {
    tree = jsep(source);
  } catch {
    return { ok: false, reason: "syntax" };
  }
  try {
    return { ok: true, value: evaluate(tree, scope, options.deterministicOnly === true) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason };
    throw error;
  }
}

function evaluate(node: jsep.Expression, scope: ExpressionScope, lookupsOnly: boolean): Primitive {
  const value = read(node, scope, lookupsOnly);
  if (value === null || value === undefined || ["string", "number", "boolean"].includes(typeof value)) {
    return value as Primitive;
  }
  throw new Refusal("unsupported");
}

/** Like `evaluate`, but lets objects through: the intermediate values of a lookup. */
function read(node: jsep.Expression, scope: ExpressionScope, lookupsOnly: boolean): unknown {
  const expression = node as jsep.CoreExpression;
  switch (expression.type) {
    case "Identifier":
      if (!Object.hasOwn(scope, expression.name)) throw new Refusal("unresolved");
      return scope[expression.name];
    case "MemberExpression": {
      const object = read(expression.object, scope, lookupsOnly);
      const property = expression.computed
        ? lookupsOnly
          ? literalKey(expression.property)
          : evaluate(expression.property, scope, lookupsOnly)
        : (expression.property as jsep.Identifier).name;
      return member(object, property);
    }
    case "Literal":
      if (lookupsOnly || expression.value instanceof RegExp) throw new Refusal("unsupported");
      return expression.value;
    case "UnaryExpression": {
      if (lookupsOnly) throw new Refusal("unsupported");
      const argument = evaluate(expression.argument, scope, lookupsOnly);
      if (expression.operator === "!") return !argument;
      if (expression.operator === "-") return -Number(argument);
      if (expression.operator === "+") return Number(argument);
      throw new Refusal("unsupported");
    }
    case "BinaryExpression": {
      if (lookupsOnly) throw new Refusal("unsupported");
      const left = evaluate(expression.left, scope, lookupsOnly);
      // Short-circuit as JavaScript does: the right side of `a && b` is not read when `a` is falsy.
      if (expression.operator === "&&") return left ? evaluate(expression.right, scope, lookupsOnly) : left;
      if (expression.operator === "||") return left ? left : evaluate(expression.right, scope, lookupsOnly);
      if (expression.operator === "??") return left ?? evaluate(expression.right, scope, lookupsOnly);
      const operation = BINARY[expression.operator];
      if (!operation) throw new Refusal("unsupported");
      return operation(left, evaluate(expression.right, scope, lookupsOnly));
    }
    case "ConditionalExpression":
      if (lookupsOnly) throw new Refusal("unsupported");
      return evaluate(expression.test, scope, lookupsOnly)
        ? evaluate(expression.consequent, scope, lookupsOnly)
        : evaluate(expression.alternate, scope, lookupsOnly);
    default:
      // Calls, `this`, arrays, sequences, and whatever a jsep plugin adds.
      throw new Refusal("unsupported");
  }
}

/** The key of `a["b"]` or `a[0]` in lookup-only mode: a literal string or number, nothing computed. */
function literalKey(node: jsep.Expression): string | number {
  const literal = node as jsep.CoreExpression;
  if (
    literal.type === "Literal" &&
    (typeof literal.value === "string" || typeof literal.value === "number")
  ) {
    return literal.value;
  }
  throw new Refusal("unsupported");
}

/** Own data properties of plain objects and arrays only; reading below nothing gives nothing. */
function member(object: unknown, property: unknown): unknown {
  if (object === null || object === undefined) return undefined;
  if (typeof property !== "string" && typeof property !== "number") throw new Refusal("unsupported");
  if (typeof object !== "object") throw new Refusal("unsupported");
  const prototype: unknown = Object.getPrototypeOf(object);
  if (!Array.isArray(object) && prototype !== Object.prototype && prototype !== null) {
    throw new Refusal("unsupported");
  }
  const descriptor = Object.getOwnPropertyDescriptor(object, property);
  return descriptor && "value" in descriptor ? descriptor.value : undefined;
}
