import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the space operations (docs/api.md, "Limits"). */
describe("spaces: input limits", () => {
  it("bounds space ids, parents, positions, templates, texts, merge rules and page tokens", async () => {
    const { client, org, space } = await createTypedWorkspace();
    const first = await space({ title: "First" });
    const second = await space({ title: "Second" });
    const organizationId = org;
    const observe = async () => ({
      list: await client.listSpacesInOrganizationById({ organizationId }),
      first: await client.getSpaceById({ spaceId: first }),
    });
    const rules = Array.from({ length: 101 }, () => ({ rule: "require_at_least_one_review" as const }));
    await expectRefusedUnchanged(observe, [
      [() => answerOf(client.getSpaceById({ spaceId: LONG_ID })), "path.spaceId"],
      [() => answerOf(client.deleteSpaceById({ spaceId: LONG_ID })), "path.spaceId"],
      [() => answerOf(client.getSpaceById({ spaceId: first, shareKey: LONG_ID })), "query.shareKey"],
      [() => answerOf(client.createSpace({ organizationId, body: { parent: LONG_ID } })), "body.parent"],
      [
        () => answerOf(client.createSpace({ organizationId, body: { template: { id: LONG_ID } } })),
        "body.template.id",
      ],
      [() => answerOf(client.createSpace({ organizationId, body: { emoji: "e".repeat(51) } })), "body.emoji"],
      [
        () => answerOf(client.updateSpaceById({ spaceId: first, body: { title: "t".repeat(51) } })),
        "body.title",
      ],
      [
        () =>
          answerOf(
            client.updateSpaceById({ spaceId: first, body: { mergeRules: { type: "rules", rules } } }),
          ),
        "body.mergeRules.rules",
      ],
      [() => answerOf(client.moveSpace({ spaceId: first, body: { parent: LONG_ID } })), "body.parent"],
      [
        () =>
          answerOf(
            client.moveSpace({
              spaceId: first,
              body: { position: { before: { type: "space", space: LONG_ID } } },
            }),
          ),
        "body.position.before.space",
      ],
      [
        () => answerOf(client.transferSpace({ spaceId: first, body: { organization: LONG_ID } })),
        "body.organization",
      ],
      [() => answerOf(client.restoreSpace({ spaceId: LONG_ID })), "path.spaceId"],
      [
        () => answerOf(client.listSpacesInOrganizationById({ organizationId, page: "p".repeat(8193) })),
        "query.page",
      ],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    await expect(client.getSpaceById({ spaceId: LONGEST_ID })).rejects.toMatchObject({ code: "not_found" });
    await client.getSpaceById({ spaceId: first, shareKey: LONGEST_ID });
    await client.moveSpace({
      spaceId: second,
      body: { position: { before: { type: "space", space: first } } },
    });
    const updated = await client.updateSpaceById({
      spaceId: first,
      body: { emoji: "🚀", mergeRules: { type: "rules", rules: rules.slice(0, 100) } },
    });
    // The 100 rules, each as sent.
    expect(updated.mergeRules).toMatchObject({ type: "rules", rules: rules.slice(0, 100) });
  });
});
