import fc from "fast-check";

/**
 * Generators of bad (and sometimes good) HTTP input derived from an OpenAPI 3.1 document: path
 * segments, query strings and JSON bodies. Values are kept ready to send: path segments and query
 * parts are URL text (percent-encoded or deliberately not), bodies are the exact bytes and
 * content type.
 */

/** A JSON Schema object as the document prints it (a subset: what zod's converter emits). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  contentEncoding?: string;
  $ref?: string;
}

/** An OpenAPI parameter. */
export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

/** A request body to send: raw text and its content type (`null`: no header). */
export interface Body {
  readonly text: string;
  readonly contentType: string | null;
}

/**
 * Percent-encodes every UTF-16 code unit outside the unreserved set, as UTF-8 bytes. A lone
 * surrogate becomes its three-byte (WTF-8) form, such as `%ED%A0%80`, which is not valid UTF-8:
 * `encodeURIComponent` would throw on it, and `new URL` would replace it with U+FFFD, so neither
 * would send what a hostile client can.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let point = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      point = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (point < 0x80 && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(point))) {
      out += String.fromCharCode(point);
      continue;
    }
    for (const byte of utf8Bytes(point)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function utf8Bytes(point: number): number[] {
  if (point < 0x80) return [point];
  if (point < 0x800) return [0xc0 | (point >> 6), 0x80 | (point & 63)];
  if (point < 0x10000) return [0xe0 | (point >> 12), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63)];
  return [0xf0 | (point >> 18), 0x80 | ((point >> 12) & 63), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63)];
}

/** Any UTF-16 code unit, lone surrogates included, with the awkward ones more often. */
const codeUnit = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "\ud800",
      "\udfff",
      "\u0000",
      "\u202e",
      "\ufeff",
      "\u0301",
      "/",
      "\\",
      "%",
      "😀",
    ),
  },
);

/** Strings of any code units, lone surrogates included. */
export const unicodeText = (maxLength = 24) => fc.string({ unit: codeUnit, maxLength });

/** `length` characters of ASCII text, for fields just past their limit. */
const repeated = (min: number, max: number, char = "a") =>
  fc.integer({ min, max }).map((length) => char.repeat(length));

/** Raw URL text that decodes to nothing valid or to a dot segment. */
const PERCENT_GARBAGE = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "%FF%FE",
  "%00",
  "%2F",
  "%5C",
  "%25",
  "%u0041",
];
const DOT_SEGMENTS = [".", "..", "%2e", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "...", "%252e%252e"];

/**
 * A record of `names` where usually every value is good, or all are good but one, which is bad,
 * and sometimes each is either: so that most requests reach the operation's own rules with one
 * thing wrong, and some have everything wrong at once.
 */
export function oneBroken<T>(
  names: readonly string[],
  good: (name: string) => fc.Arbitrary<T>,
  bad: (name: string) => fc.Arbitrary<T>,
): fc.Arbitrary<Record<string, T>> {
  const record = (pick: (name: string) => fc.Arbitrary<T>) =>
    fc.record(Object.fromEntries(names.map((name) => [name, pick(name)])));
  if (names.length === 0) return fc.constant({});
  return fc.oneof(
    { weight: 2, arbitrary: record(good) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(...names)
        .chain((broken) => record((name) => (name === broken ? bad(name) : good(name)))),
    },
    { weight: 1, arbitrary: record((name) => fc.oneof(good(name), bad(name))) },
  );
}

/** A real id as a path segment (a page path keeps its slashes). */
export const realSegment = (real: readonly string[]) =>
  fc
    .oneof(
      { weight: 2, arbitrary: fc.constant(real[0] ?? "") },
      { weight: 1, arbitrary: fc.constantFrom(...real) },
    )
    .map((id) => id.split("/").map(percentEncode).join("/"));

/**
 * A broken path segment as URL text: an unknown id, empty, overlong, percent-garbage, a dot
 * segment, any unicode (lone surrogates included) percent-encoded as UTF-8, or a real id with
 * something stuck to it.
 */
