import { GitBookAPI } from "@gitbook/api";
import { readFile } from "node:fs/promises";
import { transform } from "esbuild";
import { describe, expect, it } from "vitest";
import { createTestDocsbase, UnservedOperationError } from "../src/testing/index.js";

/**
 * A code block of docs/testing.md, run as written: its imports are left out (the test passes the
 * real values), and it returns `result`.
 */
async function docsBlock<T>(heading: string, index: number, result: string, ...names: string[]) {
  const docs = await readFile(new URL("../docs/testing.md", import.meta.url), "utf8");
  const section = docs.slice(docs.indexOf(heading));
  const block = [...section.matchAll(/```ts\n([\s\S]*?)```/g)][index]?.[1];
  if (!block) throw new Error(`docs/testing.md has no example under ${heading}`);
  const code = block.replace(/^import .*\n/gm, "");
  const { code: js } = await transform(
    `async function example(${names.join(", ")}) {\n${code}\nreturn ${result};\n}`,
    { loader: "ts" },
  );
  return new Function(`${js}\nreturn example;`)() as (...values: unknown[]) => Promise<T>;
}

describe("docs/testing.md: unserved operations", () => {
  it("answers 501 by default, and rejects naming the operation with onUnserved: throw", async () => {
    const run = await docsBlock<{ answered: { status: number; body: unknown }; error: unknown }>(
      "## Unserved operations",
      0,
      "{ answered, error }",
      "GitBookAPI",
      "createTestDocsbase",
      "UnservedOperationError",
    );
    const { answered, error } = await run(GitBookAPI, createTestDocsbase, UnservedOperationError);
    expect(answered.status).toBe(501);
    expect(answered.body).toEqual({
      error: {
        code: 501,
        message: "docsbase does not implement getSpaceGitInfo (GET /spaces/{spaceId}/git/info)",
      },
    });
    expect(error).toBeInstanceOf(UnservedOperationError);
    expect(error).toMatchObject({
      name: "UnservedOperationError",
      message: "docsbase does not implement getSpaceGitInfo (GET /spaces/{spaceId}/git/info)",
      operationId: "getSpaceGitInfo",
      method: "GET",
      path: "/spaces/{spaceId}/git/info",
    });
  });

  it("throws only for unserved operations: served calls and unknown paths answer as before", async () => {
    const strict = await createTestDocsbase({ onUnserved: "throw" });
    await expect(strict.request("POST", "/orgs/acme/ask", { body: {} })).rejects.toMatchObject({
      operationId: "askInOrganization",
    });
    await expect(strict.fetch("http://docsbase.test/v1/")).rejects.toBeInstanceOf(UnservedOperationError);
    expect((await strict.request("GET", "/user")).status).toBe(200);
    expect((await strict.request("GET", "/nothing/here")).status).toBe(404);
    expect((await strict.request("DELETE", "/user")).status).toBe(405);
    const typed = await strict.as(strict.operatorToken).getAuthenticatedUser();
    expect(typed.id).toBeTruthy();
  });
});
