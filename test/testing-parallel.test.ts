import { describe, expect, it } from "vitest";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/index.js";

/**
 * Doubles share nothing: eight run at once in this process, each from a fixture of its own (the
 * same ids, other contents), and none sees another's data, calls, faults or tokens.
 * Module-level state of src/core and src/testing that could be shared was looked for: a few
 * WeakMaps cache what is derived from one object, keyed by that object, and two memos
 * (`textMemo`) keep what checking and scanning a markdown text found, which depends on the text
 * only: nothing one double writes can change what another reads.
 */
const DOUBLES = 8;

/**
 * Double `index`: its fixture gives every double the same ids (`u-owner`, `org-main`, `space-0`...)
 * with contents of its own (titles, `index + 1` spaces, the owner's token), then one space is
 * created through the API, which the journal records.
 */
async function world(index: number) {
  const owner = { id: "u-owner", token: `tok-owner-${index}-0123456789abcdef` };
  const test = await createTestDocsbase({
    fixture: {
      users: [{ ...owner, displayName: `Owner ${index}`, email: "owner@example.com" }],
      organizations: [
        { id: "org-main", title: `Org ${index}`, members: [{ user: owner.id, role: "admin" }] },
      ],
      spaces: Array.from({ length: index + 1 }, (_, space) => ({
        id: `space-${space}`,
        organization: "org-main",
        title: `Space ${index}.${space}`,
      })),
    },
  });
  const org = { id: "org-main" };
  await test.as(owner).createSpace({ organizationId: org.id, body: { title: `Extra ${index}` } });
  // Every other double fails its owner's reads of the user: the others must not see the fault.
  if (index % 2 === 1) test.fault({ operationId: "getAuthenticatedUser", status: 503 });
  return { index, test, owner, org };
}

describe("test double: parallel doubles in one process", () => {
  it(`runs ${DOUBLES} doubles at once, with nothing shared between them`, async () => {
    const worlds = await Promise.all(Array.from({ length: DOUBLES }, (_, index) => world(index)));
    const check = async ({ index, test, owner, org }: Awaited<ReturnType<typeof world>>) => {
      const api = await test.client(owner);
      const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
      const { data: spaces } = await api.orgs.listSpacesInOrganizationById(org.id);
      const me = await api.user.getAuthenticatedUser().then(
        (response) => response.status,
        (error: { code: number }) => error.code,
      );
      return { index, orgs: orgs.items.map((item) => item.title), spaces: spaces.items.length, me };
    };
    const seen = await Promise.all(worlds.map(check));
    expect(seen).toEqual(
      worlds.map(({ index }) => ({
        index,
        orgs: [`Org ${index}`],
        spaces: index + 2,
        me: index % 2 === 1 ? 503 : 200,
      })),
    );
    for (const { index, test, owner } of worlds) {
      // The journal holds this double's calls only (its fixture's are not journaled).
      expect(test.calls({ operationId: "createSpace" })).toMatchObject([
        { body: { title: `Extra ${index}` }, user: owner.id },
      ]);
      expect(test.calls({ operationId: "createOrganization" })).toEqual([]);
      expect(test.calls().every((call) => call.user === owner.id)).toBe(true);
      // Another double's tokens are unknown here (the operator's token is each double's own too).
      const other = worlds[(index + 1) % DOUBLES]!;
      expect((await test.request("GET", "/user", { token: other.owner.token })).status).toBe(401);
    }
  });

  it("gives each of doubles made at once its own clock, users and tokens", async () => {
    const doubles: TestDocsbase[] = await Promise.all(
      Array.from({ length: DOUBLES }, (_, index) =>
        createTestDocsbase({ clock: () => new Date(Date.UTC(2024, 0, index + 1)) }),
      ),
    );
    const users = await Promise.all(doubles.map((test) => test.createUser("Same", "same@example.com")));
    const created = await Promise.all(
      doubles.map((test, index) => test.as(users[index]!).getAuthenticatedUser()),
    );
    expect(new Set(users.map((user) => user.token)).size).toBe(DOUBLES);
    created.forEach((user, index) => expect(user.id).toBe(users[index]!.id));
    doubles.forEach((test, index) =>
      expect(test.calls()[0]?.at).toEqual(new Date(Date.UTC(2024, 0, index + 1))),
    );
  });
});