export function badSegment(real: readonly string[]): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [
    fc.constantFrom("unknown", "0", "null", "-1", "AAAAAAAAAAAAAAAAAAAA"),
    fc.constant(""),
    repeated(200, 20_000),
    fc.constantFrom(...PERCENT_GARBAGE),
    fc.constantFrom(...DOT_SEGMENTS),
    unicodeText().map(percentEncode),
  ];
  if (real.length > 0) {
    choices.push(
      fc
        .tuple(
          fc.constantFrom(...real),
          fc.constantFrom("%00", "%20", "x", "%ED%A0%80", "/..", "/.", "%2F..", "/"),
        )
        .map(([id, tail]) => percentEncode(id) + tail),
    );
  }
  return fc.oneof(...choices);
}

/** Query values that are valid for the parameter's schema, as far as cheaply known. */
function plausibleQueryValues(schema: JsonSchema | undefined): string[] {
  const values = new Set<string>();
  for (const branch of [schema, ...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])]) {
    if (!branch) continue;
    for (const value of branch.enum ?? []) values.add(String(value));
    if (branch.const !== undefined) values.add(String(branch.const));
    if (branch.type === "number" || branch.type === "integer") values.add("1").add("20");
    if (branch.type === "boolean") values.add("true").add("false");
  }
  values.add("x");
  return [...values];
}

/** One bad query value as URL text: wrong type, out of range, huge, garbage or unicode. */
function badQueryValue(real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...real, "x").map(percentEncode) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "-1",
        "0",
        "-0",
        "1.5",
        "1e309",
        "NaN",
        "Infinity",
        "99999999999999999999",
        "0x10",
        "",
        "true",
        "null",
        "[]",
        "{}",
        "undefined",
        "%20",
        "+",
      ),
    },
    { weight: 1, arbitrary: repeated(1_000, 100_000) },
    { weight: 1, arbitrary: fc.constantFrom(...PERCENT_GARBAGE) },
    { weight: 1, arbitrary: unicodeText().map(percentEncode) },
  );
}

/**
 * A query string (without `?`) over the declared query parameters: each absent or plausible, or
 * one (or all) broken: a bad value, or repeated (an array); plus sometimes an undeclared one.
 */
export function queryString(parameters: readonly Parameter[], real: readonly string[]): fc.Arbitrary<string> {
  const schemaOf = new Map(parameters.map((parameter) => [parameter.name, parameter.schema]));
  const good = (name: string) =>
    fc.oneof(
      fc.constant<string[]>([]),
      fc.constantFrom(...plausibleQueryValues(schemaOf.get(name))).map((value) => [value]),
    );
  const bad = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: badQueryValue(real).map((value) => [value]) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.oneof(badQueryValue(real), fc.constantFrom(...plausibleQueryValues(schemaOf.get(name)))),
          {
            minLength: 2,
            maxLength: 4,
          },
        ),
      },
    );
  const extra = fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("unknown", "__proto__", "constructor", "", "%zz", "limit[]"),
          badQueryValue(real),
        )
        .map(([name, value]) => [`${name}=${value}`]),
    },
  );
  return fc
    .tuple(oneBroken([...schemaOf.keys()], good, bad), extra)
    .map(([declared, more]) =>
      [
        ...Object.entries(declared).flatMap(([name, values]) =>
          values.map((value) => `${encodeURIComponent(name)}=${value}`),
        ),
        ...more,
      ].join("&"),
    );
}

/** Follows `$ref` into `#/components/schemas`. */
export function resolve(
  schema: JsonSchema,
  document: { components?: { schemas?: Record<string, JsonSchema> } },
) {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return document.components?.schemas?.[name] ?? {};
}

/** Builds values shaped by a schema, and their mutants. Strings often are real ids. */
export class SchemaValues {
  constructor(
    private readonly real: readonly string[],
    private readonly document: { components?: { schemas?: Record<string, JsonSchema> } },
  ) {}

