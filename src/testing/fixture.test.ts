import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "./double.js";
import { type Fixture, FixtureError, parseFixture } from "./fixture.js";

const issueFixture: Fixture = {
  users: [{ id: "u-ada", displayName: "Ada", email: "ada@example.com", token: "tok-ada-0123456789abcdef" }],
  organizations: [{ id: "org-acme", title: "Acme", members: [{ user: "u-ada", role: "admin" }] }],
  spaces: [
    {
      id: "space-handbook",
      organization: "org-acme",
      title: "Handbook",
      pages: [
        {
          id: "page-intro",
          title: "Intro",
          markdown: "# Hello",
          pages: [{ title: "Child", markdown: "Child page" }],
        },
      ],
    },
  ],
};

const everything: Fixture = {
  users: [
    { id: "u-ada", displayName: "Ada", tokens: ["tok-ada-0123456789abcdef", "tok-ada-second-0123456"] },
    { id: "u-bob", displayName: "Bob", email: "bob@example.com", token: "tok-bob-0123456789abcdef" },
    { id: "u-cy", displayName: "Cy" },
  ],
  organizations: [
    {
      id: "org-acme",
      title: "Acme",
      members: [
        { user: "u-ada", role: "admin" },
        { user: "u-bob", role: "edit" },
        { user: "u-cy", role: "read" },
      ],
      teams: [{ id: "team-docs", title: "Docs", members: ["u-bob"] }],
    },
  ],
  collections: [{ id: "col-guides", organization: "org-acme", title: "Guides" }],
  spaces: [
    {
      id: "space-guide",
      organization: "org-acme",
      collection: "col-guides",
      title: "Guide",
      pages: [{ id: "page-a", title: "A", markdown: "Alpha" }],
      files: [{ id: "file-notes", name: "notes.txt", text: "hello" }],
      comments: [
        {
          id: "comment-1",
          user: "u-bob",
          body: "Typo?",
          page: "page-a",
          replies: [{ id: "reply-1", user: "u-ada", body: "Fixed" }],
        },
      ],
      changeRequests: [
        { id: "cr-open", subject: "Add B", pages: [{ id: "page-b", title: "B", markdown: "Beta" }] },
        { id: "cr-merged", subject: "Add C", status: "merged", pages: [{ title: "C", markdown: "Gamma" }] },
      ],
    },
  ],
  sites: [
    {
      id: "site-docs",
      organization: "org-acme",
      title: "Docs",
      spaces: [{ id: "ss-guide", space: "space-guide" }],
      shareLinks: [{ id: "link-preview", name: "Preview" }],
    },
  ],
};

