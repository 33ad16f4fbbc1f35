import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the member operations (docs/api.md, "Limits"). */
describe("members: input limits", () => {
  it("bounds member ids and the search texts", async () => {
    const { client, org, owner } = await createWorkspace();
    const organizationId = org;
    const observe = () => client.listMembersInOrganizationById({ organizationId });
    await expectRefusedUnchanged(observe, [
      [
        () =>
          answerOf(
            client.updateMemberInOrganizationById({
              organizationId,
              userId: LONG_ID,
              body: { role: "read" },
            }),
          ),
        "path.userId",
      ],
      [
        () => answerOf(client.removeMemberFromOrganizationById({ organizationId, userId: LONG_ID })),
        "path.userId",
      ],
      [
        () =>
          answerOf(
            client.updateMemberInOrganizationById({
              organizationId: LONG_ID,
              userId: owner.id,
              body: { role: "read" },
            }),
          ),
        "path.organizationId",
      ],
      [
        () => answerOf(client.listMembersInOrganizationById({ organizationId, search: "s".repeat(513) })),
        "query.search",
      ],
      [
        () =>
          answerOf(
            client.listTeamsForOrganizationMember({
              organizationId,
              userId: owner.id,
              title: "t".repeat(513),
            }),
          ),
        "query.title",
      ],
      [
        () => answerOf(client.listMembersInOrganizationById({ organizationId, page: "p".repeat(8193) })),
        "query.page",
      ],
    ]);

    // At the bounds, validation passes.
    await expect(
      client.getMemberInOrganizationById({ organizationId, userId: LONGEST_ID }),
    ).rejects.toMatchObject({ code: "not_found" });
    const found = await client.listMembersInOrganizationById({ organizationId, search: "s".repeat(512) });
    expect(found.count).toBe(0);
    expect((await client.listMembersInOrganizationById({ organizationId, search: "owner" })).count).toBe(1);
  });
});
