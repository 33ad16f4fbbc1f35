import { describe, expect, it } from "vitest";
import { evaluateMarkdown, type PageScope } from "./evaluate.js";
import { evaluateExpression } from "./expression.js";

const scope: PageScope = {
  space: { vars: { version: "2.1.0", product: "Docsbase", markup: "*new* <b>|</b> # 1. [x](y)" } },
  page: { vars: { product: "Docsbase Cloud", "with space": "yes", count: "3" } },
};

describe("evaluateMarkdown", () => {
  it("substitutes space and page variables in text", () => {
    expect(evaluateMarkdown("Install {{ space.vars.version }} of {{page.vars.product}}.", scope)).toBe(
      "Install 2.1.0 of Docsbase Cloud.",
    );
  });

  it("leaves the rest of the markdown exactly as written", () => {
    const markdown =
      "# {{ space.vars.product }}\n\n* star list with _underscores_\n\n> quote {{ page.vars.count }}\n";
    expect(evaluateMarkdown(markdown, scope)).toBe(
      "# Docsbase\n\n* star list with _underscores_\n\n> quote 3\n",
    );
  });

  it("reaches text in headings, emphasis, links, tables and lists", () => {
    const markdown =
      "**{{ page.vars.count }}** [v{{ space.vars.version }}](https://x/{{ space.vars.version }})\n\n| {{ page.vars.count }} |\n| - |\n\n- {{ page.vars.count }}";
    expect(evaluateMarkdown(markdown, scope)).toBe(
      "**3** [v2.1.0](https://x/{{ space.vars.version }})\n\n| 3 |\n| - |\n\n- 3",
    );
  });

  it("does not touch code spans, code blocks, raw HTML or escaped braces", () => {
    const markdown =
      "`{{ space.vars.version }}`\n\n```\n{{ space.vars.version }}\n```\n\n<div>{{ space.vars.version }}</div>\n\n\\{{ space.vars.version }}";
    expect(evaluateMarkdown(markdown, scope)).toBe(markdown);
  });

  it("escapes values so that they read as text", () => {
    expect(evaluateMarkdown("Say {{ space.vars.markup }}", scope)).toBe(
      "Say \\*new\\* \\<b>\\|\\</b> \\# 1. \\[x](y)",
    );
    expect(evaluateMarkdown("{{ page.vars.item }}", { page: { vars: { item: "- not a list" } } })).toBe(
      "\\- not a list",
    );
    expect(evaluateMarkdown("{{ page.vars.count + '. x' }}", scope)).toBe("3\\. x");
  });

  it("gives the empty string for a variable the scope lacks, and keeps what it cannot answer", () => {
    expect(evaluateMarkdown("[{{ space.vars.missing }}]", scope)).toBe("[]");
    expect(evaluateMarkdown("{{ space.vars.missing.deeper }}", scope)).toBe("");
    expect(evaluateMarkdown("{{ visitor.claims.plan }}", scope)).toBe("{{ visitor.claims.plan }}");
    expect(evaluateMarkdown("{{ page.vars.x }}", { space: scope.space! })).toBe("{{ page.vars.x }}");
    expect(evaluateMarkdown("{{ not valid ( }}", scope)).toBe("{{ not valid ( }}");
    expect(evaluateMarkdown("{{ }}", scope)).toBe("{{ }}");
  });

  it("evaluates operators unless deterministicOnly, which keeps them as written", () => {
    const markdown = "{{ page.vars.count == '3' ? 'three' : 'other' }} {{ space.vars['version'] }}";
    expect(evaluateMarkdown(markdown, scope)).toBe("three 2.1.0");
    expect(evaluateMarkdown(markdown, scope, { deterministicOnly: true })).toBe(
      "{{ page.vars.count == '3' ? 'three' : 'other' }} 2.1.0",
    );
  });

  it("keeps an expression longer than 1024 characters as written, however deep it nests", () => {
    for (const expression of [`1${"+1".repeat(25_000)}`, `page.vars${".a".repeat(25_000)}`]) {
      const markdown = `x {{ ${expression} }}`;
      expect(evaluateMarkdown(markdown, scope)).toBe(markdown);
    }
    expect(evaluateMarkdown(`{{ 1${"+1".repeat(510)} }}`, scope)).toBe("511");
  });

  it("returns markdown without expressions as it is", () => {
    expect(evaluateMarkdown("plain { text }", scope)).toBe("plain { text }");
  });
});

describe("evaluateExpression", () => {
  const roots = { space: { vars: { a: "1", list: ["x", "y"] } }, page: { vars: {} } };
  it.each([
    ["space.vars.a", "1"],
    ['space.vars["a"]', "1"],
    ["space.vars.list[1]", "y"],
    ["space.vars.list.length", 2],
    ["space.vars.a + 1", "11"],
    ["2 * 3 - 1", 5],
    ["!space.vars.b", true],
    ["space.vars.b ?? 'fallback'", "fallback"],
    ["space.vars.b || space.vars.a", "1"],
    ["space.vars.a === '1' && 'yes'", "yes"],
    ["page.vars.nothing", undefined],
    ["null", null],
  ])("%s gives %j", (source, value) => {
    expect(evaluateExpression(source, roots)).toEqual({ ok: true, value });
  });

  it.each([
    ["visitor.claims", "unresolved"],
    ["space.vars.a(", "syntax"],
    ["space.vars.toString()", "unsupported"],
    ["space.vars.a.constructor", "unsupported"],
    ["space.vars", "unsupported"],
    ["[1, 2]", "unsupported"],
    ["this", "unsupported"],
    ["/x/", "syntax"],
  ])("refuses %s (%s)", (source, reason) => {
    expect(evaluateExpression(source, roots)).toEqual({ ok: false, reason });
  });

  it("reads nothing but own data properties", () => {
    expect(evaluateExpression("space.constructor", roots)).toEqual({ ok: true, value: undefined });
    expect(evaluateExpression("space.__proto__", roots)).toEqual({ ok: true, value: undefined });
    const withGetter = Object.defineProperty({}, "secret", { get: () => "leaked", enumerable: true });
    expect(evaluateExpression("space.secret", { space: withGetter })).toEqual({ ok: true, value: undefined });
    expect(evaluateExpression("space.x", { space: new Date(0) })).toEqual({
      ok: false,
      reason: "unsupported",
    });
  });

  it("under deterministicOnly evaluates lookups with literal keys only", () => {
    const only = { deterministicOnly: true };
    expect(evaluateExpression('space.vars["a"]', roots, only)).toEqual({ ok: true, value: "1" });
    expect(evaluateExpression("space.vars[space.vars.a]", roots, only)).toEqual({
      ok: false,
      reason: "unsupported",
    });
    expect(evaluateExpression("'literal'", roots, only)).toEqual({ ok: false, reason: "unsupported" });
    expect(evaluateExpression("space.vars.a + 1", roots, only)).toEqual({ ok: false, reason: "unsupported" });
  });
});
