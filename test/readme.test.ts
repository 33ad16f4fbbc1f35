import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createDocsbase } from "../src/index.js";

/** The README's embedding example, on memory storage, so the documented calls stay true. */
describe("README embedding example", () => {
  it("bootstraps, serves fetch and runs typed operations in process", async () => {
    const token = "dbt_readme_example_token";
    const docsbase = createDocsbase({ storage: memoryStorage(), baseUrl: "https://docs.example.com" });
    await docsbase.bootstrap({ token });
    const served = await docsbase.fetch(
      new Request("https://docs.example.com/v1/user", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(served.status).toBe(200);
    const api = docsbase.as({ token });
    const org = await api.createOrganization({ body: { title: "Acme" } });
    const space = await api.createSpace({ organizationId: org.id, body: { title: "Handbook" } });
    expect(space).toMatchObject({ title: "Handbook", organization: org.id });
  });
});

describe("in-process client", () => {
  it("acts as a user by id, validates like HTTP, and throws typed errors", async () => {
    const docsbase = createDocsbase({ storage: memoryStorage() });
    const { userId } = await docsbase.bootstrap({ token: "dbt_in_process_client_token" });
    const operator = docsbase.as({ userId });
    const user = await operator.createUser({ body: { displayName: "Ada", email: "ada@example.com" } });
    const ada = docsbase.as({ userId: user.id });
    expect(await ada.getAuthenticatedUser()).toMatchObject({ id: user.id, displayName: "Ada" });
    await expect(ada.createOrganization({ body: { title: "A" } })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^body\.title: /),
    });
    await expect(
      ada.createUser({ body: { displayName: "Eve", email: "eve@example.com" } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(docsbase.as({ userId: "nobody" }).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
    await expect(docsbase.as({ token: "dbt_wrong" }).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
  });
});
