import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the team operations (docs/api.md, "Limits"). */
describe("teams: input limits", () => {
  it("bounds team ids, member references, their counts and the filters", async () => {
    const { client, org, owner } = await createWorkspace();
    const organizationId = org;
    const team = (await client.createOrganizationTeam({ organizationId, body: { title: "Docs" } })).id;
    const ids = { organizationId, teamId: team };
    const observe = async () => ({
      teams: await client.listTeamsInOrganizationById({ organizationId }),
      members: await client.listTeamMembersInOrganizationById(ids),
    });
    const many = (length: number) => Array.from({ length }, () => owner.id);
    const email = `${"e".repeat(311)}@acme.test`;
    await expectRefusedUnchanged(observe, [
      [() => answerOf(client.getTeamInOrganizationById({ organizationId, teamId: LONG_ID })), "path.teamId"],
      [
        () =>
          answerOf(
            client.updateTeamInOrganizationById({
              organizationId,
              teamId: LONG_ID,
              body: { title: "Renamed" },
            }),
          ),
        "path.teamId",
      ],
      [
        () => answerOf(client.addMemberToOrganizationTeamById({ ...ids, userId: LONG_ID, body: {} })),
        "path.userId",
      ],
      [() => answerOf(client.listTeamsInOrganizationById({ organizationId, owner: LONG_ID })), "query.owner"],
      [
        () => answerOf(client.listTeamsInOrganizationById({ organizationId, title: "t".repeat(513) })),
        "query.title",
      ],
      [
        () => answerOf(client.createOrganizationTeam({ organizationId, body: { title: "t".repeat(65) } })),
        "body.title",
      ],
      [
        () =>
          answerOf(
            client.createOrganizationTeam({ organizationId, body: { title: "New", members: [LONG_ID] } }),
          ),
        "body.members.0",
      ],
      [
        () =>
          answerOf(
            client.createOrganizationTeam({ organizationId, body: { title: "New", members: many(1001) } }),
          ),
        "body.members",
      ],
      [
        () => answerOf(client.updateMembersInOrganizationTeam({ ...ids, body: { add: [email] } })),
        "body.add.0",
      ],
      [
        () => answerOf(client.updateMembersInOrganizationTeam({ ...ids, body: { remove: many(1001) } })),
        "body.remove",
      ],
      [
        () =>
          answerOf(
            client.updateMembersInOrganizationTeam({
              ...ids,
              body: { memberships: { [email]: { role: "owner" } } },
            }),
          ),
        "body.memberships",
      ],
      [
        () =>
          answerOf(
            client.updateMembersInOrganizationTeam({
              ...ids,
              body: {
                memberships: Object.fromEntries(
                  Array.from({ length: 1001 }, (_, i) => [`u${i}`, { role: "member" as const }]),
                ),
              },
            }),
          ),
        "body.memberships",
      ],
    ]);

    // At the bounds, validation passes.
    await expect(
      client.getTeamInOrganizationById({ organizationId, teamId: LONGEST_ID }),
    ).rejects.toMatchObject({ code: "not_found" });
    // No content (204 over HTTP).
    expect(
      await client.updateMembersInOrganizationTeam({ ...ids, body: { add: many(1000) } }),
    ).toBeUndefined();
    expect((await client.getTeamInOrganizationById(ids)).members).toBe(1);
  });
});
