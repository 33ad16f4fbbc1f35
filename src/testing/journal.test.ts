import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "./double.js";

describe("test double: the call journal", () => {
  it("records in-process and HTTP calls alike, in order, with the validated input", async () => {
    let now = new Date("2030-01-01T00:00:00Z");
    const test = await createTestDocsbase({ clock: () => now });
    const alice = await test.createUser("Alice");
    expect(test.calls()).toEqual([]); // the double's own createUser is not journaled
    const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
    now = new Date("2030-01-01T00:00:05Z");
    const answered = await test.request("POST", `/orgs/${org.id}/spaces`, {
      token: alice.token,
      body: { title: "Handbook", extra: "dropped" },
    });
    expect(test.calls()).toEqual([
      {
        operationId: "createOrganization",
        method: "POST",
        path: "/orgs",
        params: {},
        query: {},
        body: { title: "Acme" },
        status: 201,
        response: org,
        user: alice.id,
        at: new Date("2030-01-01T00:00:00Z"),
      },
      expect.objectContaining({
        operationId: "createSpace",
        method: "POST",
        path: `/orgs/${org.id}/spaces`,
        params: { organizationId: org.id },
        status: 201,
        response: answered.body,
        user: alice.id,
        at: new Date("2030-01-01T00:00:05Z"),
      }),
    ]);
    const [space] = test.calls({ operationId: "createSpace" });
    expect(space?.body).not.toHaveProperty("extra");
  });

  it("journals an HTTP call's path without its query, and a Request sent as it is", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const headers = { authorization: `Bearer ${alice.token}` };
    await test.fetch(`${test.endpoint}/v1/orgs?limit=5`, { headers });
    await test.fetch(new Request(`${test.endpoint}/v1/user`, { headers }));
    await test.fetch(`${test.endpoint}/elsewhere?x=1`);
    expect(test.calls()).toMatchObject([
      {
        operationId: "listOrganizationsForAuthenticatedUser",
        path: "/orgs",
        query: { limit: 5 },
        status: 200,
      },
      { operationId: "getAuthenticatedUser", path: "/user", status: 200, response: { id: alice.id } },
      { operationId: undefined, path: "/elsewhere", query: { x: "1" }, status: 404 },
    ]);
  });

  it("filters by operation, method, path, status and user, and clears", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const bob = await test.createUser("Bob");
    const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
    await test.as(alice).getOrganizationById({ organizationId: org.id });
    await test.request("GET", `/orgs/${org.id}`, { token: bob.token });
    expect(test.calls({ method: "get" }).map((call) => call.user)).toEqual([alice.id, bob.id]);
    expect(test.calls({ user: bob.id, status: 404 })).toMatchObject([
      { operationId: "getOrganizationById", path: `/orgs/${org.id}`, response: { error: { code: 404 } } },
    ]);
    expect(test.calls({ path: "/orgs" })).toHaveLength(1);
    expect(test.calls({ operationId: "getOrganizationById", status: 200 })).toHaveLength(1);
    test.calls.clear();
    expect(test.calls()).toEqual([]);
  });

  it("records refusals: invalid input in process, and an unknown path without an operation", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    // @ts-expect-error the title is required
    await expect(test.as(alice).createOrganization({ body: {} })).rejects.toMatchObject({
      code: "bad_request",
    });
    await test.request("GET", "/no-such-thing?x=1");
    expect(test.calls()).toMatchObject([
      { operationId: "createOrganization", body: {}, status: 400, user: alice.id },
      { operationId: undefined, method: "GET", path: "/no-such-thing", query: { x: "1" }, status: 404 },
    ]);
  });

  it("keeps two doubles' journals apart", async () => {
    const [one, two] = await Promise.all([createTestDocsbase(), createTestDocsbase()]);
    await one.request("GET", "/user");
    expect(one.calls()).toHaveLength(1);
    expect(two.calls()).toEqual([]);
  });
});
