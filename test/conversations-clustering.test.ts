import { readFileSync } from "node:fs";
import { GitBookAPI } from "@gitbook/api";
import { describe, expect, it } from "vitest";
import { rateImpact } from "../src/core/conversations/lexical.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * The built-in analyzer on test/fixtures/conversations.json: 220 support conversations written for
 * docsbase across ten topics (test/fixtures/generate-conversations.mjs). docs/conversations.md
 * states the purity measured here.
 */

interface FixtureConversation {
  id: string;
  topic: string;
  subject: string;
  metadata: { url: string; attributes: Record<string, string>; createdAt: string };
  parts: { type: "message"; role: "user" | "team-member"; body: string }[];
}

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/conversations.json", import.meta.url), "utf8"),
) as {
  conversations: FixtureConversation[];
};
const conversations = fixture.conversations;
const topicOf = new Map(conversations.map((conversation) => [conversation.id, conversation.topic]));

async function setUp(): Promise<{ test: TestDocsbase; token: string; org: string }> {
  // Analysis jobs queued at one time run in id order. Ids that grow in creation order make that the
  // order of ingestion, so every run clusters alike: with random ids a greedy, online clustering
  // may place a borderline conversation differently on each run (docs/conversations.md).
  let id = 0;
  const test = await createTestDocsbase({
    clock: () => new Date("2024-06-24T12:00:00Z"),
    ids: () => `id${String(++id).padStart(8, "0")}`,
  });
  const { token } = await test.createUser("Support lead", "lead@support.test");
  const org = (await test.as(token).createOrganization({ body: { title: "Support" } })).id;
  return { test, token, org };
}

async function ingestAll(test: TestDocsbase, token: string, org: string) {
  for (let start = 0; start < conversations.length; start += 100) {
    const batch = conversations.slice(start, start + 100).map(({ topic: _topic, ...input }) => input);
    await test.as(token).ingestConversation({ organizationId: org, body: batch });
  }
  await test.docsbase.runJobs();
}

interface IssueItem {
  issue: { id: string; cluster: string; conversation: string; impact: string };
}

/** Purity: the share of issues whose cluster's majority topic is their own topic. */
function purity(items: readonly IssueItem[]) {
  const byCluster = new Map<string, Map<string, number>>();
  for (const { issue } of items) {
    const topics = byCluster.get(issue.cluster) ?? new Map<string, number>();
    const topic = topicOf.get(issue.conversation)!;
    topics.set(topic, (topics.get(topic) ?? 0) + 1);
    byCluster.set(issue.cluster, topics);
  }
  let majority = 0;
  for (const topics of byCluster.values()) majority += Math.max(...topics.values());
  // Completeness: the share of issues in the largest cluster of their topic.
  const largest = new Map<string, number>();
  for (const topics of byCluster.values()) {
    for (const [topic, count] of topics) largest.set(topic, Math.max(largest.get(topic) ?? 0, count));
  }
  const gathered = [...largest.values()].reduce((sum, count) => sum + count, 0);
  return { purity: majority / items.length, completeness: gathered / items.length, clusters: byCluster.size };
}

describe("conversation clustering on the fixture", () => {
  it("has at least 200 conversations across ten topics", () => {
    expect(conversations.length).toBeGreaterThanOrEqual(200);
    expect(new Set(conversations.map((conversation) => conversation.topic)).size).toBe(10);
  });

  it("recovers the topics as clusters", async () => {
    const { test, token, org } = await setUp();
    await ingestAll(test, token, org);
    const issues = await test.as(token).listConversationsIssues({ organizationId: org, limit: 1000 });
    expect(issues.count).toBe(conversations.length);
    const measured = purity(issues.items);
    console.log(
      `clustering: ${measured.clusters} clusters, purity ${measured.purity.toFixed(3)}, ` +
        `completeness ${measured.completeness.toFixed(3)}`,
    );
    expect(measured.purity).toBeGreaterThanOrEqual(0.95);
    expect(measured.completeness).toBeGreaterThanOrEqual(0.9);
    expect(measured.clusters).toBeGreaterThanOrEqual(10);
    expect(measured.clusters).toBeLessThanOrEqual(20);
  });

  it("is idempotent: ingesting everything again changes no cluster's counts", async () => {
    const { test, token, org } = await setUp();
    await ingestAll(test, token, org);
    const client = test.as(token);
    const organizationId = org;
    const summary = async () => {
      const clusters = await client.listConversationsIssuesClusters({
        organizationId,
        limit: 1000,
        orderBy: "issues",
      });
      return clusters.items
        .map((cluster) => JSON.stringify([cluster.stats.issues, cluster.weeklyPulse]))
        .sort();
    };
    const issues = async () => (await client.listConversationsIssues({ organizationId, limit: 0 })).count;
    const before = await summary();
    const issuesBefore = await issues();
    await ingestAll(test, token, org);
    expect(await summary()).toEqual(before);
    expect(await issues()).toBe(issuesBefore);
    expect((await client.listConversations({ organizationId, limit: 0 })).count).toBe(conversations.length);
  });
});