  /** A value that validates against `schema`, or nearly: patterns are not always met. */
  valid(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    const s = resolve(schema, this.document);
    if (depth > 6) return fc.constant(null);
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
    if (branches.length > 0) return fc.oneof(...branches.map((branch) => this.valid(branch, depth + 1)));
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case "string":
        return this.validString(s);
      case "number":
      case "integer":
        return fc.integer({ min: Math.max(s.minimum ?? 0, -1e6), max: Math.min(s.maximum ?? 100, 1e6) });
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "array":
        return fc.array(this.valid(s.items ?? {}, depth + 1), {
          minLength: s.minItems ?? 0,
          maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
        });
      case "object":
        return this.validObject(s, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  validString(s: JsonSchema): fc.Arbitrary<string> {
    const min = s.minLength ?? 0;
    const max = Math.max(min, s.maxLength ?? 40);
    if (s.format === "base64" || s.contentEncoding === "base64") {
      return fc.uint8Array({ maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...bytes)));
    }
    if (s.format === "email") return fc.constantFrom("a@example.com", "new.person@example.org");
    if (s.format === "uri") return fc.constantFrom("https://example.com/a.png", "http://example.org/");
    const choices: fc.Arbitrary<string>[] = [];
    if (s.pattern) {
      try {
        choices.push(
          fc.stringMatching(new RegExp(s.pattern)).filter((text) => text.length >= min && text.length <= max),
        );
      } catch {
        // fast-check cannot build every regular expression; the other choices still apply.
      }
    }
    if (!s.pattern) {
      choices.push(fc.string({ minLength: min, maxLength: Math.min(max, 40) }));
      // Accepted free text is stored and read back: hostile shapes must be harmless there too.
      const hostile = HOSTILE_MARKDOWN.filter((text) => text.length >= min && text.length <= max);
      if (hostile.length > 0) choices.push(fc.constantFrom(...hostile));
      const ids = this.real.filter((id) => id.length >= min && id.length <= max);
      if (ids.length > 0) choices.push(fc.constantFrom(...ids));
    }
    return choices.length > 0 ? fc.oneof(...choices) : fc.constant("a".repeat(min));
  }

  /** The required fields and a few of the optional ones, each valid. */
  private validObject(s: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const names = Object.keys(s.properties ?? {});
    const required = (s.required ?? []).filter((name) => names.includes(name));
    const optional = names.filter((name) => !required.includes(name));
    const all = fc.record(
      Object.fromEntries(names.map((name) => [name, this.valid(s.properties?.[name] ?? {}, depth + 1)])),
    );
    const record = fc
      .tuple(all, fc.subarray(optional, { maxLength: Math.min(3, optional.length) }))
      .map(([values, chosen]) =>
        Object.fromEntries(
          Object.entries(values).filter(([name]) => required.includes(name) || chosen.includes(name)),
        ),
      );
    if (typeof s.additionalProperties !== "object") return record;
    const key = s.propertyNames
      ? this.validString(s.propertyNames).filter((name) => name.length > 0)
      : fc.string({ minLength: 1, maxLength: 12 });
    const extra = fc.dictionary(key, this.valid(s.additionalProperties, depth + 1), { maxKeys: 2 });
    return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
  }

  /** A value that `schema` should refuse, or a valid value with a part of it broken. */
  mutant(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    const s = resolve(schema, this.document);
    const choices: fc.WeightedArbitrary<unknown>[] = [{ weight: 3, arbitrary: badValue(s) }];
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === "object" && depth < 4) {
      const names = Object.keys(s.properties ?? {});
      const valid = this.validObject(s, depth);
      if (names.length > 0) {
        // One field broken (recursively), the others valid.
        choices.push({
          weight: 6,
          arbitrary: fc
            .constantFrom(...names)
            .chain((name) =>
              fc
                .tuple(valid, this.mutant(s.properties?.[name] ?? {}, depth + 1))
                .map(([object, bad]) => ({ ...object, [name]: bad })),
            ),
        });
      }
      if ((s.required ?? []).length > 0) {
        choices.push({
          weight: 1,
          arbitrary: fc.tuple(valid, fc.constantFrom(...(s.required ?? []))).map(([object, name]) => {
            const copy = { ...object };
            delete copy[name];
            return copy;
          }),
        });
      }
      choices.push({
        weight: 1,
        arbitrary: fc
          .tuple(
            valid,
            fc.constantFrom("extra", "__proto__", "constructor", "id", "organization"),
            badValue({}),
          )
          .map(([object, name, value]) => ({ ...object, [name]: value })),
      });
    }
    if (type === "array" && depth < 4) {
      choices.push({
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.array(this.valid(s.items ?? {}, depth + 1), { maxLength: 2 }),
            this.mutant(s.items ?? {}, depth + 1),
          )
          .map(([items, bad]) => [...items, bad]),
      });
    }
    const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
    if (branches.length > 0 && depth < 4) {
      choices.push({
        weight: 2,
        arbitrary: fc.oneof(...branches.map((branch) => this.mutant(branch, depth + 1))),
      });
    }
    choices.push({ weight: 1, arbitrary: this.valid(s, depth) });
    return fc.oneof(...choices);
  }

  /**
   * A request body for an operation: a schema-shaped object with fields broken, a wrong JSON
   * value, text that is not JSON, nothing, or JSON under a wrong content type.
   */
  body(schema: JsonSchema | undefined): fc.Arbitrary<Body | null> {
    const json = (value: fc.Arbitrary<unknown>) =>
      value.map((item): Body => ({ text: JSON.stringify(item) ?? "null", contentType: "application/json" }));
    const shaped = schema
      ? fc.oneof({ weight: 6, arbitrary: this.mutant(schema) }, { weight: 2, arbitrary: this.valid(schema) })
      : badValue({});
    return fc.oneof(
      { weight: 10, arbitrary: json(shaped) },
      { weight: 1, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            "",
            "{",
            "not json",
            "\u0000",
            '{"a":1,}',
            "[".repeat(100_000),
            '"\\ud800"',
            '{"title":"\\ud800"}',
            "\ufeff{}",
          )
          .map((text): Body => ({ text, contentType: "application/json" })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            json(shaped),
            fc.constantFrom(
              null,
              "text/plain",
              "application/x-www-form-urlencoded",
              "multipart/form-data; boundary=x",
              "application/json; charset=utf-16",
              "application/jsonx",
              "",
            ),
          )
          .map(([body, contentType]): Body => ({ text: body.text, contentType })),
      },
    );
  }
}

