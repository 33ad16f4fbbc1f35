import { describe, expect, it } from "vitest";
import {
  compileExpression,
  evaluateTree,
  ExpressionError,
  MAX_EXPRESSION_LENGTH,
  type ExpressionRules,
  type Operator,
  type ReadKey,
  type ReadRoot,
} from "./expression.js";

const EVERY_OPERATOR: Operator[] = [
  ...(["!", "-", "+", "==", "!=", "===", "!==", "<", "<=", ">", ">="] as const),
  ...(["*", "/", "%", "&&", "||", "??", "?:"] as const),
];

/** Everything allowed, reads resolved as written: what is left to hold is the module's own safety. */
function rules(
  objects: ExpressionRules["objects"],
  overrides: Partial<ExpressionRules> = {},
): ExpressionRules {
  return {
    noun: "expression",
    operators: new Set(EVERY_OPERATOR),
    literals: true,
    computedKeys: "any",
    resolve: (root, keys, refuse) =>
      root.name === undefined ? refuse(root.at, "no name") : [root.name, ...keys.map(({ key }) => key)],
    objects,
    ...overrides,
  };
}

function run(source: string, scope: Record<string, unknown>, ruleSet: ExpressionRules): unknown {
  return evaluateTree(compileExpression(source, ruleSet), scope, ruleSet);
}

