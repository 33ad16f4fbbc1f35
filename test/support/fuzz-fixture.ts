import { createTestDocsbase } from "../../src/testing/double.js";
import { recordingStorage } from "./recording-storage.js";

/**
 * An in-memory docsbase with one of every object a path can name, owned by one user who is the
 * organization's admin: the target of the fuzz test. `ids` maps each path parameter name of the
 * API to the real ids the fuzzer aims at; `errors` collects what the handler reported as
 * unexpected (the cause of a 500).
 */
export async function createFuzzFixture() {
  const recording = recordingStorage();
  const errors: unknown[] = [];
  let sequence = 0;
  const test = await createTestDocsbase({
    storage: recording.storage,
    clock: () => new Date("2025-01-01T00:00:00.000Z"),
    ids: () => `fz${(++sequence).toString(36).padStart(8, "0")}`,
    onError: (error) => errors.push(error),
    // A deterministic engine, so that translations can be created and run.
    translator: async ({ texts, to }) => texts.map((text) => `[${to}] ${text}`),
    // No generated input may reach the network.
    outbound: {
      transport: () => Promise.reject(new Error("The fuzz test has no network")),
      resolveHost: () => Promise.resolve(["203.0.113.1"]),
    },
  });
  const owner = await test.createUser("Owner", "owner@example.com");
  const member = await test.createUser("Member", "member@example.com");
  const invitee = await test.createUser("Invitee", "invitee@example.com");

  const as = (token: string) => async (method: string, path: string, body?: unknown) => {
    const response = await test.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
    if (response.status >= 300) {
      throw new Error(
        `fixture: ${method} ${path} answered ${response.status} ${JSON.stringify(response.body)}`,
      );
    }
    return response.body as Record<string, any>;
  };
  const api = as(owner.token);
  // Authenticating records a token's `lastUsedAt` once per period; every caller of the fuzz test
  // does so here, before the stored state the test compares against (the clock stands still).
  for (const token of [owner.token, member.token, invitee.token, test.operatorToken])
    await as(token)("GET", "/user");

  const org = (await api("POST", "/orgs", { title: "Fuzzed" })).id as string;
  const otherOrg = (await api("POST", "/orgs", { title: "Other" })).id as string;
  const collection = (await api("POST", `/orgs/${org}/collections`, { title: "C" })).id as string;
  const space = (await api("POST", `/orgs/${org}/spaces`, { title: "S", parent: collection })).id as string;
  const otherSpace = (await api("POST", `/orgs/${org}/spaces`, { title: "T" })).id as string;

  // The member joins through an invite link, which stays in the fixture for the link operations.
  const invite = (await api("POST", `/orgs/${org}/link-invites`, { role: "edit" })).id as string;
  await as(member.token)("POST", `/orgs/${org}/invites/${invite}`);
  const team = (await api("PUT", `/orgs/${org}/teams`, { title: "Team", members: [member.id] })).id as string;

  // A pending email invitation, which the invitee is the caller of accept and decline for.
  await api("POST", `/orgs/${org}/invites`, { emails: ["invitee@example.com"], role: "read" });
  const invitations = (await api("GET", `/orgs/${org}/email-invites`)).items as { id: string }[];
  // A second token of the owner's, so that deleting a real token need not delete the caller's.
  const token = (await api("POST", `/users/${owner.id}/tokens`, { label: "spare" })).id as string;

  const content = `/spaces/${space}/content`;
  const page = await api("POST", `${content}/pages`, {
    title: "Guide",
    slug: "guide",
    markdown: "# Guide\n\nText [x](https://example.com)",
  });
  const child = await api("POST", `${content}/pages`, {
    title: "Child",
    slug: "child",
    parent: page.id,
    markdown: "child",
  });
  const file = await api("POST", `${content}/files`, {
    name: "a.txt",
    contentType: "text/plain",
    data: btoa("hello"),
  });
  const reusable = await api("POST", `${content}/reusable-contents`, { title: "Snippet", markdown: "kept" });
  const revision = (await api("GET", content)).id as string;

  const cr = (await api("POST", `/spaces/${space}/change-requests`, { subject: "CR" })).id as string;
  const crContent = `/spaces/${space}/change-requests/${cr}/content`;
  const crPage = await api("POST", `${crContent}/pages`, {
    title: "Draft",
    slug: "draft",
    markdown: "draft",
  });
  const crFile = await api("POST", `${crContent}/files`, {
    name: "b.txt",
    contentType: "text/plain",
    data: btoa("b"),
  });
  const crReusable = await api("POST", `${crContent}/reusable-contents`, { title: "Draft snippet" });

  const comment = (await api("POST", `/spaces/${space}/comments`, { page: page.id, body: { markdown: "c" } }))
    .id as string;
  const reply = (
    await api("POST", `/spaces/${space}/comments/${comment}/replies`, { body: { markdown: "r" } })
  ).id as string;
  const crComment = (
    await api("POST", `/spaces/${space}/change-requests/${cr}/comments`, { body: { markdown: "c" } })
  ).id as string;
  // A review needs a reviewer other than the author: the owner reviews a change request of the member's.
  const memberCr = (await as(member.token)("POST", `/spaces/${space}/change-requests`, { subject: "M" }))
    .id as string;
  const review = (
    await api("POST", `/spaces/${space}/change-requests/${memberCr}/reviews`, { status: "approved" })
  ).id as string;
  const crReply = (
    await api("POST", `/spaces/${space}/change-requests/${cr}/comments/${crComment}/replies`, {
      body: { markdown: "r" },
    })
  ).id as string;

  // A published share-link site: a first section holding the site's site space, a second one in a
  // group, a site space with a condition, and a share link.
  const sites = `/orgs/${org}/sites`;
  const site = (await api("POST", sites, { title: "Site", spaces: [space] })).id as string;
  const section = await api("POST", `${sites}/${site}/sections`, { spaceId: space, title: "Guides" });
  const grouped = await api("POST", `${sites}/${site}/sections`, { spaceId: otherSpace, title: "More" });
  const group = (
    await api("POST", `${sites}/${site}/section-groups`, { title: "Group", sections: [grouped.id] })
  ).id as string;
  const conditioned = (
    await api("POST", `${sites}/${site}/site-spaces`, { spaceId: otherSpace, sectionId: section.id })
  ).id as string;
  await api("PATCH", `${sites}/${site}/site-spaces/${conditioned}`, {
    path: "other",
    condition: 'visitor.claims.plan == "pro"',
  });
  await api("PATCH", `${sites}/${site}`, { visibility: "share-link" });
  await api("POST", `${sites}/${site}/publish`);
  const shareLink = (await api("POST", `${sites}/${site}/share-links`, { name: "Reviewers" })).id as string;
  const siteSpaces = (await api("GET", `${sites}/${site}/site-spaces`)).items as { id: string }[];
  const redirect = (
    await api("POST", `${sites}/${site}/redirects`, {
      source: "/old",
      destination: { kind: "site-space", siteSpaceId: siteSpaces[0]!.id },
    })
  ).id as string;

  // An OpenAPI spec from a text source, processed, so that it has a version.
  await api("POST", `/orgs/${org}/openapi`, {
    slug: "pets",
    source: { text: "openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n" },
  });
  await test.docsbase.runJobs();
  const specVersion = (await api("GET", `/orgs/${org}/openapi/pets`)).lastVersion as string;

  // A SAML provider (pending: a label only), a translation of the space, and an ingested,
  // analysed conversation with its issue and cluster.
  const samlProvider = (await api("POST", `/orgs/${org}/saml`, { label: "IdP" })).id as string;
  const translation = (
    await api("POST", `/orgs/${org}/translations`, { language: "fr", source: { space, language: "en" } })
  ).id as string;
  await api("POST", `/orgs/${org}/conversations`, {
    id: "fuzz-1",
    subject: "Login fails",
    parts: [
      {
        type: "message",
        role: "user",
        body: "Our single sign-on login fails with an invalid assertion error.",
      },
    ],
  });
  await test.docsbase.runJobs();
  const issues = (await api("GET", `/orgs/${org}/conversations-issues`)).items as {
    issue: { id: string; cluster: string };
  }[];

  // An integration of the organization, installed there, with its installation_setup event.
  await api("POST", "/integrations/fuzz-tool", {
    organization: org,
    title: "Fuzz tool",
    description: "Counts page views",
    script: "export default {}",
    scopes: ["space:content:read"],
  });
  const installation = (await api("POST", "/integrations/fuzz-tool/installations", {
    organization: org,
  })) as {
    id: string;
  };
  const event = ((await api("GET", "/integrations/fuzz-tool/events")).items as { id: string }[])[0]?.id ?? "";

  // A push of offline edits (pushChangeRequest): its id is the path parameter `pushId`.
  const pushId = "fuzz-push-0001";
  await api("PUT", `/spaces/${space}/pushes/${pushId}`, {
    revision,
    subject: "Pushed",
    pages: [{ id: "fuzz-pushed-page", parent: null, title: "Pushed", markdown: "pushed" }],
  });

  // Routes outside the registry: a file download and a PDF export, named by their URLs.
  const download = new URL(file.downloadURL as string).pathname.split("/");
  const pdf = new URL((await api("GET", `/spaces/${space}/change-requests/${cr}/pdf`)).url as string)
    .pathname;

  /** Real values for each path parameter name; the first of each is the main target. */
  const ids: Record<string, string[]> = {
    organizationId: [org, otherOrg],
    userId: [owner.id, member.id, invitee.id],
    invitationId: invitations.map((invitation) => invitation.id),
    tokenId: [token],
    inviteId: [invite],
    teamId: [team],
    collectionId: [collection],
    spaceId: [space, otherSpace],
    pageId: [page.id as string, child.id as string, crPage.id as string],
    pagePath: ["guide", "guide/child", "draft"],
    fileId: [file.id as string, crFile.id as string],
    reusableContentId: [reusable.id as string, crReusable.id as string],
    documentId: [reusable.document as string],
    revisionId: [revision],
    changeRequestId: [cr, memberCr],
    reviewId: [review],
    commentId: [comment, crComment],
    commentReplyId: [reply, crReply],
    versionId: [download.at(-2) ?? "", specVersion],
    name: [decodeURIComponent(download.at(-1) ?? ""), "x.svg"],
    exportFile: [pdf.split("/").at(-1) ?? ""],
    siteId: [site],
    siteSectionId: [section.id as string, grouped.id as string],
    siteSectionGroupId: [group],
    siteSpaceId: siteSpaces.map((siteSpace) => siteSpace.id),
    shareLinkId: [shareLink],
    siteRedirectId: [redirect],
    integrationName: ["fuzz-tool"],
    specSlug: ["pets"],
    samlProviderId: [samlProvider],
    translationId: [translation],
    conversationId: ["fuzz-1"],
    issueId: issues.map((item) => item.issue.id),
    clusterId: issues.map((item) => item.issue.cluster),
    eventId: [event],
    installationId: [installation.id],
    pushId: [pushId],
  };
  /**
   * Well-formed reads over everything stored: what one accepted write must not break for the
   * rest of the organization (issue 9, defect 3: one page broke search for everyone).
   */
  const reads = [
    `/orgs/${org}/search?query=guide`,
    `/spaces/${space}/search?query=guide`,
    `/spaces/${space}/links`,
    `/spaces/${space}/content/pages`,
    `/spaces/${space}/content/page/${page.id}?format=document`,
    `/spaces/${space}/content/page/${page.id}/backlinks`,
    `/spaces/${space}/comments?format=document`,
    `/spaces/${space}/change-requests/${cr}/links`,
    `/spaces/${space}/change-requests/${cr}/content/pages`,
    `/orgs/${org}/sites`,
    `/orgs/${org}/sites/${site}/structure`,
    `/orgs/${org}/sites/${site}/site-spaces`,
    `/orgs/${org}/sites/${site}/published`,
    `/integrations?owner=${org}`,
    `/orgs/${org}/openapi/pets/versions/latest/content`,
    `/integrations/fuzz-tool/events`,
    `/orgs/${org}/translations`,
    `/orgs/${org}/conversations-clusters`,
    `/orgs/${org}/saml`,
  ];
  return { test, recording, errors, owner, member, invitee, ids, reads };
}
