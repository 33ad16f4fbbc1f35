import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";
import { organizationsTable } from "./tables.js";

/** Input limits of the organization operations (docs/api.md, "Limits"). */
describe("organizations: input limits", () => {
  it("stores only http and https logos", async () => {
    const { api, org } = await createWorkspace();
    const observe = async () => (await api("GET", `/orgs/${org}`)).body;
    const refused = [
      "javascript:alert(document.domain)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "ftp://files.example.com/logo.png",
      "//cdn.example.com/logo.png",
      "/logo.png",
      "https://cdn.example.com/my logo.png",
      "https://cdn.example.com/logo.png\n",
      "http://",
      `https://cdn.example.com/${"a".repeat(2049 - "https://cdn.example.com/".length)}`,
    ];
    await expectRefusedUnchanged(
      observe,
      refused.map((logo) => [() => api("PATCH", `/orgs/${org}`, { logo }), "body.logo"] as const),
    );

    for (const logo of [
      "https://cdn.example.com/logo.png",
      "http://127.0.0.1:8080/logo.svg?v=2#top",
      `https://cdn.example.com/${"a".repeat(2048 - "https://cdn.example.com/".length)}`,
    ]) {
      const updated = await api("PATCH", `/orgs/${org}`, { logo });
      expect(updated.status).toBe(200);
      expect(updated.body.urls.logo).toBe(logo);
    }
    expect((await api("PATCH", `/orgs/${org}`, { logo: null })).body.urls.logo).toBeUndefined();
  });

  it("never shows a logo of another scheme stored before logos were checked", async () => {
    const { api, org, storage } = await createWorkspace();
    for (const logo of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>"]) {
      await storage.write(async (tx) => {
        const record = await tx.get(organizationsTable, org);
        await tx.put(organizationsTable, { ...record!, logo });
      });
      expect((await api("GET", `/orgs/${org}`)).body.urls.logo).toBeUndefined();
      expect((await api("GET", "/orgs")).body.items[0].urls.logo).toBeUndefined();
    }
  });

  it("bounds ids, domains, merge rules and page tokens", async () => {
    const { api, org } = await createWorkspace();
    const observe = async () => (await api("GET", `/orgs/${org}`)).body;
    const rules = (users: string[], count = 1) => ({
      mergeRules: {
        type: "rules",
        rules: Array.from({ length: count }, () => ({ rule: "require_specific_reviewers", users })),
      },
    });
    await expectRefusedUnchanged(observe, [
      [() => api("PATCH", `/orgs/${LONG_ID}`, { title: "Renamed" }), "path.organizationId"],
      [
        () => api("PATCH", `/orgs/${org}`, { defaultContent: { type: "site", site: LONG_ID } }),
        "body.defaultContent.site",
      ],
      [
        () => api("PATCH", `/orgs/${org}`, { emailDomains: [`${"a".repeat(250)}.com`] }),
        "body.emailDomains.0",
      ],
      [
        () =>
          api("PATCH", `/orgs/${org}`, { emailDomains: Array.from({ length: 101 }, (_, i) => `d${i}.com`) }),
        "body.emailDomains",
      ],
      [() => api("PATCH", `/orgs/${org}`, rules([LONG_ID])), "body.mergeRules.rules.0.users.0"],
      [
        () => api("PATCH", `/orgs/${org}`, rules(Array.from({ length: 1001 }, (_, i) => `u${i}`))),
        "body.mergeRules.rules.0.users",
      ],
      [() => api("PATCH", `/orgs/${org}`, rules(["u1"], 101)), "body.mergeRules.rules"],
      [() => api("PATCH", `/orgs/${org}`, { title: "x".repeat(256) }), "body.title"],
      [() => api("GET", `/orgs?page=${"p".repeat(8193)}`), "query.page"],
    ]);

    // At the bounds, validation passes.
    expect((await api("GET", `/orgs/${LONGEST_ID}`)).status).toBe(404);
    const updated = await api("PATCH", `/orgs/${org}`, rules([LONGEST_ID], 100));
    expect(updated.status).toBe(200);
    expect(updated.body.mergeRules.rules).toHaveLength(100);
    // The longest id passes validation, then is refused for naming no site of the organization.
    const site = await api("PATCH", `/orgs/${org}`, { defaultContent: { type: "site", site: LONGEST_ID } });
    expect(site.status).toBe(400);
    expect(site.body.error.message).toBe(
      `body.defaultContent.site: no site "${LONGEST_ID}" in this organization`,
    );
  });
});
