import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { operations } from "../src/core/operations.js";

const require = createRequire(import.meta.url);
const reference = require("@gitbook/api/spec/openapi.json") as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** Operations the reference document does not have (DESIGN.md, "Extensions beyond SPEC.md"). */
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
  ...["createPage", "updatePage", "deletePage", "uploadFile", "deleteFile"].flatMap((id) => [
    id,
    `${id}InChangeRequest`,
  ]),
]);

const referenceById = new Map<string, { method: string; path: string }>();
for (const [path, methods] of Object.entries(reference.paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    if (operation.operationId) referenceById.set(operation.operationId, { method, path });
  }
}

describe("operation registry", () => {
  const all = Object.entries(operations);

  it("keys each operation by its id, and ids and method+path pairs are unique", () => {
    for (const [key, operation] of all) expect(operation.id).toBe(key);
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