describe("fixtures", () => {
  it("runs the issue's example as written", async () => {
    const test = await createTestDocsbase({ fixture: issueFixture });
    const ada = test.as("tok-ada-0123456789abcdef");
    expect(await ada.getAuthenticatedUser()).toMatchObject({
      id: "u-ada",
      displayName: "Ada",
      email: "ada@example.com",
    });
    expect(await ada.getOrganizationById({ organizationId: "org-acme" })).toMatchObject({ title: "Acme" });
    expect(await ada.getSpaceById({ spaceId: "space-handbook" })).toMatchObject({ title: "Handbook" });
    const intro = await ada.getPageById({ spaceId: "space-handbook", pageId: "page-intro" });
    expect(intro).toMatchObject({ title: "Intro" });
    const { pages } = await ada.listPages({ spaceId: "space-handbook" });
    expect(pages).toMatchObject([{ id: "page-intro", title: "Intro", pages: [{ title: "Child" }] }]);
    const snap = await test.snapshot();
    await test.as("tok-ada-0123456789abcdef").updateSpaceById({
      spaceId: "space-handbook",
      body: { title: "Renamed" },
    });
    expect(test.calls({ operationId: "updateSpaceById" })).toMatchObject([
      { body: { title: "Renamed" }, status: 200, user: "u-ada" },
    ]);
    await test.restore(snap);
    expect(await ada.getSpaceById({ spaceId: "space-handbook" })).toMatchObject({ title: "Handbook" });
  });

  it("keeps the loading calls out of the journal", async () => {
    const test = await createTestDocsbase({ fixture: everything });
    expect(test.calls()).toEqual([]);
  });

  it("creates every kind with the ids given", async () => {
    const test = await createTestDocsbase({ fixture: everything });
    const ada = test.as("tok-ada-second-0123456");
    const bob = test.as("tok-bob-0123456789abcdef");
    expect(await bob.getAuthenticatedUser()).toMatchObject({ id: "u-bob" });
    const { items: members } = await ada.listMembersInOrganizationById({ organizationId: "org-acme" });
    expect(members.map((member) => [member.user.id, member.role]).sort()).toEqual([
      ["u-ada", "admin"],
      ["u-bob", "edit"],
      ["u-cy", "read"],
    ]);
    const { items: links } = await ada.listOrganizationInviteLinks({ organizationId: "org-acme" });
    expect(links).toEqual([]);
    expect(
      await ada.getTeamInOrganizationById({ organizationId: "org-acme", teamId: "team-docs" }),
    ).toMatchObject({
      title: "Docs",
    });
    expect(await ada.getCollectionById({ collectionId: "col-guides" })).toMatchObject({ title: "Guides" });
    expect(await ada.getSpaceById({ spaceId: "space-guide" })).toMatchObject({ parent: "col-guides" });
    expect(await ada.getFileById({ spaceId: "space-guide", fileId: "file-notes" })).toMatchObject({
      name: "notes.txt",
    });
    const comment = await ada.getCommentInSpace({ spaceId: "space-guide", commentId: "comment-1" });
    expect(comment).toMatchObject({ postedBy: { id: "u-bob" }, replies: 1 });
    expect(
      await ada.getCommentReplyInSpace({
        spaceId: "space-guide",
        commentId: "comment-1",
        commentReplyId: "reply-1",
      }),
    ).toMatchObject({ postedBy: { id: "u-ada" } });
    expect(
      await ada.getChangeRequestById({ spaceId: "space-guide", changeRequestId: "cr-open" }),
    ).toMatchObject({
      subject: "Add B",
      status: "open",
    });
    expect(
      await ada.getChangeRequestById({ spaceId: "space-guide", changeRequestId: "cr-merged" }),
    ).toMatchObject({
      status: "merged",
    });
    const { pages } = await ada.listPages({ spaceId: "space-guide" });
    expect(pages.map((page) => page.title)).toEqual(["A", "C"]);
    expect(
      await ada.getPageInChangeRequestById({
        spaceId: "space-guide",
        changeRequestId: "cr-open",
        pageId: "page-b",
      }),
    ).toMatchObject({ title: "B" });
    const site = { organizationId: "org-acme", siteId: "site-docs" };
    expect(await ada.getSiteById(site)).toMatchObject({ title: "Docs" });
    expect((await ada.listSiteSpaces(site)).items).toMatchObject([
      { id: "ss-guide", space: { id: "space-guide" } },
    ]);
    expect((await ada.listSiteShareLinks(site)).items).toMatchObject([
      { id: "link-preview", name: "Preview" },
    ]);
  });

  it("seeds a double with references to what it already holds", async () => {
    const test = await createTestDocsbase({ fixture: issueFixture });
    await test.seed({
      users: [{ id: "u-bob", displayName: "Bob", token: "tok-bob-0123456789abcdef" }],
      spaces: [{ id: "space-more", organization: "org-acme", title: "More", pages: [{ title: "P" }] }],
    });
    const ada = test.as("tok-ada-0123456789abcdef");
    expect(await ada.getSpaceById({ spaceId: "space-more" })).toMatchObject({ title: "More" });
    await expect(test.seed({ users: [{ id: "u-bob", displayName: "Bob again" }] })).rejects.toThrow(
      'users[0].id: the double already has a user "u-bob"',
    );
  });

  it("names the path of what is wrong, and changes nothing", async () => {
    const test = await createTestDocsbase();
    const bad = (fixture: unknown) => test.seed(fixture as Fixture);
    await expect(
      bad({
        spaces: [
          { organization: "o", title: "A" },
          { organization: "o", title: "B", pages: [{ markdown: "x" }] },
        ],
      }),
    ).rejects.toThrow(/^spaces\[1\]\.pages\[0\]\.title: /);
    await expect(
      bad({
        users: [{ id: "u-ada", displayName: "Ada" }],
        organizations: [
          {
            title: "Acme",
            members: [
              { user: "u-ada", role: "admin" },
              { user: "u-bob", role: "edit" },
            ],
          },
        ],
      }),
    ).rejects.toThrow('organizations[0].members[1].user: no user "u-bob" in the fixture or the double');
    await expect(
      bad({
        users: [
          { id: "u-a", displayName: "A" },
          { id: "u-a", displayName: "B" },
        ],
      }),
    ).rejects.toThrow('users[1].id: duplicate id "u-a" (also users[0].id)');
    await expect(bad({ users: [{ displayName: "A", token: "short" }] })).rejects.toThrow(
      /^users\[0\]\.token: /,
    );
    await expect(bad({ users: [{ displayName: 3 }] })).rejects.toMatchObject({
      path: "users[0].displayName",
    });
    await expect(bad({ widgets: [] })).rejects.toBeInstanceOf(FixtureError);
    // Nothing was created by the refused fixtures (the operator alone is a user).
    expect(test.calls()).toEqual([]);
    const operator = test.as(test.operatorToken);
    await expect(operator.getUserById({ userId: "u-ada" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("maps an operation's refusal to the fixture's field", async () => {
    const test = await createTestDocsbase();
    const error = await test
      .seed({
        users: [{ id: "u-ada", displayName: "Ada" }],
        organizations: [{ id: "org", title: "x".repeat(1000), members: [{ user: "u-ada", role: "admin" }] }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as FixtureError).path).toBe("organizations[0].title");
  });

  it("parses a fixture given as JSON", () => {
    expect(parseFixture(JSON.parse(JSON.stringify(everything)))).toEqual(everything);
    expect(() => parseFixture({ users: [{ id: "u a", displayName: "A" }] })).toThrow(/^users\[0\]\.id: /);
    expect(() => parseFixture([])).toThrow(FixtureError);
  });
});
