import { beforeAll, describe, expect, it } from "vitest";
import { createTestDocsbase, type TestDocsbase } from "../../testing/double.js";
import { mentionScans } from "../content/mentions.js";

/**
 * The lookup's apiToken reads the users its content mentions (a renderer shows a mention with the
 * user's name and photo, read with `getUserById`), and no other user.
 */
describe("a reader token and the users its revision mentions", () => {
  let test: TestDocsbase;
  let token: string;
  let ada: { id: string; token: string };
  let ben: { id: string; token: string };
  let cy: { id: string; token: string };
  let dee: { id: string; token: string };
  let owner: { id: string; token: string };
  const mention = (user: { id: string }) => `[@${user.id}](user:${user.id})`;
  const getUser = (id: string, as: string | null = token) =>
    test.request("GET", `/users/${id}`, { token: as });

  beforeAll(async () => {
    test = await createTestDocsbase();
    owner = await test.createUser("Owner");
    ada = await test.createUser("Ada");
    ben = await test.createUser("Ben");
    cy = await test.createUser("Cy");
    dee = await test.createUser("Dee");
    const client = test.as(owner);
    const organizationId = (await client.createOrganization({ body: { title: "Acme" } })).id;
    const space = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    const other = (await client.createSpace({ organizationId, body: { title: "Other" } })).id;
    await client.createPage({ spaceId: space, body: { title: "Intro", markdown: `Ask ${mention(ada)}.` } });
    await client.createPage({ spaceId: space, body: { title: "Code", markdown: `\`${mention(ben)}\`` } });
    await client.createPage({ spaceId: other, body: { title: "Elsewhere", markdown: mention(cy) } });
    const site = (await client.createSite({ organizationId, body: { title: "Handbook", spaces: [space] } }))
      .id;
    await client.publishSite({ organizationId, siteId: site });
    const url = encodeURIComponent(`http://docsbase.test/sites/${site}/`);
    token = (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body.apiToken;
    // A later revision of the same space mentions Dee: the token keeps the revision it was issued with.
    await client.createPage({ spaceId: space, body: { title: "Later", markdown: mention(dee) } });
  });

  it("reads a mentioned user: name and photo, not the address", async () => {
    const answer = await getUser(ada.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: "user", id: ada.id, displayName: "Ada" });
    expect(answer.body.email).toBeUndefined();
  });

  it("is refused, as for a user it cannot see, anyone its revision does not mention", async () => {
    const owned = await getUser(owner.id, owner.token);
    expect(owned.status).toBe(200);
    for (const [user, why] of [
      [ben.id, "written in code, not a mention"],
      [cy.id, "mentioned only in another space"],
      [dee.id, "mentioned only in a later revision"],
      [owner.id, "not mentioned"],
      ["nobody", "no such user"],
    ] as const) {
      const answer = await getUser(user);
      expect([why, answer.status, answer.body.error?.message]).toEqual([
        why,
        404,
        `User "${user}" not found`,
      ]);
    }
    // Ben, who shares no organization with Ada, gets the same answer for her.
    expect((await getUser(ada.id, ben.token)).status).toBe(404);
  });

  it("is refused every other read of users", async () => {
    expect((await test.request("GET", `/users/${ada.id}/tokens`, { token })).status).toBe(403);
    expect((await test.request("GET", "/user", { token })).status).toBe(403);
  });

  it("computes a revision's mentions once, not per call", async () => {
    const other = await createTestDocsbase();
    const author = await other.createUser("Author");
    const named = await other.createUser("Named");
    const client = other.as(author);
    const organizationId = (await client.createOrganization({ body: { title: "Acme" } })).id;
    const space = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    for (let page = 0; page < 5; page++) {
      await client.createPage({
        spaceId: space,
        body: { title: `Page ${page}`, markdown: `Hi ${mention(named)}` },
      });
    }
    const site = (await client.createSite({ organizationId, body: { title: "Handbook", spaces: [space] } }))
      .id;
    await client.publishSite({ organizationId, siteId: site });
    const url = encodeURIComponent(`http://docsbase.test/sites/${site}/`);
    const apiToken = (await other.request("GET", `/urls/published?url=${url}`, { token: null })).body
      .apiToken;
    const before = { ...mentionScans };
    for (let call = 0; call < 10; call++) {
      expect((await other.request("GET", `/users/${named.id}`, { token: apiToken })).status).toBe(200);
      expect((await other.request("GET", `/users/${author.id}`, { token: apiToken })).status).toBe(404);
    }
    // 20 checks: one computation, reading each of the 5 pages once.
    expect(mentionScans.revisions - before.revisions).toBe(1);
    expect(mentionScans.bodies - before.bodies).toBe(5);
  });
});
