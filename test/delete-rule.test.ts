import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/core/operations.js";
import { createTestDocsbase, type TestClient } from "../src/testing/double.js";

/**
 * The delete rule (docs/api.md, "Deletes"), held for every delete operation of the registry: a
 * member of the organization without the role the delete needs gets 403 whether or not the object
 * exists; a user who is a member of nothing there gets 404; a caller with the role gets 205 when
 * something was deleted and 204 when nothing existed. A new delete operation fails here until it
 * has a case below.
 */

type Params = Readonly<Record<string, string>>;
type Caller = "owner" | "reader" | "commenter" | "outsider";

/** What one delete operation is walked with: the path parameters of an object and of nothing. */
interface Target {
  /** An object that exists, created for this case alone. */
  readonly existing: Params;
  /** The same containers, naming nothing. */
  readonly missing: Params;
  /** Who holds the role the delete needs; the organization's admin unless said. */
  readonly holder?: Caller;
}

type World = Awaited<ReturnType<typeof createWorld>>;

/**
 * One organization, built once through the typed clients: its admin (`owner`), a `read` member
 * (`reader`), a `comment` member (`commenter`), and `outsider`, a user of no organization. A live
 * space with a page, a second space, and an open change request on the first.
 */
async function createWorld() {
  const test = await createTestDocsbase({
    translator: async ({ texts, to }) => texts.map((text) => `[${to}] ${text}`),
  });
  const users = {
    owner: await test.createUser("Owner", "owner@example.com"),
    reader: await test.createUser("Reader", "reader@example.com"),
    commenter: await test.createUser("Commenter", "commenter@example.com"),
    outsider: await test.createUser("Outsider", "outsider@example.com"),
  };
  /** The deletes go over HTTP, for their statuses. */
  const as =
    (who: Caller) =>
    async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
      test.request(method, path, { token: users[who].token, ...(body === undefined ? {} : { body }) });
  /** The typed clients the setup goes through (a refusal rejects). */
  const clients: Record<Caller, TestClient> = {
    owner: test.as(users.owner),
    reader: test.as(users.reader),
    commenter: test.as(users.commenter),
    outsider: test.as(users.outsider),
  };
  const client = clients.owner;
  const org = (await client.createOrganization({ body: { title: "Walked" } })).id;
  for (const [who, role] of [
    ["reader", "read"],
    ["commenter", "comment"],
  ] as const) {
    const invite = (await client.createOrganizationInvite({ organizationId: org, body: { role } })).id;
    await clients[who].joinOrganizationWithInvite({ organizationId: org, inviteId: invite });
  }
  const newSpace = async (title: string) =>
    (await client.createSpace({ organizationId: org, body: { title } })).id;
  const space = await newSpace("Docs");
  const otherSpace = await newSpace("Other");
  const page = (await client.createPage({ spaceId: space, body: { title: "Intro" } })).id;
  const changeRequest = (await client.createChangeRequest({ spaceId: space, body: { subject: "CR" } })).id;
  const newSite = async () =>
    (await client.createSite({ organizationId: org, body: { title: "Site", spaces: [space] } })).id;
  return { test, users, as, clients, client, org, newSpace, space, otherSpace, page, changeRequest, newSite };
}

const file = { name: "a.txt", contentType: "text/plain", data: btoa("a") };
const markdown = (text: string) => ({ markdown: text });

