import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { organizationsTable } from "./tables.js";

type Update = ClientInput<Operations["updateOrganizationById"]>["body"];

/** Input limits of the organization operations (docs/api.md, "Limits"). */
describe("organizations: input limits", () => {
  it("stores only http and https logos", async () => {
    const { client, org } = await createWorkspace();
    const organizationId = org;
    const observe = () => client.getOrganizationById({ organizationId });
    const patch = (body: Update) => client.updateOrganizationById({ organizationId, body });
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
      refused.map((logo) => [() => answerOf(patch({ logo })), "body.logo"] as const),
    );

    for (const logo of [
      "https://cdn.example.com/logo.png",
      "http://127.0.0.1:8080/logo.svg?v=2#top",
      `https://cdn.example.com/${"a".repeat(2048 - "https://cdn.example.com/".length)}`,
    ]) {
      const updated = await patch({ logo });
      expect(updated.urls.logo).toBe(logo);
    }
    expect((await patch({ logo: null })).urls.logo).toBeUndefined();
  });

  it("never shows a logo of another scheme stored before logos were checked", async () => {
    const { client, org, storage } = await createWorkspace();
    for (const logo of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>"]) {
      await storage.write(async (tx) => {
        const record = await tx.get(organizationsTable, org);
        await tx.put(organizationsTable, { ...record!, logo });
      });
      expect((await client.getOrganizationById({ organizationId: org })).urls.logo).toBeUndefined();
      expect((await client.listOrganizationsForAuthenticatedUser()).items[0]!.urls.logo).toBeUndefined();
    }
  });

  it("bounds ids, domains, merge rules and page tokens", async () => {
    const { client, org } = await createWorkspace();
    const organizationId = org;
    const observe = () => client.getOrganizationById({ organizationId });
    const patch =
      (body: Update, id = organizationId) =>
      () =>
        answerOf(client.updateOrganizationById({ organizationId: id, body }));
    const rules = (users: string[], count = 1) => ({
      mergeRules: {
        type: "rules" as const,
        rules: Array.from({ length: count }, () => ({ rule: "require_specific_reviewers" as const, users })),
      },
    });
    await expectRefusedUnchanged(observe, [
      [patch({ title: "Renamed" }, LONG_ID), "path.organizationId"],
      [patch({ defaultContent: { type: "site", site: LONG_ID } }), "body.defaultContent.site"],
      [patch({ emailDomains: [`${"a".repeat(250)}.com`] }), "body.emailDomains.0"],
      [patch({ emailDomains: Array.from({ length: 101 }, (_, i) => `d${i}.com`) }), "body.emailDomains"],
      [patch(rules([LONG_ID])), "body.mergeRules.rules.0.users.0"],
      [patch(rules(Array.from({ length: 1001 }, (_, i) => `u${i}`))), "body.mergeRules.rules.0.users"],
      [patch(rules(["u1"], 101)), "body.mergeRules.rules"],
      [patch({ title: "x".repeat(256) }), "body.title"],
      [
        () => answerOf(client.listOrganizationsForAuthenticatedUser({ page: "p".repeat(8193) })),
        "query.page",
      ],
    ]);

    // At the bounds, validation passes.
    await expect(client.getOrganizationById({ organizationId: LONGEST_ID })).rejects.toMatchObject({
      code: "not_found",
    });
    const updated = await client.updateOrganizationById({ organizationId, body: rules([LONGEST_ID], 100) });
    expect(updated.mergeRules).toMatchObject({
      type: "rules",
      rules: rules([LONGEST_ID], 100).mergeRules.rules,
    });
    // The longest id passes validation, then is refused for naming no site of the organization.
    await expect(
      client.updateOrganizationById({
        organizationId,
        body: { defaultContent: { type: "site", site: LONGEST_ID } },
      }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: `body.defaultContent.site: no site "${LONGEST_ID}" in this organization`,
    });
  });
});
