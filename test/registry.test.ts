import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { JobHandler } from "../src/core/jobs/index.js";
import { assemble, defineModule, type ResourceModule } from "../src/core/module.js";
import { MODULES } from "../src/core/modules.js";
import { operations } from "../src/core/operations.js";
import { anyCaller } from "../src/core/permissions/index.js";
import { defineOperation } from "../src/core/registry.js";
import { defineTable } from "../src/core/storage/table.js";

const require = createRequire(import.meta.url);
const reference = require("@gitbook/api/spec/openapi.json") as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** Operations the reference document does not have: docsbase's extensions. */
const EXTENSIONS = new Set([
  "getPublishedOpenAPISpec",
  "updateConversationsIssuesCluster",
  "createUser",
  "createUserToken",
  "listUserTokens",
  "deleteUserToken",
  "createOrganization",
  "listOrganizationEmailInvites",
  "revokeOrganizationEmailInvite",
  "listUserInvites",
  "acceptUserInvite",
  "declineUserInvite",
  "verifySiteHostname",
  "approveSiteHostname",
  "pushChangeRequest",
  ...[
    "createPage",
    "updatePage",
    "deletePage",
    "uploadFile",
    "deleteFile",
    "createReusableContent",
    "updateReusableContent",
    "deleteReusableContent",
  ].flatMap((id) => [id, `${id}InChangeRequest`]),
]);

const referenceById = new Map<string, { method: string; path: string }>();
for (const [path, methods] of Object.entries(reference.paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    if (operation.operationId) referenceById.set(operation.operationId, { method, path });
  }
}

/** A throwaway operation, table and job, each under the name given. */
const operation = (id: string, path = `/${id}`) =>
  defineOperation({
    id,
    method: "get",
    path,
    tag: "test",
    summary: id,
    access: anyCaller,
    run: async () => {},
  });
const table = (name: string) =>
  defineTable({ name, key: "id", indexes: {}, record: z.object({ id: z.string() }) });
const job: JobHandler = async () => {};

describe("assemble", () => {
  const notes = defineModule({
    name: "notes",
    tables: [table("notes")],
    operations: { getNote: operation("getNote") },
    jobs: { "notes.count": job },
  });
  const assembleWith = (module: ResourceModule) => () => assemble([notes, module]);

  it("derives the registry, the tables and the job map from distinct modules", () => {
    const tags = defineModule({
      name: "tags",
      tables: [table("tags")],
      operations: { getTag: operation("getTag") },
      jobs: { "tags.count": job },
    });
    const assembly = assemble([notes, tags]);
    expect(Object.keys(assembly.operations)).toEqual(["getNote", "getTag"]);
    expect(assembly.schema.tables.map((handle) => handle.name)).toEqual(["notes", "tags"]);
    expect(Object.keys(assembly.jobs)).toEqual(["notes.count", "tags.count"]);
  });

  it("refuses an operation listed under a key other than its id", () => {
    const module = defineModule({ name: "tags", tables: [], operations: { getTags: operation("getTag") } });
    expect(assembleWith(module)).toThrow('Operation "getTag" is listed as "getTags"');
  });

  it("refuses an operation id that two modules declare", () => {
    const module = defineModule({ name: "tags", tables: [], operations: { getNote: operation("getNote") } });
    expect(assembleWith(module)).toThrow('Operation "getNote" is declared twice (module tags)');
  });

  it("refuses a table name that two modules declare", () => {
    const module = defineModule({ name: "tags", tables: [table("notes")], operations: {} });
    expect(assembleWith(module)).toThrow('Table "notes" is declared twice (module tags)');
  });

  it("refuses a table named as docsbase's list counters", () => {
    const module = defineModule({ name: "tags", tables: [table("counters")], operations: {} });
    expect(assembleWith(module)).toThrow(
      'Table "counters" is reserved for docsbase\'s list counters (module tags)',
    );
  });

  it("refuses a job type that two modules declare", () => {
    const module = defineModule({ name: "tags", tables: [], operations: {}, jobs: { "notes.count": job } });
    expect(assembleWith(module)).toThrow('Job type "notes.count" is declared twice (module tags)');
  });
});

describe("operation registry", () => {
  const all = Object.entries(operations);

  it("is assembled from the modules, and no two operations share a method and path", () => {
    expect(Object.keys(operations)).toEqual(MODULES.flatMap((module) => Object.keys(module.operations)));
    const routes = all.map(([, operation]) => `${operation.method} ${operation.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("matches the reference method and path, or is a documented extension", () => {
    for (const [, operation] of all) {
      const match = referenceById.get(operation.id);
      if (EXTENSIONS.has(operation.id)) {
        expect(
          match,
          `${operation.id} is listed as an extension but exists in the reference`,
        ).toBeUndefined();
      } else {
        expect(match, `${operation.id} is neither in the reference nor a listed extension`).toEqual({
          method: operation.method,
          path: operation.path,
        });
      }
    }
  });

  it("declares exactly the path parameters of its path, and no query name shadows one", () => {
    for (const [, operation] of all) {
      const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = Object.keys(operation.params?.shape ?? {}).sort();
      expect(declared, operation.id).toEqual(inPath);
      const query = Object.keys(operation.query?.shape ?? {});
      expect(
        query.filter((name) => declared.includes(name) || name === "body"),
        operation.id,
      ).toEqual([]);
    }
  });
});
