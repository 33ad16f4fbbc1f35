import { describe, expect, expectTypeOf, it } from "vitest";
import { STATUS_OF } from "../http/status.js";
import { createTestDocsbase } from "./double.js";

describe("test double: the typed client per user", () => {
  it("acts as the user given by token or as createUser returns it, one client per token", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice", "alice@example.test");
    expect(await test.as(alice).getAuthenticatedUser()).toMatchObject({ id: alice.id, displayName: "Alice" });
    expect(await test.as(alice.token).getAuthenticatedUser()).toMatchObject({ id: alice.id });
    expect(test.as(alice.token)).toBe(test.as(alice));
    expect(await test.as(test.operatorToken).getAuthenticatedUser()).not.toMatchObject({ id: alice.id });
    await expect(test.as("dbt_unknown_token").getAuthenticatedUser()).rejects.toMatchObject({
      name: "DocsbaseError",
      code: "unauthorized",
    });
  });

  it("types input and output by the operation, and refuses as HTTP does", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const bob = await test.createUser("Bob");
    const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
    const space = await test.as(alice).createSpace({ organizationId: org.id, body: { title: "Handbook" } });
    expectTypeOf(space.title).toEqualTypeOf<string>();
    expect(space).toMatchObject({ title: "Handbook", organization: org.id });
    await expect(
      // @ts-expect-error `titel` is not a field of the body, and `title` is required.
      test.as(alice).createOrganization({ body: { titel: "Acme" } }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("body.title") });

    // The refusal carries what HTTP answers: the code of the status, the same message.
    const refused = await test
      .as(bob)
      .getSpaceById({ spaceId: space.id })
      .catch((error: unknown) => error);
    const answered = await test.request("GET", `/spaces/${space.id}`, { token: bob.token });
    expect(answered.status).toBe(404);
    expect(refused).toMatchObject({ code: "not_found", message: answered.body.error.message });
    expect(STATUS_OF[(refused as { code: keyof typeof STATUS_OF }).code]).toBe(answered.status);
  });
});