/** Markdown shapes that are costly or deep for a parser, small enough to send many times. */
const HOSTILE_MARKDOWN = [
  "> ".repeat(65) + "deep",
  "- ".repeat(70) + "x",
  "- - - x\n".repeat(64),
  "*a".repeat(2_000),
  "[".repeat(1_000) + "x" + "](y)".repeat(1_000),
  "`".repeat(3_000),
  "<div>".repeat(500),
  "[a](javascript:alert(1)) ![b](data:text/html,x)",
  "| a |\n|---|\n" + "| b |\n".repeat(500),
];

/** Strings a name, title, slug, id or URL field must refuse or keep harmless. */
const HOSTILE_TEXT = [
  "",
  " ",
  "0",
  "null",
  "\ud800",
  "\ud800.txt",
  "a\udfffb",
  "\udc00\ud800",
  "x\u0000y",
  "..",
  "../a",
  "a/b",
  "a\\b",
  "%2e%2e",
  "%zz",
  "\u202ex.txt",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  "data:text/html,<script>x</script>",
  "file:///etc/passwd",
  "//evil.example/x",
  "http://127.0.0.1/",
  "x.svg",
  "x.html",
];

/** Nested arrays and objects `depth` levels deep. */
function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Values of the wrong type, out of range, overlong, deep, huge or hostile for this schema. */
export function badValue(s: JsonSchema): fc.Arbitrary<unknown> {
  const overlong =
    s.maxLength !== undefined
      ? fc.oneof(
          repeated(s.maxLength + 1, s.maxLength + 2),
          repeated(s.maxLength + 1, s.maxLength * 2 + 10, "é"),
        )
      : repeated(10_000, 200_000);
  return fc.oneof(
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], { "": null }),
    fc.constantFrom(...HOSTILE_TEXT),
    overlong,
    unicodeText(40),
    fc.constantFrom(...HOSTILE_MARKDOWN),
    // Deeper than JSON.stringify can write here (about 4,500 levels); JSON.parse reads any depth.
    fc
      .integer({ min: 100, max: 4_000 })
      .chain((depth) => fc.constantFrom(nested(depth, "array"), nested(depth, "object"))),
    fc.integer({ min: 1_000, max: 100_000 }).map((length) => new Array<string>(length).fill("a")),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  );
}
