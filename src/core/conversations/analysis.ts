import type { JobHandler } from "../jobs/schedule.js";
import { scheduleJob } from "../jobs/schedule.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { type AnalyzedIssue, DEFAULT_CLUSTER_THRESHOLD } from "./analyzer.js";
import { bestCluster, highestImpact, normalise, refreshCluster } from "./clustering.js";
import { lexicalAnalyzer } from "./lexical.js";
import {
  type ClusterRecord,
  clustersTable,
  type ConversationRecord,
  conversationsTable,
  type IssueRecord,
  issuesTable,
  type TermStatsRecord,
  termStatsTable,
} from "./tables.js";

/**
 * The analysis job (docs/conversations.md, "Analysis"). Every ingestion bumps the conversation's
 * `revision` and queues this job in the same transaction. The job runs the analyzer with no
 * transaction open (a plugged-in analyzer may call the network), then, in one write transaction
 * and only if the conversation was not ingested again meanwhile: updates the organization's
 * document frequencies, places each new issue in the most similar cluster (or a new one), drops
 * the conversation's previous issues, and recomputes every cluster it touched.
 */
export const ANALYZE_CONVERSATION_JOB = "conversations.analyze";

export async function queueAnalysis(tx: WriteTransaction, world: World, conversation: ConversationRecord) {
  await scheduleJob(tx, world, conversation.organization, ANALYZE_CONVERSATION_JOB, world.clock(), {
    conversation: conversation.key,
    revision: conversation.revision,
  });
}

const MAX_TITLE = 200;
const MAX_DETAILS = 10_000;

/** The organization's document frequencies with one conversation's terms replaced. */
function updateStats(
  stats: TermStatsRecord | undefined,
  organization: string,
  before: readonly string[] | undefined,
  after: readonly string[],
): TermStatsRecord {
  const frequencies = { ...stats?.frequencies };
  let documents = stats?.documents ?? 0;
  if (before?.length) {
    documents--;
    for (const term of before) {
      const left = (frequencies[term] ?? 1) - 1;
      if (left > 0) frequencies[term] = left;
      else delete frequencies[term];
    }
  }
  if (after.length) {
    documents++;
    for (const term of after) frequencies[term] = (frequencies[term] ?? 0) + 1;
  }
  return { organization, documents, frequencies };
}

export const analyzeConversation: JobHandler = async (world, payload) => {
  const key = String(payload["conversation"]);
  const revision = Number(payload["revision"]);
  const conversation = await world.storage.read((tx) => tx.get(conversationsTable, key));
  if (!conversation || conversation.revision !== revision) return;

  const analyzer = world.conversationAnalyzer ?? lexicalAnalyzer;
  const found: readonly AnalyzedIssue[] = await analyzer.analyze({
    id: conversation.id,
    ...(conversation.subject !== undefined ? { subject: conversation.subject } : {}),
    parts: conversation.parts,
    metadata: conversation.metadata,
  });
  const threshold = analyzer.threshold ?? DEFAULT_CLUSTER_THRESHOLD;

  await world.storage.write(async (tx) => {
    const current = await tx.get(conversationsTable, key);
    if (!current || current.revision !== revision) return;
    const now = world.clock().toISOString();
    const { organization } = current;
    const terms = [...new Set(found.flatMap((issue) => Object.keys(issue.terms)))].sort();
    const stats = updateStats(await tx.get(termStatsTable, organization), organization, current.terms, terms);
    await tx.put(termStatsTable, stats);

    const previous = await tx.list(issuesTable, { index: "byConversation", where: [key] });
    const clusters = await tx.list(clustersTable, { index: "byOrganization", where: [organization] });
    const touched = new Map<string, ClusterRecord>();
    for (const issue of previous) {
      const cluster = clusters.find((candidate) => candidate.id === issue.cluster);
      if (cluster) touched.set(cluster.id, cluster);
    }

    for (const analyzed of found) {
      let cluster = bestCluster(clusters, analyzed.terms, stats, threshold);
      if (!cluster) {
        cluster = {
          id: world.ids(),
          organization,
          label: "",
          icon: "comments",
          summary: "",
          muted: false,
          impact: analyzed.impact,
          centroid: normalise(analyzed.terms),
          issues: 0,
          conversations: 0,
          sources: {},
          days: {},
          createdAt: now,
          updatedAt: now,
        };
        clusters.push(cluster);
      }
      touched.set(cluster.id, cluster);
      const issue: IssueRecord = {
        id: world.ids(),
        organization,
        conversationKey: key,
        conversation: current.id,
        cluster: cluster.id,
        source: current.source,
        title: analyzed.title.slice(0, MAX_TITLE) || current.id,
        details: analyzed.details.slice(0, MAX_DETAILS),
        impact: analyzed.impact,
        terms: { ...analyzed.terms },
        createdAt: current.createdAt,
        ingestedAt: current.ingestedAt,
        seq: await nextSequence(tx, `conversation-issues:${organization}`),
      };
      await tx.put(issuesTable, issue);
    }
    for (const issue of previous) await tx.delete(issuesTable, issue.id);
    for (const cluster of touched.values()) {
      // A cluster made in this run is not stored yet: `refreshCluster` writes it.
      await refreshCluster(tx, cluster, stats, now);
    }

    const { impact: _impact, ...rest } = current;
    await tx.put(conversationsTable, {
      ...rest,
      processedAt: now,
      terms,
      ...(found.length ? { impact: highestImpact(found.map((issue) => issue.impact)) } : {}),
    });
  });
};
