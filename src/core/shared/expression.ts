import jsep from "jsep";

/**
 * Safe expressions in JavaScript syntax, for the places users write them: `{{ ... }}` in page
 * content and the conditions of site sections and site spaces. jsep parses the text;
 * {@link compileExpression} checks its tree against the caller's {@link ExpressionRules} and turns
 * it into a tree of our own, which {@link evaluateTree} walks. No code ever runs: no `eval`, no
 * `Function`, no calls, reads of own data properties only (never the prototype chain, never a
 * getter), and no conversion of an object (`valueOf`, `toString`). Work is bounded: an expression
 * has at most {@link MAX_EXPRESSION_LENGTH} characters, so neither jsep nor the walks below
 * recurse deeper than that.
 *
 * What differs between uses is the caller's: the names in scope, the operators and member
 * accesses allowed, how objects are met, and how a refusal is reported.
 */

/** The longest expression compiled: conditions' own limit, and far more than a page variable needs. */
export const MAX_EXPRESSION_LENGTH = 1024;

export type UnaryOperator = "!" | "-" | "+";
export type BinaryOperator =
  "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%" | "&&" | "||" | "??";
/** `?:` stands for the conditional expression. */
export type Operator = UnaryOperator | BinaryOperator | "?:";

export type Literal = string | number | boolean | null;

/** A key of a read: a name, an index, or (where the rules allow it) an expression giving one. */
export type Key = string | number | ExpressionNode;

/** A compiled expression: reads, literals and operators, nothing else. */
export type ExpressionNode =
  | { readonly kind: "literal"; readonly value: Literal }
  | { readonly kind: "read"; readonly path: readonly Key[] }
  | { readonly kind: "unary"; readonly operator: UnaryOperator; readonly operand: ExpressionNode }
  | {
      readonly kind: "binary";
      readonly operator: BinaryOperator;
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
    }
  | {
      readonly kind: "conditional";
      readonly test: ExpressionNode;
      readonly consequent: ExpressionNode;
      readonly alternate: ExpressionNode;
    };

/**
 * Why an expression has no value: `syntax` (it does not parse), `unsupported` (outside the
 * rules), or `unresolved` (it reads a name the scope does not have, as the rules' `resolve`
 * decides). `position` is the 0-based index where the fault starts, when known.
 */
export class ExpressionError extends Error {
  constructor(
    readonly code: "syntax" | "unsupported" | "unresolved",
    readonly reason: string,
    readonly position?: number,
  ) {
    super(position === undefined ? reason : `${reason} (at position ${position})`);
  }
}

/**
 * The start of a read as written, and where it starts; `name` is absent when the read starts at a
 * literal or a group (`"abc".length`).
 */
export interface ReadRoot {
  readonly name?: string;
  readonly at: number;
}

export interface ReadKey {
  readonly key: Key;
  readonly at: number;
}

export type Refuse = (at: number, reason: string, code?: "unsupported" | "unresolved") => never;

export interface ExpressionRules {
  /** What one expression is called in messages: "a condition is one expression". */
  readonly noun: string;
  /**
   * The operators allowed (`-` and `+` both unary and binary); a `-` before a number literal is
   * part of the number, always allowed.
   */
  readonly operators: ReadonlySet<Operator>;
  /** Whether a literal may be a value (the literal key of `a["b"]` is a key, not a value). */
  readonly literals: boolean;
  /** What `a[...]` may hold: a string literal, a string or number literal, or any expression. */
  readonly computedKeys: "string" | "literal" | "any";
  /**
   * The names in scope. Given a read as written (its root, then its keys), returns the path that
   * {@link evaluateTree} reads from the scope, or refuses.
   */
  readonly resolve: (root: ReadRoot, keys: readonly ReadKey[], refuse: Refuse) => readonly Key[];
  /**
   * How objects are met while evaluating. `refuse`: an object is never a value; a read may pass
   * through plain objects and arrays, and reading below anything else, or using an object as an
   * operand or result, is refused as `unsupported`. `opaque`: objects are values, equal only to
   * themselves and never ordered, and a read below a primitive gives `undefined`. Either way
   * arithmetic on an object is refused.
   */
  readonly objects: "refuse" | "opaque";
}

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

/**
 * A jsep parser that records, per node, the index where the node's text starts. jsep's nodes
 * carry no positions, and a global jsep hook would change every other parse; so `gobbleToken` and
 * `gobbleIdentifier` are wrapped here. Operators take the position of their left operand, a
 * member name its own position, and a parenthesized group the position of its first token.
 */
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
 * Parses `source` and compiles it under `rules`, or throws an {@link ExpressionError} naming the
 * first fault found (faults are looked for left to right, an operator before its operands).
 *
 * @example
 * ```ts
 * const rules: ExpressionRules = {
 *   noun: "expression",
 *   operators: new Set(["=="]),
 *   literals: true,
 *   computedKeys: "string",
 *   resolve: (root, keys) => [root.name ?? "", ...keys.map((key) => key.key)],
 *   objects: "opaque",
 * };
 * const tree = compileExpression('user.plan == "pro"', rules);
 * evaluateTree(tree, { user: { plan: "pro" } }, rules); // true
 * ```
 */