/** Each delete operation's case, by operation id. */
const CASES: Record<string, (w: World) => Promise<Target>> = {
  async deleteUserToken(w) {
    // The token's own user holds the role; a user who shares an organization with them does not.
    const token = (await w.client.createUserToken({ userId: w.users.owner.id, body: { label: "spare" } })).id;
    return {
      existing: { userId: w.users.owner.id, tokenId: token },
      missing: { userId: w.users.owner.id, tokenId: "none" },
    };
  },
  async removeMemberFromOrganizationById(w) {
    const user = await w.test.createUser("Leaving", "leaving@example.com");
    const invite = (
      await w.client.createOrganizationInvite({ organizationId: w.org, body: { role: "read" } })
    ).id;
    await w.test.as(user).joinOrganizationWithInvite({ organizationId: w.org, inviteId: invite });
    return {
      existing: { organizationId: w.org, userId: user.id },
      missing: { organizationId: w.org, userId: "none" },
    };
  },
  async revokeOrganizationEmailInvite(w) {
    await w.client.inviteUsersToOrganization({
      organizationId: w.org,
      body: { emails: ["invited@example.com"], role: "read" },
    });
    const [invitation] = (await w.client.listOrganizationEmailInvites({ organizationId: w.org })).items;
    return {
      existing: { organizationId: w.org, invitationId: invitation!.id },
      missing: { organizationId: w.org, invitationId: "none" },
    };
  },
  async deleteOrganizationInviteById(w) {
    const invite = (
      await w.client.createOrganizationInvite({ organizationId: w.org, body: { role: "read" } })
    ).id;
    return {
      existing: { organizationId: w.org, inviteId: invite },
      missing: { organizationId: w.org, inviteId: "none" },
    };
  },
  async removeTeamFromOrganizationById(w) {
    const team = (
      await w.client.createOrganizationTeam({ organizationId: w.org, body: { title: "Gone", members: [] } })
    ).id;
    return {
      existing: { organizationId: w.org, teamId: team },
      missing: { organizationId: w.org, teamId: "none" },
    };
  },
  async deleteMemberFromOrganizationTeamById(w) {
    // Removing someone else needs the team's `admin` (organization admins, team owners).
    const members = [w.users.commenter.id];
    const team = (
      await w.client.createOrganizationTeam({ organizationId: w.org, body: { title: "Team", members } })
    ).id;
    return {
      existing: { organizationId: w.org, teamId: team, userId: w.users.commenter.id },
      missing: { organizationId: w.org, teamId: team, userId: "none" },
    };
  },
  async deleteCollectionById(w) {
    const collection = (await w.client.createCollection({ organizationId: w.org, body: { title: "Gone" } }))
      .id;
    return { existing: { collectionId: collection }, missing: { collectionId: "none" } };
  },
  async removeUserFromSpace(w) {
    const spaceId = await w.newSpace("Shared");
    await w.client.inviteToSpace({ spaceId, body: { role: "edit", users: [w.users.reader.id] } });
    return { existing: { spaceId, userId: w.users.reader.id }, missing: { spaceId, userId: "none" } };
  },
  async removeTeamFromSpace(w) {
    const spaceId = await w.newSpace("Shared");
    const team = (await w.client.createOrganizationTeam({ organizationId: w.org, body: { title: "T" } })).id;
    await w.client.inviteToSpace({ spaceId, body: { role: "edit", teams: [team] } });
    return { existing: { spaceId, teamId: team }, missing: { spaceId, teamId: "none" } };
  },
  async removeUserFromCollection(w) {
    const collectionId = (await w.client.createCollection({ organizationId: w.org, body: { title: "C" } }))
      .id;
    await w.client.inviteToCollection({ collectionId, body: { role: "edit", users: [w.users.reader.id] } });
    return {
      existing: { collectionId, userId: w.users.reader.id },
      missing: { collectionId, userId: "none" },
    };
  },
  async removeTeamFromCollection(w) {
    const collectionId = (await w.client.createCollection({ organizationId: w.org, body: { title: "C" } }))
      .id;
    const team = (await w.client.createOrganizationTeam({ organizationId: w.org, body: { title: "T" } })).id;
    await w.client.inviteToCollection({ collectionId, body: { role: "edit", teams: [team] } });
    return { existing: { collectionId, teamId: team }, missing: { collectionId, teamId: "none" } };
  },
  async deleteSpaceById(w) {
    // Deleted once, the space stays stored (restorable) and is judged by its own levels.
    return { existing: { spaceId: await w.newSpace("Gone") }, missing: { spaceId: "none" } };
  },
  async deletePage(w) {
    const page = (await w.client.createPage({ spaceId: w.space, body: { title: "Gone" } })).id;
    return { existing: { spaceId: w.space, pageId: page }, missing: { spaceId: w.space, pageId: "none" } };
  },
  async deleteFile(w) {
    const created = (await w.client.uploadFile({ spaceId: w.space, body: file })).id;
    return { existing: { spaceId: w.space, fileId: created }, missing: { spaceId: w.space, fileId: "none" } };
  },
  async deletePageInChangeRequest(w) {
    const at = { spaceId: w.space, changeRequestId: w.changeRequest };
    const page = (await w.client.createPageInChangeRequest({ ...at, body: { title: "Draft" } })).id;
    return { existing: { ...at, pageId: page }, missing: { ...at, pageId: "none" } };
  },
  async deleteFileInChangeRequest(w) {
    const at = { spaceId: w.space, changeRequestId: w.changeRequest };
    const created = (await w.client.uploadFileInChangeRequest({ ...at, body: file })).id;
    return { existing: { ...at, fileId: created }, missing: { ...at, fileId: "none" } };
  },
  async deleteReusableContent(w) {
    const id = (await w.client.createReusableContent({ spaceId: w.space, body: { title: "Gone" } })).id;
    return {
      existing: { spaceId: w.space, reusableContentId: id },
      missing: { spaceId: w.space, reusableContentId: "none" },
    };
  },
  async deleteReusableContentInChangeRequest(w) {
    const at = { spaceId: w.space, changeRequestId: w.changeRequest };
    const id = (await w.client.createReusableContentInChangeRequest({ ...at, body: { title: "Draft" } })).id;
    return { existing: { ...at, reusableContentId: id }, missing: { ...at, reusableContentId: "none" } };
  },
  async deleteCommentInSpace(w) {
    // Its author holds the role: a `comment` member deletes their own comment.
    const body = { page: w.page, body: markdown("mine") };
    const comment = (await w.clients.commenter.postCommentInSpace({ spaceId: w.space, body })).id;
    return {
      existing: { spaceId: w.space, commentId: comment },
      missing: { spaceId: w.space, commentId: "none" },
      holder: "commenter",
    };
  },
  async deleteCommentReplyInSpace(w) {
    const thread = { page: w.page, body: markdown("thread") };
    const comment = (await w.client.postCommentInSpace({ spaceId: w.space, body: thread })).id;
    const at = { spaceId: w.space, commentId: comment };
    const reply = (
      await w.clients.commenter.postCommentReplyInSpace({ ...at, body: { body: markdown("mine") } })
    ).id;
    return {
      existing: { ...at, commentReplyId: reply },
      missing: { ...at, commentReplyId: "none" },
      holder: "commenter",
    };
  },
  async deleteCommentInChangeRequest(w) {
    const at = { spaceId: w.space, changeRequestId: w.changeRequest };
    const comment = (await w.client.postCommentInChangeRequest({ ...at, body: { body: markdown("review") } }))
      .id;
    return { existing: { ...at, commentId: comment }, missing: { ...at, commentId: "none" } };
  },
  async deleteCommentReplyInChangeRequest(w) {
    const changeRequest = { spaceId: w.space, changeRequestId: w.changeRequest };
    const comment = (
      await w.client.postCommentInChangeRequest({ ...changeRequest, body: { body: markdown("review") } })
    ).id;
    const at = { ...changeRequest, commentId: comment };
    const reply = (await w.client.postCommentReplyInChangeRequest({ ...at, body: { body: markdown("ok") } }))
      .id;
    return { existing: { ...at, commentReplyId: reply }, missing: { ...at, commentReplyId: "none" } };
  },
  async removeRequestedReviewerFromChangeRequest(w) {
    const reviewer = await w.test.createUser("Reviewer");
    const invite = (
      await w.client.createOrganizationInvite({ organizationId: w.org, body: { role: "review" } })
    ).id;
    await w.test.as(reviewer).joinOrganizationWithInvite({ organizationId: w.org, inviteId: invite });
    const at = { spaceId: w.space, changeRequestId: w.changeRequest };
    await w.client.requestReviewersForChangeRequest({ ...at, body: { users: [reviewer.id] } });
    return { existing: { ...at, userId: reviewer.id }, missing: { ...at, userId: "none" } };
  },
  async deleteSiteById(w) {
    return {
      existing: { organizationId: w.org, siteId: await w.newSite() },
      missing: { organizationId: w.org, siteId: "none" },
    };
  },
  async deleteSiteSectionById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    await w.client.addSectionToSite({ ...at, body: { spaceId: w.space, title: "Kept" } });
    const section = (
      await w.client.addSectionToSite({ ...at, body: { spaceId: w.otherSpace, title: "Gone" } })
    ).id;
    return { existing: { ...at, siteSectionId: section }, missing: { ...at, siteSectionId: "none" } };
  },
  async deleteSiteSectionGroupById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    await w.client.addSectionToSite({ ...at, body: { spaceId: w.space, title: "Guides" } });
    const group = (await w.client.addSectionGroupToSite({ ...at, body: { title: "Gone" } })).id;
    return { existing: { ...at, siteSectionGroupId: group }, missing: { ...at, siteSectionGroupId: "none" } };
  },
  async removeSectionFromGroup(w) {
    const siteId = await w.newSite();
    const site = { organizationId: w.org, siteId };
    await w.client.addSectionToSite({ ...site, body: { spaceId: w.space, title: "Guides" } });
    const grouped = (
      await w.client.addSectionToSite({ ...site, body: { spaceId: w.otherSpace, title: "More" } })
    ).id;
    const group = (
      await w.client.addSectionGroupToSite({ ...site, body: { title: "Group", sections: [grouped] } })
    ).id;
    const at = { organizationId: w.org, siteId, siteSectionGroupId: group };
    return { existing: { ...at, siteSectionId: grouped }, missing: { ...at, siteSectionId: "none" } };
  },
  async deleteSiteSpaceById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    const siteSpace = (await w.client.addSpaceToSite({ ...at, body: { spaceId: w.otherSpace } })).id;
    return { existing: { ...at, siteSpaceId: siteSpace }, missing: { ...at, siteSpaceId: "none" } };
  },
  async deleteSiteShareLinkById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    await w.client.updateSiteById({ ...at, body: { visibility: "share-link" } });
    const link = (await w.client.createSiteShareLink({ ...at, body: { name: "Reviewers" } })).id;
    return { existing: { ...at, shareLinkId: link }, missing: { ...at, shareLinkId: "none" } };
  },
  async deleteSiteRedirectById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    const siteSpaceId = (await w.client.listSiteSpaces(at)).items[0]!.id;
    const destination = { kind: "site-space" as const, siteSpaceId };
    const redirect = (await w.client.createSiteRedirect({ ...at, body: { source: "/old", destination } })).id;
    return { existing: { ...at, siteRedirectId: redirect }, missing: { ...at, siteRedirectId: "none" } };
  },
  async deleteSiteSpaceCustomizationById(w) {
    const at = { organizationId: w.org, siteId: await w.newSite() };
    const siteSpaceId = (await w.client.listSiteSpaces(at)).items[0]!.id;
    await w.client.overrideSiteSpaceCustomizationById({
      ...at,
      siteSpaceId,
      body: { pdf: { enabled: false } },
    });
    // A site space without overrides: nothing to delete.
    const other = { organizationId: w.org, siteId: await w.newSite() };
    const bare = (await w.client.listSiteSpaces(other)).items[0]!.id;
    return { existing: { ...at, siteSpaceId }, missing: { ...other, siteSpaceId: bare } };
  },
  async unpublishIntegration(w) {
    await publish(w, "walk-gone");
    // A name nobody published: judged by the caller's organizations.
    return { existing: { integrationName: "walk-gone" }, missing: { integrationName: "walk-none" } };
  },
  async uninstallIntegration(w) {
    await publish(w, "walk-installed");
    const installation = await w.client.installIntegration({
      integrationName: "walk-installed",
      body: { organization: w.org },
    });
    return {
      existing: { integrationName: "walk-installed", installationId: installation.id },
      missing: { integrationName: "walk-installed", installationId: "none" },
    };
  },
  async disableIntegrationDevelopmentMode(w) {
    // What goes is the development mode: an integration without one names nothing to turn off.
    await publish(w, "walk-dev");
    await w.client.setIntegrationDevelopmentMode({
      integrationName: "walk-dev",
      body: { tunnelUrl: "https://tunnel.example.com/" },
    });
    await publish(w, "walk-no-dev");
    return { existing: { integrationName: "walk-dev" }, missing: { integrationName: "walk-no-dev" } };
  },
  async deleteOpenAPISpecBySlug(w) {
    const source = { text: "openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n" };
    await w.client.createOpenAPISpec({ organizationId: w.org, body: { slug: "walk", source } });
    return {
      existing: { organizationId: w.org, specSlug: "walk" },
      missing: { organizationId: w.org, specSlug: "none" },
    };
  },
  async deleteOrganizationSAMLProvider(w) {
    const provider = (
      await w.client.createOrganizationSAMLProvider({ organizationId: w.org, body: { label: "IdP" } })
    ).id;
    return {
      existing: { organizationId: w.org, samlProviderId: provider },
      missing: { organizationId: w.org, samlProviderId: "none" },
    };
  },
  async deleteTranslation(w) {
    const source = { space: w.space, language: "en" } as const;
    const translation = (
      await w.client.createTranslation({ organizationId: w.org, body: { language: "fr", source } })
    ).id;
    return {
      existing: { organizationId: w.org, translationId: translation },
      missing: { organizationId: w.org, translationId: "none" },
    };
  },
};

