import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "./double.js";
import type { FixturePage } from "./fixture.js";

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
  it("shows the fixtures' example as this test runs it", async () => {
    // example: fixtures
    const ada = { id: "u-ada", displayName: "Ada", token: "tok-ada-0123456789abcdef" };
    const intro = { id: "page-intro", title: "Intro", markdown: "# Hello" };
    const test = await createTestDocsbase({
      fixture: {
        users: [ada],
        organizations: [{ id: "org-acme", title: "Acme", members: [{ user: "u-ada", role: "admin" }] }],
        spaces: [{ id: "space-handbook", organization: "org-acme", title: "Handbook", pages: [intro] }],
      },
    });
    const page = await test.as(ada).getPageById({ spaceId: "space-handbook", pageId: "page-intro" });
    expect(page).toMatchObject({ title: "Intro" });

    const untitled = { markdown: "No title" } as FixturePage;
    await expect(
      test.seed({ spaces: [{ organization: "org-acme", title: "Guide", pages: [untitled] }] }),
    ).rejects.toThrow(/^spaces\[0\]\.pages\[0\]\.title: /);
    // end
    expect(example("fixtures")).not.toBe("");
    expect(block("Fixtures")).toBe(example("fixtures"));
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

  it("shows the time and jobs' example as this test runs it", async () => {
    // example: time
    const test = await createTestDocsbase({ now: "2024-01-01T00:00:00Z" });
    const owner = test.as(await test.createUser("Owner"));
    const org = await owner.createOrganization({ body: { title: "Acme" } });
    expect(org.createdAt).toBe("2024-01-01T00:00:00.000Z");
    const space = await owner.createSpace({ organizationId: org.id, body: { title: "Old" } });
    await owner.deleteSpaceById({ spaceId: space.id });
    const [purge] = await test.jobs.pending();
    expect(purge).toMatchObject({ type: "purgeSpace", runAt: "2024-01-08T00:00:00.000Z" });
    await test.clock.advance("6d"); // still restorable
    expect(await test.clock.advance("1d")).toBe(1); // the permanent deletion ran
    await expect(owner.restoreSpace({ spaceId: space.id })).rejects.toMatchObject({ code: "not_found" });
    expect(test.clock.now().toISOString()).toBe("2024-01-08T00:00:00.000Z");

    const { token } = await test.as(test.operatorToken).createUserToken({
      userId: (await owner.getAuthenticatedUser()).id,
      body: { expiresIn: 3600 },
    });
    await test.clock.advance("2h");
    expect((await test.request("GET", "/user", { token })).status).toBe(401);
    // end
    expect(example("time")).not.toBe("");
    expect(block("Time and jobs")).toBe(example("time"));
  });
});
