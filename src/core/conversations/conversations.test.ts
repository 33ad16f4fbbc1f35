import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createTestDocsbase, type TestClient } from "../../testing/double.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { ConversationAnalyzer } from "./analyzer.js";
import { weeklyPulse } from "./clustering.js";
import type { conversationInput } from "./schemas.js";

/**
 * A conversation as `ingestConversation` takes it. Its body schema parses `unknown` (to name the
 * field of a refusal), so the client types it `unknown`: the tests type it from the schema.
 */
type ConversationInput = z.input<typeof conversationInput>;
type ClusterQuery = Omit<ClientInput<Operations["listConversationsIssuesClusters"]>, "organizationId">;

const DAY = 86_400_000;

const sso = (id: string, extra: Partial<ConversationInput> = {}): ConversationInput => ({
  id,
  subject: "SSO login fails",
  parts: [
    {
      type: "message" as const,
      role: "user" as const,
      body: "Our SAML single sign-on login fails with an invalid assertion error.",
    },
    { type: "message" as const, role: "team-member" as const, body: "Thanks, we are looking into it." },
  ],
  ...extra,
});

/** Ingestion, analysis, permissions and limits of the conversations module. */
describe("conversations", () => {
  async function setup() {
    const w = await createWorkspace();
    const base = `/orgs/${w.org}`;
    const organizationId = w.org;
    const run = () => w.test.docsbase.runJobs();
    const ingest = (
      body: ConversationInput | ConversationInput[],
      organization = organizationId,
      client: TestClient = w.client,
    ) => client.ingestConversation({ organizationId: organization, body });
    return { ...w, base, organizationId, run, ingest };
  }

  it("answers 204 at once, analyses in the background, and reads conversations back", async () => {
    const w = await setup();
    const { client, organizationId } = w;
    const c1 = { organizationId, conversationId: "c-1" };
    // No content: the call resolves to nothing.
    const ingested = await w.ingest(
      sso("c-1", { metadata: { url: "https://help.test/1", attributes: { plan: "pro" } } }),
    );
    expect(ingested).toBeUndefined();
    const pending = await client.getConversationById(c1);
    expect(pending.conversation).toMatchObject({
      object: "conversation",
      id: "c-1",
      createdAt: "2025-01-01T00:00:00.000Z",
    });
    expect(pending.conversation.processedAt).toBeUndefined();
    await w.run();
    const read = await client.getConversationById(c1);
    expect(read).toMatchObject({
      conversation: {
        id: "c-1",
        subject: "SSO login fails",
        processedAt: "2025-01-01T00:00:00.000Z",
        impact: "medium",
        source: expect.stringMatching(/^integration:user:[^:]+$/),
        urls: {
          location: `http://docsbase.test/v1${w.base}/conversations/c-1`,
          source: "https://help.test/1",
        },
      },
      parts: [{ role: "user" }, { role: "team-member" }],
      metadata: { url: "https://help.test/1", attributes: { plan: "pro" } },
    });
    const issues = await client.listConversationsIssues({ organizationId, conversation: "c-1" });
    expect(issues.count).toBe(1);
    const { issue } = issues.items[0]!;
    expect(issue).toMatchObject({
      object: "conversation-issue",
      title: "SSO login fails",
      impact: "medium",
      conversation: "c-1",
    });
    expect(issue.details).toMatchObject({ object: "document", nodes: [{ type: "paragraph" }] });
    const one = await client.getConversationIssueById({ organizationId, issueId: issue.id });
    expect(one.conversation.id).toBe("c-1");
    const cluster = await client.getConversationsIssuesCluster({ organizationId, clusterId: issue.cluster! });
    expect(cluster).toMatchObject({
      object: "issues-cluster",
      label: "SSO login fails",
      icon: "lock",
      muted: false,
      impact: "medium",
      stats: { issues: 1, conversations: 1 },
    });
    expect(Object.values(cluster.sources)).toEqual([1]);
    expect((await client.listConversationsIssues({ organizationId, cluster: issue.cluster! })).count).toBe(1);
    expect((await client.listConversationsIssues({ organizationId, cluster: "unknown" })).count).toBe(0);
    const notFound = { code: "not_found" };
    await expect(
      client.getConversationById({ organizationId, conversationId: "unknown" }),
    ).rejects.toMatchObject(notFound);
    await expect(
      client.getConversationIssueById({ organizationId, issueId: "unknown" }),
    ).rejects.toMatchObject(notFound);
    await expect(
      client.getConversationsIssuesCluster({ organizationId, clusterId: "unknown" }),
    ).rejects.toMatchObject(notFound);
  });

  it("replaces a re-ingested conversation and keeps ids apart between organizations", async () => {
    const w = await setup();
    const { client, organizationId } = w;
    await w.ingest(sso("same"));
    await w.run();
    const other = await w.organization("Other");
    await w.ingest(
      [
        {
          id: "same",
          subject: "Invoice",
          parts: [
            {
              type: "message",
              role: "user",
              body: "Our invoice shows the wrong VAT number and billing address.",
            },
          ],
        },
      ],
      other,
    );
    await w.run();
    await w.ingest({
      id: "same",
      parts: [{ type: "message", role: "user", body: "Thanks!" }],
    });
    await w.run();
    const mine = await client.getConversationById({ organizationId, conversationId: "same" });
    expect(mine.parts).toEqual([{ type: "message", role: "user", body: "Thanks!" }]);
    expect(mine.conversation.subject).toBeUndefined();
    expect(mine.conversation.impact).toBeUndefined();
    expect((await client.listConversationsIssues({ organizationId })).count).toBe(0);
    expect((await client.listConversationsIssuesClusters({ organizationId })).count).toBe(0);
    expect((await client.listConversations({ organizationId })).count).toBe(1);
    const theirs = await client.getConversationById({ organizationId: other, conversationId: "same" });
    expect(theirs.conversation.subject).toBe("Invoice");
    expect((await client.listConversationsIssues({ organizationId: other })).count).toBe(1);
  });

  it("gates ingestion by ingestConversations, reading by membership, and muting by admin", async () => {
    const w = await setup();
    const organizationId = w.org;
    await w.client.ingestConversation({ organizationId, body: sso("c-1") });
    await w.run();
    const clusterId = (await w.client.listConversationsIssuesClusters({ organizationId })).items[0]!.id;
    const editor = (await w.member("edit")).client;
    await expect(editor.ingestConversation({ organizationId, body: sso("c-2") })).rejects.toMatchObject({
      code: "forbidden",
    });
    await editor.listConversations({ organizationId });
    await expect(
      editor.updateConversationsIssuesCluster({ organizationId, clusterId, body: { muted: true } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    const guest = (await w.member(null)).client;
    await expect(guest.listConversations({ organizationId })).rejects.toMatchObject({ code: "not_found" });
    const stranger = w.test.as(await w.test.createUser("Stranger"));
    await expect(stranger.listConversations({ organizationId })).rejects.toMatchObject({ code: "not_found" });
    await expect(stranger.ingestConversation({ organizationId, body: sso("x") })).rejects.toMatchObject({
      code: "not_found",
    });
    const muted = await w.client.updateConversationsIssuesCluster({
      organizationId,
      clusterId,
      body: { muted: true },
    });
    expect(muted.muted).toBe(true);
    expect((await w.client.listConversations({ organizationId })).count).toBe(1);
  });

  it("refuses what exceeds the limits, naming the field, and stores nothing", async () => {
    const w = await setup();
    const refused = async (body: ConversationInput | ConversationInput[], field: string) => {
      await expect(w.ingest(body), field).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining(field),
      });
    };
    await refused(sso(""), "body.id");
    await refused(sso("x".repeat(256)), "body.id");
    await refused(sso("ok", { subject: "s".repeat(513) }), "body.subject");
    await refused(sso("ok", { metadata: { createdAt: "yesterday" } }), "body.metadata.createdAt");
    // Bodies of no type the client allows are cast: this test is about the validation messages.
    await refused(
      { id: "ok", parts: [{ type: "note", role: "user", body: "x" }] } as unknown as ConversationInput,
      "body.parts.0.type",
    );
    await refused({ id: "ok" } as ConversationInput, "body.parts");
    await refused([sso("ok"), sso("")], "body.1.id");
    expect(await w.ingest(sso("x".repeat(255), { subject: "s".repeat(512) }))).toBeUndefined();
    expect((await w.client.listConversations({ organizationId: w.organizationId })).count).toBe(1);
  });

  it("counts the weekly pulse by week, ending with the current one, as the clock moves", async () => {
    const w = await setup();
    // 2025-01-01 is a Wednesday: its week started on Monday 2024-12-30.
    await w.ingest([
      sso("now"),
      sso("last-week", { metadata: { createdAt: "2024-12-27T10:00:00Z" } }),
      sso("monday", { metadata: { createdAt: "2024-12-30T00:00:00Z" } }),
      sso("long-ago", { metadata: { createdAt: "2024-06-01T00:00:00Z" } }),
    ]);
    await w.run();
    const pulse = async () =>
      (await w.client.listConversationsIssuesClusters({ organizationId: w.organizationId })).items[0]!
        .weeklyPulse;
    expect(await pulse()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
    w.advance(7 * DAY);
    expect(await pulse()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0]);
    w.advance(12 * 7 * DAY);
    expect(await pulse()).toEqual(new Array(13).fill(0));
    expect(weeklyPulse({ "2025-01-05": 3 }, new Date("2025-01-05T23:00:00Z")).at(-1)).toBe(3);
    expect(weeklyPulse({ "2025-01-06": 3 }, new Date("2025-01-05T23:00:00Z")).at(-1)).toBe(0);
  });

  it("orders clusters by the reference's orderBy and order", async () => {
    const w = await setup();
    await w.ingest([
      sso("a"),
      sso("b"),
      {
        id: "c",
        subject: "Refund",
        parts: [
          {
            type: "message",
            role: "user",
            body: "Please refund the duplicate charge on our credit card invoice.",
          },
        ],
      },
    ]);
    await w.run();
    const labels = async (query: ClusterQuery) =>
      (
        await w.client.listConversationsIssuesClusters({ organizationId: w.organizationId, ...query })
      ).items.map((item) => item.stats.issues);
    expect(await labels({ orderBy: "issues" })).toEqual([2, 1]);
    expect(await labels({ orderBy: "issues", order: "asc" })).toEqual([1, 2]);
    expect(await labels({ status: "pending" })).toEqual([]);
    // Over HTTP: an orderBy no client type allows.
    expect((await w.api("GET", `${w.base}/conversations-clusters?orderBy=size`)).status).toBe(400);
  });

  it("uses a plugged-in analyzer and its threshold", async () => {
    const analyzer: ConversationAnalyzer = {
      threshold: 0.99,
      analyze: (conversation) =>
        conversation.parts.map((part, index) => ({
          title: `${conversation.id} #${index}`,
          details: part.body,
          impact: "high" as const,
          terms: { [part.body]: 1 },
        })),
    };
    const test = await createTestDocsbase({ conversationAnalyzer: analyzer });
    const lead = test.as(await test.createUser("Lead"));
    const organizationId = (await lead.createOrganization({ body: { title: "Acme" } })).id;
    await lead.ingestConversation({
      organizationId,
      body: {
        id: "x",
        parts: [
          { type: "message", role: "user", body: "one" },
          { type: "message", role: "user", body: "two" },
          { type: "message", role: "user", body: "one" },
        ],
      },
    });
    await test.docsbase.runJobs();
    const issues = await lead.listConversationsIssues({ organizationId });
    expect(issues.items.map((item) => item.issue.title)).toEqual(["x #0", "x #1", "x #2"]);
    const clusters = await lead.listConversationsIssuesClusters({ organizationId, orderBy: "issues" });
    expect(clusters.items.map((item) => [item.stats.issues, item.stats.conversations, item.impact])).toEqual([
      [2, 1, "high"],
      [1, 1, "high"],
    ]);
  });
});
