import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the team operations (docs/api.md, "Limits"). */
describe("teams: input limits", () => {
  it("bounds team ids, member references, their counts and the filters", async () => {
    const { api, org, owner } = await createWorkspace();
    const team: string = (await api("PUT", `/orgs/${org}/teams`, { title: "Docs" })).body.id;
    const observe = async () => ({
      teams: (await api("GET", `/orgs/${org}/teams`)).body,
      members: (await api("GET", `/orgs/${org}/teams/${team}/members`)).body,
    });
    const many = (length: number) => Array.from({ length }, () => owner.id);
    const email = `${"e".repeat(311)}@acme.test`;
    await expectRefusedUnchanged(observe, [
      [() => api("GET", `/orgs/${org}/teams/${LONG_ID}`), "path.teamId"],
      [() => api("PATCH", `/orgs/${org}/teams/${LONG_ID}`, { title: "Renamed" }), "path.teamId"],
      [() => api("PUT", `/orgs/${org}/teams/${team}/members/${LONG_ID}`, {}), "path.userId"],
      [() => api("GET", `/orgs/${org}/teams?owner=${LONG_ID}`), "query.owner"],
      [() => api("GET", `/orgs/${org}/teams?title=${"t".repeat(513)}`), "query.title"],
      [() => api("PUT", `/orgs/${org}/teams`, { title: "t".repeat(65) }), "body.title"],
      [() => api("PUT", `/orgs/${org}/teams`, { title: "New", members: [LONG_ID] }), "body.members.0"],
      [() => api("PUT", `/orgs/${org}/teams`, { title: "New", members: many(1001) }), "body.members"],
      [() => api("PUT", `/orgs/${org}/teams/${team}/members`, { add: [email] }), "body.add.0"],
      [() => api("PUT", `/orgs/${org}/teams/${team}/members`, { remove: many(1001) }), "body.remove"],
      [
        () =>
          api("PUT", `/orgs/${org}/teams/${team}/members`, { memberships: { [email]: { role: "owner" } } }),
        "body.memberships",
      ],
      [
        () =>
          api("PUT", `/orgs/${org}/teams/${team}/members`, {
            memberships: Object.fromEntries(
              Array.from({ length: 1001 }, (_, i) => [`u${i}`, { role: "member" }]),
            ),
          }),
        "body.memberships",
      ],
    ]);

    // At the bounds, validation passes.
    expect((await api("GET", `/orgs/${org}/teams/${LONGEST_ID}`)).status).toBe(404);
    const added = await api("PUT", `/orgs/${org}/teams/${team}/members`, { add: many(1000) });
    expect(added.status).toBe(204);
    expect((await api("GET", `/orgs/${org}/teams/${team}`)).body.members).toBe(1);
  });
});
