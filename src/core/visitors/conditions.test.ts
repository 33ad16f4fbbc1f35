import { describe, expect, it } from "vitest";
import { isDocsbaseError } from "../shared/errors.js";
import { evaluateCondition, parseCondition } from "./conditions.js";

/** The message of the 400 that `parseCondition` throws for `text`. */
function refusal(text: string, field?: string): string {
  try {
    parseCondition(text, field);
  } catch (error) {
    if (!isDocsbaseError(error) || error.code !== "bad_request") throw error;
    return error.message;
  }
  throw new Error(`accepted: ${text}`);
}

const holds = (text: string, claims: Record<string, unknown>) =>
  evaluateCondition(parseCondition(text), claims);

describe("parseCondition: accepted forms", () => {
  it.each([
    "visitor.claims.plan",
    'visitor.claims["plan"]',
    "visitor.claims['plan']",
    'visitor["claims"].plan',
    "visitor.claims.unsigned.beta",
    'visitor.claims.unsigned["beta"]',
    "visitor.claims.org.tier",
    'visitor.claims["https://example.com/roles"]',
    "visitor.claims.roles.length > 0",
    "visitor.claims?.unsigned?.beta",
    'visitor.claims.plan == "pro"',
    'visitor.claims.plan != "free"',
    "visitor.claims.seats === 3",
    "visitor.claims.seats !== 3",
    "visitor.claims.seats < 10",
    "visitor.claims.seats <= 10",
    "visitor.claims.seats > -1.5",
    "visitor.claims.seats >= 1e3",
    "visitor.claims.beta == true",
    "visitor.claims.beta == false",
    "visitor.claims.plan == null",
    "visitor.claims.a == visitor.claims.b",
    "!visitor.claims.beta",
    "!!visitor.claims.beta",
    'visitor.claims.a && (visitor.claims.b || !visitor.claims.c) && visitor.claims.d != "x"',
    "  visitor.claims.plan  ",
    "true",
    '"text"',
  ])("%s", (text) => {
    expect(parseCondition(text).source).toBe(text);
  });

  it("compiles claim paths below visitor.claims, whatever their spelling", () => {
    expect(parseCondition('visitor["claims"].unsigned["beta"]').tree).toEqual({
      kind: "read",
      path: ["unsigned", "beta"],
    });
    expect(parseCondition("visitor.claims.seats > -2").tree).toEqual({
      kind: "binary",
      operator: ">",
      left: { kind: "read", path: ["seats"] },
      right: { kind: "literal", value: -2 },
    });
  });
});

