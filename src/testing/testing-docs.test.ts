import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "./double.js";

/**
 * The examples of docs/testing.md, run as written: each runs between its markers below, and the
 * documentation's code block of that section must be that text.
 */
const source = readFileSync(import.meta.filename, "utf8");
const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "testing.md"), "utf8");

function example(name: string): string {
  const found = new RegExp(`// example: ${name}\\n([\\s\\S]*?)\\n\\s*// end`).exec(source)?.[1] ?? "";
  const indent = /^ */.exec(found)?.[0].length ?? 0;
  return found
    .split("\n")
    .map((line) => line.slice(indent))
    .join("\n");
}

function block(section: string): string {
  const start = docs.indexOf(`## ${section}`);
  return /```ts\n([\s\S]*?)\n```/.exec(docs.slice(start))?.[1] ?? "";
}

describe("docs/testing.md", () => {
  it("shows the snapshots' example as this test runs it", async () => {
    // example: snapshots
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
    const space = await test.as(alice).createSpace({ organizationId: org.id, body: { title: "Handbook" } });
    const title = async (on = test) => (await on.as(alice).getSpaceById({ spaceId: space.id })).title;

    const snapshot = await test.snapshot();
    await test.as(alice).updateSpaceById({ spaceId: space.id, body: { title: "Renamed" } });
    await test.restore(snapshot);
    expect(await title()).toBe("Handbook");

    const other = await test.fork();
    await other.as(alice).updateSpaceById({ spaceId: space.id, body: { title: "Forked" } });
    expect([await title(), await title(other)]).toEqual(["Handbook", "Forked"]);

    await test.reset(); // as createTestDocsbase returned it: Alice's token is gone with her
    await expect(title()).rejects.toMatchObject({ code: "unauthorized" });
    expect(test.calls()).toEqual([]);
    // end
    expect(example("snapshots")).not.toBe("");
    expect(block("Snapshots, forks and reset")).toBe(example("snapshots"));
  });

  it("shows the journal's example as this test runs it", async () => {
    // example: journal
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    await test.as(alice).createOrganization({ body: { title: "Acme" } });
    await test.request("GET", "/orgs/unknown", { token: alice.token });
    expect(test.calls({ operationId: "createOrganization" })).toMatchObject([
      { method: "POST", path: "/orgs", body: { title: "Acme" }, status: 201, user: alice.id },
    ]);
    expect(test.calls({ status: 404 })).toMatchObject([{ operationId: "getOrganizationById" }]);
    test.calls.clear();
    // end
    expect(example("journal")).not.toBe("");
    expect(block("Call journal")).toBe(example("journal"));
  });

  it("shows the faults' example as this test runs it", async () => {
    // example: faults
    const test = await createTestDocsbase();
    const fault = test.fault({ method: "GET", path: "/user", status: 429, times: 1 });
    const limited = await test.request("GET", "/user");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await test.request("GET", "/user")).status).toBe(200); // `times: 1` is spent
    fault.remove();

    test.fault({ operationId: "getAuthenticatedUser", networkError: true });
    const headers = { authorization: `Bearer ${test.operatorToken}` };
    await expect(test.fetch(`${test.endpoint}/v1/user`, { headers })).rejects.toThrow(TypeError);
    await expect(test.as(test.operatorToken).getAuthenticatedUser()).rejects.toThrow(TypeError);
    // end
    expect(example("faults")).not.toBe("");
    expect(block("Faults")).toBe(example("faults"));
  });
});
