import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: conversations (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.conversations);
    h.expectConformant();
    await h.close();
  });

  it("ingests, analyses, clusters and reads conversations through the official client", async () => {
    const admin = await h.test.createUser("Admin", `admin-conversations-${kind}@acme.test`);
    const api = h.client(admin.token);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
    const login = (id: string, body: string) => ({
      id,
      subject: "Cannot log in with SSO",
      metadata: {
        url: `https://help.acme.test/${id}`,
        attributes: { channel: "chat" },
        createdAt: "2024-05-02T10:00:00Z",
      },
      parts: [
        { type: "message" as const, role: "user" as const, body },
        { type: "message" as const, role: "team-member" as const, body: "Thanks, we are looking into it." },
      ],
    });
    const ingested = await api.orgs.ingestConversation(org, [
      login("t-1", "Our SAML single sign-on login fails after the Okta redirect, everyone is blocked."),
      login("t-2", "SSO login with SAML fails with an invalid assertion after the Okta redirect."),
      {
        id: "t-3",
        subject: "Charged twice",
        parts: [
          {
            type: "message",
            role: "user",
            body: "Our credit card was charged twice for the monthly invoice, please refund.",
          },
        ],
      },
    ]);
    expect(ingested.status).toBe(204);
    expect((await api.orgs.ingestConversation(org, { id: "t-4", parts: [] })).status).toBe(204);
    await h.test.docsbase.runJobs();

    const { data: listed } = await api.orgs.listConversations(org, { limit: 2 });
    expect(listed.count).toBe(4);
    expect(listed.items.map((item) => item.id)).toEqual(["t-1", "t-2"]);
    expect(listed.next?.page).toBeDefined();
    const source = listed.items[0]!.source;
    expect((await api.orgs.listConversations(org, { source })).data.count).toBe(4);
    expect((await api.orgs.listConversations(org, { source: "email" })).data.count).toBe(0);

    const { data: one } = await api.orgs.getConversationById(org, "t-1");
    expect(one.conversation).toMatchObject({ id: "t-1", createdAt: "2024-05-02T10:00:00.000Z" });
    expect(one.parts).toHaveLength(2);
    expect(one.metadata.attributes).toEqual({ channel: "chat" });
    expect(await statusOf(api.orgs.getConversationById(org, "missing"))).toBe(404);

    const { data: clusters } = await api.orgs.listConversationsIssuesClusters(org, { orderBy: "issues" });
    expect(clusters.items.map((cluster) => cluster.stats.issues)).toEqual([2, 1]);
    const [logins] = clusters.items;
    expect(logins!.weeklyPulse).toHaveLength(13);
    expect(Object.values(logins!.sources).reduce((sum, count) => sum + count, 0)).toBe(2);
    const { data: cluster } = await api.orgs.getConversationsIssuesCluster(org, logins!.id);
    expect(cluster).toMatchObject({ id: logins!.id, stats: { issues: 2, conversations: 2 } });
    expect(await statusOf(api.orgs.getConversationsIssuesCluster(org, "missing"))).toBe(404);

    const { data: issues } = await api.orgs.listConversationsIssues(org, { cluster: logins!.id });
    // Analyses run concurrently: issues are listed in the order they were found.
    expect(issues.items.map((item) => item.conversation.id).sort()).toEqual(["t-1", "t-2"]);
    expect((await api.orgs.listConversationsIssues(org, { conversation: "t-4" })).data.count).toBe(0);
    const first = issues.items.find((item) => item.conversation.id === "t-1")!;
    const { data: issue } = await api.orgs.getConversationIssueById(org, first.issue.id);
    expect(issue.issue).toMatchObject({ conversation: "t-1", cluster: logins!.id });
    expect((issue.issue as { impact?: string }).impact).toBe("high");
    expect(await statusOf(api.orgs.getConversationIssueById(org, "missing"))).toBe(404);

    // Muting is docsbase's own operation (the reference has none): the typed client has it.
    const muted = await h.test.as(admin).updateConversationsIssuesCluster({
      organizationId: org,
      clusterId: logins!.id,
      body: { muted: true },
    });
    expect(muted.muted).toBe(true);

    expect(await statusOf(api.orgs.ingestConversation(org, { id: "", parts: [] }))).toBe(400);
    const reader = await h.test.createUser("Reader", `reader-conversations-${kind}@acme.test`);
    expect(await statusOf(h.client(reader.token).orgs.listConversations(org))).toBe(404);
  });
});
