import { GitBookAPI } from "@gitbook/api";
import type { ValidateFunction } from "ajv";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "fake-indexeddb/auto";
import { indexedDbStorage } from "../../src/adapters/indexeddb/index.js";
import { memoryStorage } from "../../src/adapters/memory/index.js";
import { postgresStorage } from "../../src/adapters/postgres/index.js";
import { sqliteStorage } from "../../src/adapters/sqlite/index.js";
import type { Storage } from "../../src/core/storage/port.js";
import type { Translator } from "../../src/core/translations/translator.js";
import { createTestDocsbase, type TestDocsbase } from "../../src/testing/double.js";
import { freshDatabase } from "../support/postgres.js";
import { referenceAjv, referenceSpec, type ReferenceOperation } from "../support/reference.js";

/**
 * The conformance harness: drives docsbase through the official `@gitbook/api` client, in
 * process, and validates every response that passes through against the reference schemas of
 * `@gitbook/api/spec/openapi.json`. Each conformance file creates one harness per storage
 * adapter, exercises its operations, then calls `expectCovered` and `expectConformant`.
 */

const spec = referenceSpec;
const ajv = referenceAjv;

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  literals: number;
  operation: ReferenceOperation;
}

const routes: Route[] = Object.entries(spec.paths)
  .flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        // A trailing page path may span segments (the official client does not encode its slashes).
        regex: new RegExp(`^/v1${template.replace(/\{pagePath\}$/, ".+").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
        literals: template.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
        operation,
      })),
  )
  .sort((a, b) => b.literals - a.literals);

/** The reference operation serving a method and path, if any. */
export function referenceOperation(method: string, pathname: string): Route | undefined {
  return routes.find((route) => route.method === method && route.regex.test(pathname));
}

/** Every operationId of the reference document. */
export const referenceOperationIds = new Set(routes.map((route) => route.operation.operationId));

const validators = new Map<string, ValidateFunction>();
function validatorFor(route: Route, status: number): ValidateFunction | "undocumented" | "no-body" {
  let response = route.operation.responses[String(status)];
  if (!response) return "undocumented";
  let pointer = `reference#/paths/${escape(route.template)}/${route.method.toLowerCase()}/responses/${status}`;
  if (response.$ref) {
    const name = response.$ref.split("/").pop()!;
    response = spec.components.responses[name]!;
    pointer = `reference#/components/responses/${escape(name)}`;
  }
  if (!response.content?.["application/json"]?.schema) return "no-body";
  const key = `${pointer}/content/application~1json/schema`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: key });
    validators.set(key, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

const ERROR_BODY = ajv.compile({
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer" }, message: { type: "string", minLength: 1 } },
    },
  },
});

export type StorageKind = "memory" | "sqlite" | "indexeddb" | "postgres";
/**
 * Every adapter runs every conformance file (IndexedDB on fake-indexeddb under Node, PostgreSQL
 * on the run's own server, a new database per harness).
 */
export const STORAGE_KINDS: StorageKind[] = ["memory", "sqlite", "indexeddb", "postgres"];
let databases = 0;

export interface Harness {
  readonly test: TestDocsbase;
  /** The double's storage, for the few tokens no operation hands out (an integration's). */
  readonly storage: Storage;
  /** The official client, authenticated as the operator. */
  readonly api: GitBookAPI;
  /** The official client authenticated with another token. */
  client(token: string): GitBookAPI;
  /** Reference operationIds seen so far, with the statuses they answered. */
  readonly seen: Map<string, Set<number>>;
  /** Schema violations seen so far. */
  readonly violations: string[];
  /** Fails unless each of these operations answered at least once through the client. */
  expectCovered(operationIds: readonly string[]): void;
  /** Fails if any response violated the reference schemas. */
  expectConformant(): void;
  close(): Promise<void>;
}

/** Creates a docsbase over the given storage kind, reachable through the official client. */
export async function createHarness(
  kind: StorageKind,
  options: { clock?: () => Date; translator?: Translator } = {},
): Promise<Harness> {
  let directory: string | undefined;
  let storage: Storage;
  if (kind === "sqlite") {
    directory = mkdtempSync(join(tmpdir(), "docsbase-conformance-"));
    storage = sqliteStorage({ filename: join(directory, "db.sqlite") });
  } else if (kind === "postgres") {
    storage = postgresStorage({ connectionString: await freshDatabase("conformance"), poolSize: 4 });
  } else if (kind === "indexeddb") {
    storage = indexedDbStorage({ name: `docsbase-conformance-${process.pid}-${++databases}` });
  } else {
    storage = memoryStorage();
  }
  const test = await createTestDocsbase({
    storage,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.translator ? { translator: options.translator } : {}),
  });
  const seen = new Map<string, Set<number>>();
  const violations: string[] = [];

  const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await test.fetch(request);
    const { pathname } = new URL(request.url);
    const route = referenceOperation(request.method, pathname);
    const label = `${request.method} ${pathname} -> ${response.status}`;
    if (!route) {
      violations.push(`${label}: no reference operation for this path`);
      return response;
    }
    const id = route.operation.operationId;
    // Every 201 names what it created (issue 8, item 7).
    if (response.status === 201 && !response.headers.get("location")) {
      violations.push(`${label} (${id}): a 201 without a Location header`);
    }
    if (!seen.has(id)) seen.set(id, new Set());
    seen.get(id)!.add(response.status);
    const text = await response.clone().text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    if (response.status >= 400) {
      if (!ERROR_BODY(body)) violations.push(`${label} (${id}): error body is not {error: {code, message}}`);
      else if ((body as { error: { code: number } }).error.code !== response.status) {
        violations.push(`${label} (${id}): error.code differs from the status`);
      }
      return response;
    }
    const validate = validatorFor(route, response.status);
    if (validate === "undocumented") {
      violations.push(
        `${label} (${id}): status not in the reference (${Object.keys(route.operation.responses)})`,
      );
    } else if (validate === "no-body") {
      if (text) violations.push(`${label} (${id}): the reference answers no body here`);
    } else if (!validate(body)) {
      violations.push(`${label} (${id}): ${ajv.errorsText(validate.errors, { separator: "; " })}`);
    }
    return response;
  };

  const client = (token: string) =>
    new GitBookAPI({ endpoint: test.endpoint, authToken: token, serviceBinding: { fetch: checkedFetch } });

  return {
    test,
    storage,
    api: client(test.operatorToken),
    client,
    seen,
    violations,
    expectCovered(operationIds) {
      const missing = operationIds.filter((id) => !seen.has(id));
      if (missing.length) throw new Error(`Not exercised through the client: ${missing.join(", ")}`);
    },
    expectConformant() {
      if (violations.length) throw new Error(`Reference schema violations:\n${violations.join("\n")}`);
    },
    async close() {
      await test.docsbase.close();
      if (directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Awaits a client call expected to fail and returns its HTTP status. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "number") return code;
    throw error;
  }
  throw new Error("Expected the call to fail");
}