function failure(act: () => unknown): ExpressionError {
  try {
    act();
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error("no refusal");
}

describe.each(["refuse", "opaque"] as const)("safe expressions, objects %s", (objects) => {
  const all = rules(objects);

  it("reads own data properties only: never the prototype chain, never a getter", () => {
    let called = false;
    const scope = {
      o: Object.defineProperty({ plain: 1 }, "secret", {
        enumerable: true,
        get: () => {
          called = true;
          return "leaked";
        },
      }),
      list: ["a"],
    };
    for (const source of [
      "o.secret",
      "o.constructor",
      "o.__proto__",
      'o["__proto__"]',
      "o.toString",
      "o.hasOwnProperty",
      "o.plain.constructor",
      "list.map",
      'o["constr" + "uctor"]',
    ]) {
      const outcome = (() => {
        try {
          return run(source, scope, all);
        } catch (error) {
          if (error instanceof ExpressionError && error.code === "unsupported") return undefined;
          throw error;
        }
      })();
      expect(outcome, source).toBeUndefined();
    }
    expect(run("list.length", scope, all)).toBe(1);
    expect(called).toBe(false);
  });

  it("never converts an object: no valueOf, no toString runs", () => {
    let converted = false;
    const hostile = {
      valueOf: () => ((converted = true), 1),
      toString: () => ((converted = true), "x"),
    };
    const scope = { h: hostile, n: 1 };
    for (const source of ["h == 1", "h < 1", "h >= 1", "h + 1", "h - 1", "-h", "+h", "h * 2", "n + h"]) {
      try {
        run(source, scope, all);
      } catch (error) {
        if (!(error instanceof ExpressionError)) throw error;
      }
    }
    expect(converted).toBe(false);
  });

  it("runs nothing: calls, this, arrays, sequences and regular expressions are refused", () => {
    for (const source of ["f()", "o.f()", "this", "this.x", "[1]", "a, b", "a; b", "new F()"]) {
      expect(failure(() => compileExpression(source, all)).code, source).toBe("unsupported");
    }
  });

  it("bounds the work: at most MAX_EXPRESSION_LENGTH characters, and nesting that deep evaluates", () => {
    const longest = `1${"+1".repeat(511)} `;
    expect(longest.length).toBe(MAX_EXPRESSION_LENGTH);
    expect(run(longest, {}, all)).toBe(512);
    const deep = [
      `${"(".repeat(511)}1${")".repeat(511)}`,
      `${"!".repeat(1022)}1`,
      `${"-".repeat(1023)}1`,
      `a${".b".repeat(511)}`,
      `${"1 ? ".repeat(127)}1${" : 0".repeat(127)}`,
    ];
    for (const source of deep) {
      expect(source.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
      expect(() => run(source, { a: {} }, all), source.slice(0, 10)).not.toThrow();
    }
    const tooLong = failure(() => compileExpression(`${longest}+1`, all));
    expect(tooLong.code).toBe("unsupported");
    expect(tooLong.message).toBe("an expression has at most 1024 characters (at position 1024)");
  });
});

describe("objects: refuse and opaque", () => {
  const scope = { o: { a: "1" }, s: "text", d: new Date(0) };

  it("refuse: an object is never a value, and a read passes through plain objects and arrays only", () => {
    const strict = rules("refuse");
    for (const source of ["o", "o == o", "!o", "o ? 1 : 2", "o || 1", "s.length", "d.x"]) {
      expect(failure(() => run(source, scope, strict)).code, source).toBe("unsupported");
    }
    expect(run("o.a", scope, strict)).toBe("1");
  });

  it("opaque: objects are values equal only to themselves and never ordered; below a primitive is nothing", () => {
    const opaque = rules("opaque");
    expect(run("o == o", scope, opaque)).toBe(true);
    expect(run('o == "[object Object]"', scope, opaque)).toBe(false);
    expect(run("o < 1 || o >= 1", scope, opaque)).toBe(false);
    expect(run("!o", scope, opaque)).toBe(false);
    expect(run("s.length", scope, opaque)).toBeUndefined();
    expect(failure(() => run("o + 1", scope, opaque)).code).toBe("unsupported");
  });
});

describe("rules", () => {
  it("refuses the operators they leave out, naming the operator and its position", () => {
    const comparisons = rules("opaque", { operators: new Set(["==", "&&"]) });
    expect(run("a == 1 && b == 2", { a: 1, b: 2 }, comparisons)).toBe(true);
    expect(failure(() => compileExpression("a == 1 && b + 1", comparisons)).message).toBe(
      'operator "+" is not allowed (at position 10)',
    );
    expect(failure(() => compileExpression("a ? 1 : 2", comparisons)).message).toBe(
      "conditional (?:) expressions are not allowed (at position 0)",
    );
    expect(failure(() => compileExpression("!a", comparisons)).message).toBe(
      'operator "!" is not allowed (at position 0)',
    );
    expect(compileExpression("a == -1", comparisons)).toEqual({
      kind: "binary",
      operator: "==",
      left: { kind: "read", path: ["a"] },
      right: { kind: "literal", value: -1 },
    });
  });

  it("holds computed keys and literals to what they allow", () => {
    const stringKeys = rules("opaque", { computedKeys: "string" });
    expect(failure(() => compileExpression("a[0]", stringKeys)).message).toContain(
      "a computed member must be a string literal (at position 2)",
    );
    const literalKeys = rules("refuse", { computedKeys: "literal", literals: false });
    expect(run('a[0]["b"]', { a: [{ b: "x" }] }, literalKeys)).toBe("x");
    expect(failure(() => compileExpression("a[b]", literalKeys)).message).toContain(
      "a computed member must be a string or number literal",
    );
    expect(failure(() => compileExpression('"x"', literalKeys)).message).toContain(
      "literals are not allowed",
    );
    expect(failure(() => run("a[b]", { a: {}, b: {} }, rules("refuse"))).code).toBe("unsupported");
  });

  it("hands every read to resolve with its root and keys as written, and reads what it returns", () => {
    const seen: [ReadRoot, readonly ReadKey[]][] = [];
    const aliased = rules("opaque", {
      resolve: (root, keys, refuse) => {
        seen.push([root, keys]);
        if (root.name === "missing") return refuse(root.at, "not here", "unresolved");
        return ["data", ...keys.map(({ key }) => key)];
      },
    });
    expect(run('x.a["b"] == 1', { data: { a: { b: 1 } } }, aliased)).toBe(true);
    expect(seen).toEqual([
      [
        { name: "x", at: 0 },
        [
          { key: "a", at: 2 },
          { key: "b", at: 4 },
        ],
      ],
    ]);
    const missing = failure(() => compileExpression("1 && missing.x", aliased));
    expect([missing.code, missing.message]).toEqual(["unresolved", "not here (at position 5)"]);
    compileExpression('"abc".length', aliased);
    expect(seen.at(-1)).toEqual([{ at: 0 }, [{ key: "length", at: 6 }]]);
  });

  it("reports a syntax error with jsep's position", () => {
    const error = failure(() => compileExpression("a == ", rules("opaque")));
    expect([error.code, error.position]).toEqual(["syntax", 5]);
  });
});
