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
