import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { mulberry32 } from "../../testing/faults.js";
import { countingStorage } from "../../../test/support/counting-storage.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { lexicalAnalyzer } from "./lexical.js";
import {
  clustersTable,
  clusterTermsTable,
  conversationsTable,
  termStatsTable,
  termTotalsTable,
} from "./tables.js";

/**
 * Issue 28, item 2: the cost of one more analysis does not grow with the organization's history.
 * Measured without timing, as the JSON characters of the records the job reads and writes (a
 * counting storage over the memory storage), once with 10 conversations analysed before and once
 * with 300.
 */

/** Conversations of random made-up words: each shares almost no term with another. */
function randomConversation(random: () => number, id: string) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const word = () => Array.from({ length: 7 }, () => letters[Math.floor(random() * 26)]).join("");
  const body = Array.from({ length: 60 }, word).join(" ");
  return { id, parts: [{ type: "message" as const, role: "user" as const, body }] };
}

async function costOfOneMore(history: number) {
  const counting = countingStorage(memoryStorage());
  const storage = counting.storage;
  const test = await createTestDocsbase({ storage });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const { id: organizationId } = await client.createOrganization({ body: { title: "Acme" } });
  const random = mulberry32(28);
  for (let start = 0; start < history; start += 100) {
    const body = Array.from({ length: Math.min(100, history - start) }, (_, i) =>
      randomConversation(random, `c-${start + i}`),
    );
    await client.ingestConversation({ organizationId, body });
    await test.docsbase.runJobs();
  }
  await client.ingestConversation({ organizationId, body: randomConversation(random, "last") });
  counting.clear();
  await test.docsbase.runJobs();
  const bytes = counting.readChars() + counting.writtenChars();
  const { items } = await client.listConversationsIssuesClusters({ organizationId, limit: 1000 });
  return { bytes, clusters: items.length };
}

describe("conversation analysis cost", () => {
  it("reads and writes about as much for one more conversation at 300 conversations as at 10", async () => {
    const small = await costOfOneMore(10);
    const large = await costOfOneMore(300);
    // Random words: every conversation starts a cluster of its own, the worst case for a scan.
    expect(small.clusters).toBe(11);
    expect(large.clusters).toBe(301);
    expect(large.bytes).toBeLessThan(small.bytes * 2);
  });
});

describe("conversation analysis of data stored before per-term statistics", () => {
  it("ignores the old statistics record and indexes the old clusters as analyses come", async () => {
    const w = await createWorkspace();
    const organizationId = w.org;
    const sso = (id: string, body: string) => ({
      id,
      subject: "SSO login fails",
      parts: [{ type: "message" as const, role: "user" as const, body }],
    });
    await w.client.ingestConversation({
      organizationId,
      body: sso("old", "Our SAML single sign-on login fails with an invalid assertion error."),
    });
    await w.test.docsbase.runJobs();
    // Rewind to the old shape: one statistics record, clusters with neither norm nor index rows.
    await w.storage.write(async (tx) => {
      for (const cluster of await tx.list(clustersTable, {
        index: "byOrganization",
        where: [organizationId],
      })) {
        const { norm: _norm, impacts: _impacts, ...old } = cluster;
        await tx.put(clustersTable, old);
        for (const row of await tx.list(clusterTermsTable, { index: "byCluster", where: [cluster.id] })) {
          await tx.delete(clusterTermsTable, row.key);
        }
      }
      const conversation = (await tx.get(conversationsTable, `${organizationId}/old`))!;
      const { counted, ...old } = conversation;
      await tx.put(conversationsTable, { ...old, terms: counted! });
      await tx.delete(termTotalsTable, organizationId);
      await tx.put(termStatsTable, {
        organization: organizationId,
        documents: 1,
        frequencies: Object.fromEntries(counted!.map((term) => [term, 1])),
      });
    });
    await w.client.ingestConversation({
      organizationId,
      body: sso("new", "SAML single sign-on login fails again with an invalid assertion."),
    });
    await w.test.docsbase.runJobs();
    const clusters = await w.client.listConversationsIssuesClusters({ organizationId });
    expect(clusters.items.map((cluster) => cluster.stats)).toMatchObject([{ issues: 2, conversations: 2 }]);
    // The old conversation analysed again replaces its issue: the counts stay right.
    await w.client.ingestConversation({
      organizationId,
      body: sso("old", "Our SAML single sign-on login fails with an invalid assertion error."),
    });
    await w.test.docsbase.runJobs();
    const again = await w.client.listConversationsIssuesClusters({ organizationId });
    expect(again.items.map((cluster) => cluster.stats)).toMatchObject([{ issues: 2, conversations: 2 }]);
    expect(await w.stored(termStatsTable, organizationId)).toBeDefined();
  });
});

describe("the built-in analyzer on a large conversation", () => {
  it("gives the event loop turns while it reads the messages", async () => {
    const body = "sync fails on every branch of the repository ".repeat(2_500);
    const parts = Array.from({ length: 4 }, () => ({ type: "message", role: "user", body }));
    let turns = 0;
    const count = () => {
      turns++;
      if (turns < 100) setTimeout(count, 0);
    };
    setTimeout(count, 0);
    const [issue] = await lexicalAnalyzer.analyze({ id: "big", parts, metadata: {} });
    expect(issue?.terms["sync"]).toBe(10_000);
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