async function publish(w: World, name: string): Promise<void> {
  await w.client.publishIntegration({
    integrationName: name,
    body: {
      organization: w.org,
      title: name,
      description: "Walked",
      script: "export default {}",
      scopes: ["space:content:read"],
    },
  });
}

/** `path` with its parameters filled from `params`, each of which it must name. */
function fill(path: string, params: Params): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path.${name} of ${path}`);
    return encodeURIComponent(value);
  });
}

const deletes = Object.values(operations).filter((operation) => operation.method === "delete");

let w: World;
beforeAll(async () => {
  w = await createWorld();
});

describe("the delete rule", () => {
  it("has a case for exactly the delete operations of the registry", () => {
    expect(deletes.length).toBeGreaterThan(0);
    const ids = deletes.map((operation) => operation.id).sort();
    expect(Object.keys(CASES).sort()).toEqual(ids);
  });

  it.each(deletes.map((operation) => [operation.id, operation] as const))(
    "%s: 403 to a member without the role, existing or not; 404 to a non-member; 205 then 204",
    async (id, operation) => {
      const prepare = CASES[id];
      if (!prepare) throw new Error(`${id} has no case: add one to CASES`);
      const target = await prepare(w);
      const holder = target.holder ?? "owner";
      const status = async (who: Caller, params: Params) =>
        (await w.as(who)("DELETE", fill(operation.path, params))).status;
      const seen = {
        "member without the role, existing": await status("reader", target.existing),
        "member without the role, missing": await status("reader", target.missing),
        "non-member, existing": await status("outsider", target.existing),
        "non-member, missing": await status("outsider", target.missing),
        "with the role, missing": await status(holder, target.missing),
        "with the role, existing": await status(holder, target.existing),
        "with the role, once deleted": await status(holder, target.existing),
      };
      expect(seen).toEqual({
        "member without the role, existing": 403,
        "member without the role, missing": 403,
        "non-member, existing": 404,
        "non-member, missing": 404,
        "with the role, missing": 204,
        "with the role, existing": 205,
        "with the role, once deleted": 204,
      });
    },
  );
});