describe("impact ratings", () => {
  const labelled: [string, "low" | "medium" | "high"][] = [
    ["We lost all the pages we wrote yesterday, this is data loss.", "high"],
    ["The editor crashes every time I paste a table.", "high"],
    ["Our whole team is blocked, nobody can log in.", "high"],
    ["There is no workaround and the release is tomorrow.", "high"],
    ["The export fails with an error, but exporting page by page works as a workaround.", "medium"],
    ["Search results are missing our new pages.", "medium"],
    ["The sync is stuck since this morning.", "medium"],
    ["Could you add a dark mode to the editor?", "low"],
    ["Not urgent: the invoice shows our old address.", "low"],
    ["How do I change the logo of our site?", "low"],
    ["It does not crash, the button label is just slightly misaligned.", "low"],
  ];
  it.each(labelled)("%s -> %s", (text, impact) => {
    expect(rateImpact(text)).toBe(impact);
  });
});

/** The worked example of docs/conversations.md, run as written there (the doc's code is this code). */
describe("docs/conversations.md", () => {
  it("runs the worked example", async () => {
    const test = await createTestDocsbase({ baseUrl: "http://docs.test" });
    const lead = await test.createUser("Lead", "lead@example.test");
    const org = (await test.as(lead).createOrganization({ body: { title: "Acme" } })).id;
    const docsbase = test.docsbase;
    // --- example ---
    const api = new GitBookAPI({
      endpoint: test.endpoint,
      authToken: lead.token,
      serviceBinding: { fetch: test.fetch },
    });
    // 1. Ingest conversations from the help desk: one object, or an array. 204 at once.
    await api.orgs.ingestConversation(org, [
      {
        id: "ticket-1042",
        subject: "SSO login fails",
        metadata: { url: "https://help.acme.test/1042", createdAt: "2024-05-02T09:30:00Z" },
        parts: [
          {
            type: "message",
            role: "user",
            body: "Our SAML SSO login fails after the Okta redirect. We are blocked.",
          },
          { type: "message", role: "team-member", body: "Thanks, looking into it." },
        ],
      },
      {
        id: "ticket-1043",
        subject: "Okta sign-in loop",
        parts: [
          {
            type: "message",
            role: "user",
            body: "Since this morning our Okta SSO login loops back to the SAML login page.",
          },
        ],
      },
      {
        id: "ticket-1044",
        subject: "Invoice VAT",
        parts: [
          {
            type: "message",
            role: "user",
            body: "The invoice is missing our VAT number, can you send a corrected invoice?",
          },
        ],
      },
    ]);
    // 2. The analysis runs in the background (the server drains jobs within a second).
    await docsbase.runJobs();
    // 3. Clusters, largest first; then the issues of the largest, each with its conversation.
    const { data: clusters } = await api.orgs.listConversationsIssuesClusters(org, { orderBy: "issues" });
    // clusters.items: [{ label: "Okta sign-in loop", icon: "lock", stats: { issues: 2, ... } },
    //                  { label: "Invoice VAT", icon: "credit-card", stats: { issues: 1, ... } }]
    const { data: issues } = await api.orgs.listConversationsIssues(org, { cluster: clusters.items[0]!.id });
    // issues.items: [{ issue: { title, impact: "high", ... }, conversation: { id: "ticket-1042", ... } }, ...]
    // --- end of the example ---
    // The label is the title of the issue nearest the cluster's centroid: either login ticket here.
    expect(["SSO login fails", "Okta sign-in loop"]).toContain(clusters.items[0]!.label);
    expect(clusters.items.map((cluster) => [cluster.icon, cluster.stats.issues])).toEqual([
      ["lock", 2],
      ["credit-card", 1],
    ]);
    expect(clusters.items[1]!.label).toBe("Invoice VAT");
    expect(issues.items.map((item) => item.conversation.id).sort()).toEqual(["ticket-1042", "ticket-1043"]);
    const impacts = Object.fromEntries(
      issues.items.map((item) => [item.conversation.id, (item.issue as { impact?: string }).impact]),
    );
    expect(impacts).toEqual({ "ticket-1042": "high", "ticket-1043": "low" });
    // The doc shows this very code.
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const code = source.split("// --- example ---\n")[1]!.split("    // --- end of the example ---")[0]!;
    const doc = readFileSync(new URL("../docs/conversations.md", import.meta.url), "utf8");
    const squash = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(squash(doc)).toContain(squash(code));
  });
});