export function compileExpression(source: string, rules: ExpressionRules): ExpressionNode {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(
      "unsupported",
      `an expression has at most ${MAX_EXPRESSION_LENGTH} characters`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  const parser = new PositionedParser(source);
  let tree: jsep.Expression;
  try {
    tree = parser.parse();
  } catch (error) {
    const { description, index } = error as { description?: unknown; index?: unknown };
    if (typeof description !== "string" || typeof index !== "number") throw error;
    throw new ExpressionError("syntax", description, index);
  }
  return new Compiler(rules, parser.starts).compile(tree);
}

const UNARY = new Set<string>(["!", "-", "+"]);

class Compiler {
  constructor(
    private readonly rules: ExpressionRules,
    private readonly starts: WeakMap<object, number>,
  ) {}

  private readonly refuseAt: Refuse = (at, reason, code = "unsupported") => {
    throw new ExpressionError(code, reason, at);
  };

  private refuse(node: jsep.Expression, reason: string): never {
    return this.refuseAt(this.startOf(node), reason);
  }

  private allows(operator: string): operator is Operator {
    return this.rules.operators.has(operator as Operator);
  }

  compile(node: jsep.Expression): ExpressionNode {
    const expression = node as jsep.CoreExpression;
    switch (expression.type) {
      case "Literal":
        if (expression.value instanceof RegExp)
          return this.refuse(node, "regular expressions are not allowed");
        if (!this.rules.literals) return this.refuse(node, "literals are not allowed");
        return { kind: "literal", value: expression.value };
      case "UnaryExpression": {
        const { operator, argument } = expression;
        const operand = argument as jsep.CoreExpression;
        if (operator === "-" && operand.type === "Literal" && typeof operand.value === "number") {
          return this.compile({ ...operand, value: -operand.value, raw: `-${operand.raw}` } as jsep.Literal);
        }
        if (!UNARY.has(operator) || !this.allows(operator)) {
          return this.refuse(node, `operator "${operator}" is not allowed`);
        }
        return { kind: "unary", operator: operator as UnaryOperator, operand: this.compile(argument) };
      }
      case "BinaryExpression": {
        const { operator } = expression;
        if (operator === "!" || operator === "?:" || !this.allows(operator)) {
          return this.refuse(node, `operator "${operator}" is not allowed`);
        }
        const left = this.compile(expression.left);
        const right = this.compile(expression.right);
        return { kind: "binary", operator: operator as BinaryOperator, left, right };
      }
      case "ConditionalExpression":
        if (!this.allows("?:")) return this.refuse(node, "conditional (?:) expressions are not allowed");
        return {
          kind: "conditional",
          test: this.compile(expression.test),
          consequent: this.compile(expression.consequent),
          alternate: this.compile(expression.alternate),
        };
      case "MemberExpression":
      case "Identifier":
        return { kind: "read", path: this.read(expression) };
      case "ThisExpression":
        return this.refuse(node, '"this" is not allowed');
      case "CallExpression":
        return this.refuse(node, "function calls are not allowed");
      case "ArrayExpression":
        return this.refuse(node, "arrays are not allowed");
      case "Compound":
        // Several expressions (`a b`, `a; b`, `new F()`): the first fault, or the second one.
        if (!expression.body[0]) return this.refuse(node, "expected an expression");
        this.compile(expression.body[0]);
        return this.refuse(expression.body[1] ?? node, `a ${this.rules.noun} is one expression`);
      default:
        // Sequences, and whatever a jsep plugin adds.
        return this.refuse(node, `${expression.type} is not allowed`);
    }
  }

  /** A member chain: its root and keys as written, handed to the rules' `resolve`. */
  private read(node: jsep.MemberExpression | jsep.Identifier): readonly Key[] {
    const members: jsep.MemberExpression[] = [];
    let root: jsep.Expression = node;
    while (root.type === "MemberExpression") {
      const member = root as jsep.MemberExpression;
      members.unshift(member);
      root = member.object;
    }
    const start = root as jsep.CoreExpression;
    // `this.x`, `f().x`, `[1].length`: refused as what they are; a literal or a group has no name.
    if (start.type !== "Identifier" && start.type !== "Literal") this.compile(start);
    const at = this.startOf(start);
    const name = start.type === "Identifier" ? start.name : undefined;
    const keys = members.map((member) => ({ key: this.key(member), at: this.startOf(member.property) }));
    return this.rules.resolve(name === undefined ? { at } : { name, at }, keys, this.refuseAt);
  }

  private key(member: jsep.MemberExpression): Key {
    const property = member.property as jsep.CoreExpression;
    if (!member.computed) return (property as jsep.Identifier).name;
    const { computedKeys } = this.rules;
    if (property.type === "Literal" && typeof property.value === "string") return property.value;
    if (property.type === "Literal" && typeof property.value === "number" && computedKeys !== "string") {
      return property.value;
    }
    if (computedKeys === "any") return this.compile(property);
    return this.refuse(
      property,
      computedKeys === "string"
        ? "a computed member must be a string literal"
        : "a computed member must be a string or number literal",
    );
  }

  private startOf(node: jsep.Expression): number {
    const known = this.starts.get(node);
    if (known !== undefined) return known;
    const expression = node as jsep.CoreExpression;
    if (expression.type === "BinaryExpression") return this.startOf(expression.left);
    if (expression.type === "ConditionalExpression") return this.startOf(expression.test);
    if (expression.type === "MemberExpression") return this.startOf(expression.object);
    if (expression.type === "CallExpression") return this.startOf(expression.callee);
    if (expression.type === "Compound" && expression.body[0]) return this.startOf(expression.body[0]);
    return 0;
  }
}

/**
 * Evaluates a compiled expression against a scope, under the rules' `objects`. Comparisons
 * follow JavaScript (`==` is loose, as GitBook writes it), `&&`, `||`, `??` and `?:`
 * short-circuit. Throws an {@link ExpressionError} (`unsupported`, without position) where the
 * rules refuse a value.
 */
export function evaluateTree(
  node: ExpressionNode,
  scope: Readonly<Record<string, unknown>>,
  rules: Pick<ExpressionRules, "objects">,
): unknown {
  return new Evaluator(scope, rules.objects === "refuse").value(node);
}

const unsupported = (reason: string) => new ExpressionError("unsupported", reason);

class Evaluator {
  constructor(
    private readonly scope: Readonly<Record<string, unknown>>,
    private readonly strict: boolean,
  ) {}

  /** A node's value; under `refuse`, never an object. */
  value(node: ExpressionNode): unknown {
    const value = this.evaluate(node);
    if (this.strict && isObject(value)) throw unsupported("an object is not a value");
    return value;
  }

  private evaluate(node: ExpressionNode): unknown {
    switch (node.kind) {
      case "literal":
        return node.value;
      case "read":
        return node.path.reduce<unknown>((value, key) => this.member(value, key), this.scope);
      case "unary": {
        const operand = this.value(node.operand);
        if (node.operator === "!") return !operand;
        return node.operator === "-" ? -arithmetic(operand) : arithmetic(operand);
      }
      case "binary": {
        const left = this.value(node.left);
        // Short-circuit as JavaScript does: the right side of `a && b` is not read when `a` is falsy.
        if (node.operator === "&&") return left ? this.value(node.right) : left;
        if (node.operator === "||") return left ? left : this.value(node.right);
        if (node.operator === "??") return left ?? this.value(node.right);
        return binary(node.operator, left, this.value(node.right));
      }
      case "conditional":
        return this.value(node.test) ? this.value(node.consequent) : this.value(node.alternate);
    }
  }

  /** Own data properties only; below nothing is nothing. */
  private member(value: unknown, key: Key): unknown {
    const name = typeof key === "object" ? this.value(key) : key;
    if (typeof name !== "string" && typeof name !== "number")
      throw unsupported("a key must be a string or number");
    if (value === null || value === undefined) return undefined;
    if (!isObject(value)) {
      if (this.strict) throw unsupported("only objects and arrays have members");
      return undefined;
    }
    if (this.strict && !Array.isArray(value)) {
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw unsupported("only plain objects have members");
    }
    // The descriptor's `value`: a getter is never called.
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    return descriptor && "value" in descriptor ? descriptor.value : undefined;
  }
}

type Primitive = Literal | undefined;

/** A number from a primitive, as JavaScript converts it; an object would run its own code. */
function arithmetic(value: unknown): number {
  if (isObject(value)) throw unsupported("arithmetic on an object is not allowed");
  return Number(value);
}

function binary(operator: BinaryOperator, left: unknown, right: unknown): unknown {
  const objects = isObject(left) || isObject(right);
  if (operator === "===" || (objects && operator === "==")) return left === right;
  if (operator === "!==" || (objects && operator === "!=")) return left !== right;
  const [a, b] = [left as Primitive, right as Primitive];
  switch (operator) {
    case "==":
      return a == b;
    case "!=":
      return a != b;
    case "<":
    case "<=":
    case ">":
    case ">=":
      // Objects are never ordered: ordering them would convert them.
      return !objects && order(operator, a, b);
    case "+":
      if (objects) throw unsupported("arithmetic on an object is not allowed");
      return typeof a === "string" || typeof b === "string" ? `${a}${b}` : Number(a) + Number(b);
    case "-":
      return arithmetic(a) - arithmetic(b);
    case "*":
      return arithmetic(a) * arithmetic(b);
    case "/":
      return arithmetic(a) / arithmetic(b);
    case "%":
      return arithmetic(a) % arithmetic(b);
    default:
      // `&&`, `||` and `??` short-circuit before they get here.
      throw unsupported(`operator "${operator}" is not evaluated here`);
  }
}

function order(operator: "<" | "<=" | ">" | ">=", a: Primitive, b: Primitive): boolean {
  const [x, y] = [a as number, b as number];
  if (operator === "<") return x < y;
  if (operator === "<=") return x <= y;
  if (operator === ">") return x > y;
  return x >= y;
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