describe("parseCondition: refusals name the field and the position", () => {
  it.each([
    // [text, position, what the message says]
    ["constructor", 0, 'unknown identifier "constructor"'],
    ["__proto__", 0, 'unknown identifier "__proto__"'],
    ["visitor.claims.constructor", 15, '"constructor" is not allowed in a claim path'],
    ['visitor.claims["__proto__"]', 15, '"__proto__" is not allowed in a claim path'],
    ["visitor.claims.plan.__proto__.polluted", 20, '"__proto__" is not allowed in a claim path'],
    ["visitor.claims.a.prototype", 17, '"prototype" is not allowed in a claim path'],
    ['visitor["constructor"]', 8, '"constructor" is not allowed in a claim path'],
    ["visitor.claims.plan.constructor.constructor", 20, '"constructor" is not allowed'],
    ['visitor.claims.plan == "a" && visitor.claims.toString()', 30, "function calls are not allowed"],
    ["visitor.claims.a.includes(1)", 0, "function calls are not allowed"],
    ["alert(1)", 0, "function calls are not allowed"],
    ["this", 0, '"this" is not allowed'],
    ["this.constructor", 0, '"this" is not allowed'],
    ["process.env", 0, 'unknown identifier "process"'],
    ["visitor.claims.a || process.env.HOME", 20, 'unknown identifier "process"'],
    ["visitor", 0, "only visitor.claims can be read"],
    ["visitor.session", 8, "only visitor.claims can be read"],
    ["visitor.claims", 0, "visitor.claims must be followed by a claim name"],
    ["visitor.claims[visitor.claims.key]", 15, "a computed member must be a string literal"],
    ["visitor.claims[0]", 15, "a computed member must be a string literal"],
    ['"abc".length', 0, "only visitor.claims can be read"],
    ["visitor.claims.seats + 1 > 2", 0, 'operator "+" is not allowed'],
    ["visitor.claims.a == 2 * 3", 20, 'operator "*" is not allowed'],
    ["-visitor.claims.a", 0, 'operator "-" is not allowed'],
    ["~1", 0, 'operator "~" is not allowed'],
    ["visitor.claims.a ?? true", 0, 'operator "??" is not allowed'],
    ["visitor.claims.a ? true : false", 0, "conditional (?:) expressions are not allowed"],
    ["visitor.claims.b && (visitor.claims.a ? 1 : 2)", 20, "conditional (?:) expressions are not allowed"],
    ['["pro"]', 0, "arrays are not allowed"],
    ["new Function()", 0, 'unknown identifier "new"'],
    ["visitor.claims.a visitor.claims.b", 17, "a condition is one expression"],
    ["visitor.claims.a; visitor.claims.b", 18, "a condition is one expression"],
    ["()", 0, "expected an expression"],
    // Syntax errors: jsep's index.
    ["visitor.claims.a = 1", 17, 'Unexpected "="'],
    ["visitor.claims.a == ", 20, "Expected expression after =="],
    ["(visitor.claims.a", 17, "Unclosed ("],
    ['visitor.claims.a == "pro', 24, "Unclosed quote"],
    ["visitor.claims.`a`", 15, "Unexpected `"],
  ] as const)("%s", (text, position, reason) => {
    const message = refusal(text);
    expect(message.startsWith("body.condition: ")).toBe(true);
    expect(message).toContain(reason);
    expect(message).toContain(`(at position ${position})`);
  });

  it("names the field it is given", () => {
    expect(refusal("visitor.claims.constructor", "body.sections[0].condition")).toBe(
      'body.sections[0].condition: "constructor" is not allowed in a claim path (at position 15)',
    );
  });

  it("refuses an empty or blank condition (null is how a request removes one)", () => {
    for (const text of ["", "   ", "\n\t"])
      expect(refusal(text)).toMatch(/^body\.condition: must not be empty/);
  });
});

describe("evaluateCondition", () => {
  it("reads claims, unsigned claims and nested claims", () => {
    const claims = { plan: "pro", seats: 5, org: { tier: "gold" }, unsigned: { beta: true } };
    expect(holds('visitor.claims.plan == "pro"', claims)).toBe(true);
    expect(holds('visitor.claims["plan"] == "free"', claims)).toBe(false);
    expect(holds('visitor.claims.org.tier === "gold"', claims)).toBe(true);
    expect(holds("visitor.claims.unsigned.beta", claims)).toBe(true);
    expect(holds("visitor.claims.unsigned.beta", { beta: true })).toBe(false);
    expect(holds("visitor.claims.seats > 4 && visitor.claims.seats <= 5", claims)).toBe(true);
  });

  it("treats missing claims as undefined", () => {
    expect(holds("visitor.claims.plan", {})).toBe(false);
    expect(holds("!visitor.claims.plan", {})).toBe(true);
    expect(holds("visitor.claims.plan == null", {})).toBe(true);
    expect(holds("visitor.claims.plan === null", {})).toBe(false);
    expect(holds("visitor.claims.org.tier.name", { org: null })).toBe(false);
    expect(holds("visitor.claims.unsigned.beta", { unsigned: "yes" })).toBe(false);
    expect(holds("visitor.claims.seats > 0", {})).toBe(false);
    expect(holds("visitor.claims.seats < 1", {})).toBe(false);
  });

  it("reads own properties only, never the prototype chain", () => {
    expect(holds("visitor.claims.toString", {})).toBe(false);
    expect(holds("visitor.claims.hasOwnProperty", {})).toBe(false);
    expect(holds("visitor.claims.plan.length > 0", { plan: "pro" })).toBe(false);
    expect(holds("visitor.claims.roles.length > 0", { roles: ["admin"] })).toBe(true);
    expect(holds("visitor.claims.roles.length > 0", { roles: [] })).toBe(false);
    expect(holds('visitor.claims.roles["0"] == "admin"', { roles: ["admin"] })).toBe(true);
    const inherited = Object.create({ plan: "pro" }) as Record<string, unknown>;
    expect(holds('visitor.claims.plan == "pro"', inherited)).toBe(false);
    let called = false;
    const withGetter = Object.defineProperty({}, "plan", {
      enumerable: true,
      get: () => {
        called = true;
        return "pro";
      },
    }) as Record<string, unknown>;
    expect(holds('visitor.claims.plan == "pro"', withGetter)).toBe(false);
    expect(called).toBe(false);
  });

  it("compares objects by identity, without converting them", () => {
    // Own `valueOf` and `toString` that are not functions would make `==` throw in JavaScript.
    const hostile = { org: { valueOf: 1, toString: 1 }, list: ["a"] };
    expect(holds('visitor.claims.org == "x"', hostile)).toBe(false);
    expect(holds('visitor.claims.org != "x"', hostile)).toBe(true);
    expect(holds("visitor.claims.org > 1", hostile)).toBe(false);
    expect(holds("visitor.claims.org <= 1", hostile)).toBe(false);
    expect(holds('visitor.claims.list == "a"', hostile)).toBe(false);
    expect(holds("visitor.claims.org == visitor.claims.org", hostile)).toBe(true);
    expect(holds("visitor.claims.org", hostile)).toBe(true);
  });

  it.each([
    // [left, right, ==, ===, <, >=]
    [1, 1, true, true, false, true],
    ["1", 1, true, false, false, true],
    [true, 1, true, false, false, true],
    [null, undefined, true, false, false, false],
    [0, null, false, false, false, true],
    ["a", "b", false, false, true, false],
    [2, 10, false, false, true, false],
  ])("compares %j and %j as JavaScript does", (left, right, loose, strict, less, greaterOrEqual) => {
    const claims = { l: left, r: right };
    expect(holds("visitor.claims.l == visitor.claims.r", claims)).toBe(loose);
    expect(holds("visitor.claims.l != visitor.claims.r", claims)).toBe(!loose);
    expect(holds("visitor.claims.l === visitor.claims.r", claims)).toBe(strict);
    expect(holds("visitor.claims.l !== visitor.claims.r", claims)).toBe(!strict);
    expect(holds("visitor.claims.l < visitor.claims.r", claims)).toBe(less);
    expect(holds("visitor.claims.l >= visitor.claims.r", claims)).toBe(greaterOrEqual);
  });

  it.each([
    [false, false, false, false],
    [false, true, false, true],
    [true, false, false, true],
    [true, true, true, true],
  ])("truth table: a=%s b=%s, a && b = %s, a || b = %s", (a, b, and, or) => {
    const claims = { a, b };
    expect(holds("visitor.claims.a && visitor.claims.b", claims)).toBe(and);
    expect(holds("visitor.claims.a || visitor.claims.b", claims)).toBe(or);
    expect(holds("!(visitor.claims.a && visitor.claims.b)", claims)).toBe(!and);
    expect(holds("!visitor.claims.a || !visitor.claims.b", claims)).toBe(!and);
  });

  it("binds && tighter than ||, and honours parentheses", () => {
    const claims = { a: true, b: false, c: false };
    expect(holds("visitor.claims.a || visitor.claims.b && visitor.claims.c", claims)).toBe(true);
    expect(holds("(visitor.claims.a || visitor.claims.b) && visitor.claims.c", claims)).toBe(false);
  });

  it("gives the truthiness of the whole expression", () => {
    expect(holds("visitor.claims.plan", { plan: "" })).toBe(false);
    expect(holds("visitor.claims.plan", { plan: "pro" })).toBe(true);
    expect(holds("visitor.claims.seats", { seats: 0 })).toBe(false);
    expect(holds("visitor.claims.org", { org: {} })).toBe(true);
    expect(holds('visitor.claims.a || "fallback"', {})).toBe(true);
    expect(holds("null", {})).toBe(false);
  });
});
