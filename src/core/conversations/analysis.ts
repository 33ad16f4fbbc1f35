import type { JobHandler } from "../jobs/schedule.js";
import { scheduleJob } from "../jobs/schedule.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { type AnalyzedIssue, DEFAULT_CLUSTER_THRESHOLD } from "./analyzer.js";
import { candidateClusters } from "./cluster-index.js";
import {
  type ClusterChange,
  cut,
  highestImpact,
  MAX_CENTROID_TERMS,
  newCluster,
  normalise,
  similarity,
  updateCluster,
  weightedNorm,
} from "./clustering.js";
import { lexicalAnalyzer } from "./lexical.js";
import { nextMacrotask } from "./pause.js";
import { loadWeights, readTotals, recountTerms } from "./statistics.js";
import {
  type ClusterRecord,
  clustersTable,
  type ConversationRecord,
  conversationsTable,
  type IssueRecord,
  issuesTable,
  type TermTotalsRecord,
  termTotalsTable,
} from "./tables.js";

/**
 * The analysis job (docs/conversations.md, "Analysis"). Every ingestion bumps the conversation's
 * `revision` and queues this job in the same transaction. The job runs the analyzer with no
 * transaction open (a plugged-in analyzer may call the network), then, in one write transaction
 * and only if the conversation was not ingested again meanwhile: updates the organization's
 * per-term document frequencies, places each new issue in the most similar candidate cluster (or a
 * new one), drops the conversation's previous issues, and updates every cluster it touched.
 *
 * Its cost is bounded whatever the organization's history (docs/conversations.md, "Cost"): at most
 * `MAX_ISSUES` issues of `MAX_ISSUE_TERMS` terms each, `MAX_COUNTED_TERMS` counted terms, and the
 * bounds of the inverted index (`cluster-index.ts`) and of clusters (`clustering.ts`). The long
 * steps (the analyzer, cutting vectors) run before the transaction and give the event loop turns;
 * the transaction does bounded work only (IndexedDB commits a transaction left idle).
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
/** Issues kept per conversation: the analyzer's first. */
export const MAX_ISSUES = 20;
/** Terms kept per issue: its largest counts. */
export const MAX_ISSUE_TERMS = 100;
/** Terms a conversation counts in the document frequencies: the largest of its issues' summed. */
export const MAX_COUNTED_TERMS = 200;
/** Clusters made before the inverted index, indexed by each analysis until none is left. */
export const MIGRATION_BATCH = 20;
/** Vector entries worked through between two turns given to the event loop. */
const CHUNK = 20_000;

type Vector = Readonly<Record<string, number>>;

/**
 * The `count` largest entries of a vector of any size (ties alphabetically), giving the event loop
 * a turn every `CHUNK` entries: a plugged-in analyzer may return millions.
 */
async function largestOf(vector: Vector, count: number): Promise<Record<string, number>> {
  const order = (a: readonly [string, number], b: readonly [string, number]) =>
    b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  let kept: (readonly [string, number])[] = [];
  let seen = 0;
  for (const term in vector) {
    kept.push([term, vector[term]!]);
    if (kept.length >= 2 * count) kept = kept.sort(order).slice(0, count);
    if (++seen % CHUNK === 0) await nextMacrotask();
  }
  return Object.fromEntries(kept.sort(order).slice(0, count));
}

/** Indexes the next `MIGRATION_BATCH` clusters made before the inverted index, if any is left. */
async function migrateClusters(
  tx: WriteTransaction,
  totals: TermTotalsRecord,
  update: (cluster: ClusterRecord) => Promise<unknown>,
): Promise<TermTotalsRecord> {
  if (totals.indexed) return totals;
  const batch = await tx.list(clustersTable, {
    index: "byOrganization",
    where: [totals.organization],
    ...(totals.indexedAfter ? { after: totals.indexedAfter } : {}),
    limit: MIGRATION_BATCH,
  });
  for (const cluster of batch) if (cluster.impacts === undefined) await update(cluster);
  const last = batch.at(-1);
  const migrated: TermTotalsRecord =
    batch.length < MIGRATION_BATCH || !last
      ? { organization: totals.organization, documents: totals.documents, indexed: true }
      : { ...totals, indexedAfter: [last.createdAt, last.id] };
  await tx.put(termTotalsTable, migrated);
  return migrated;
}

export const analyzeConversation: JobHandler = async (world, payload) => {
  const key = String(payload["conversation"]);
  const revision = Number(payload["revision"]);
  const conversation = await world.storage.read((tx) => tx.get(conversationsTable, key));
  if (!conversation || conversation.revision !== revision) return;

  const analyzer = world.conversationAnalyzer ?? lexicalAnalyzer;
  const analyzed: readonly AnalyzedIssue[] = await analyzer.analyze({
    id: conversation.id,
    ...(conversation.subject !== undefined ? { subject: conversation.subject } : {}),
    parts: conversation.parts,
    metadata: conversation.metadata,
  });
  const threshold = analyzer.threshold ?? DEFAULT_CLUSTER_THRESHOLD;
  const found: AnalyzedIssue[] = [];
  const summed: Record<string, number> = {};
  for (const issue of analyzed.slice(0, MAX_ISSUES)) {
    const terms = await largestOf(issue.terms, MAX_ISSUE_TERMS);
    found.push({ ...issue, terms });
    for (const [term, value] of Object.entries(terms)) summed[term] = (summed[term] ?? 0) + value;
  }
  const counted = Object.keys(await largestOf(summed, MAX_COUNTED_TERMS)).sort();

  await world.storage.write(async (tx) => {
    const current = await tx.get(conversationsTable, key);
    if (!current || current.revision !== revision) return;
    const now = world.clock().toISOString();
    const { organization } = current;
    let totals = await recountTerms(tx, await readTotals(tx, organization), current.counted, counted);
    const weightsOf = (terms: Iterable<string>) => loadWeights(tx, organization, totals.documents, terms);
    const noChange: ClusterChange = { added: [], removed: [] };
    totals = await migrateClusters(tx, totals, (cluster) =>
      updateCluster(tx, cluster, noChange, weightsOf, now),
    );
    const weights = await weightsOf(Object.keys(summed));

    const previous = await tx.list(issuesTable, { index: "byConversation", where: [key] });
    const touched = new Map<string, ClusterRecord>();
    for (const issue of previous) {
      const cluster = touched.get(issue.cluster) ?? (await tx.get(clustersTable, issue.cluster));
      if (cluster) touched.set(cluster.id, cluster);
    }

    // Clusters made in this run are not indexed yet: they are scored from their first issue.
    const made: { cluster: ClusterRecord; centroid: Vector; norm: number }[] = [];
    const added: IssueRecord[] = [];
    for (const issue of found) {
      const scored = [
        ...(await candidateClusters(tx, organization, issue.terms, weights)).map((cluster) => ({
          cluster,
          centroid: cluster.centroid,
          norm: cluster.norm ?? 0,
        })),
        ...made,
      ];
      let cluster: ClusterRecord | undefined;
      let bestScore = threshold;
      for (const candidate of scored) {
        const score = similarity(issue.terms, candidate.centroid, candidate.norm, weights);
        if (score > bestScore || (score === bestScore && !cluster && score > 0)) {
          cluster = candidate.cluster;
          bestScore = score;
        }
      }
      if (!cluster) {
        cluster = newCluster(world.ids(), organization, issue.impact, now);
        const centroid = cut(normalise(issue.terms), MAX_CENTROID_TERMS);
        made.push({ cluster, centroid, norm: weightedNorm(centroid, weights) });
      }
      if (!touched.has(cluster.id)) touched.set(cluster.id, cluster);
      const record: IssueRecord = {
        id: world.ids(),
        organization,
        conversationKey: key,
        conversation: current.id,
        cluster: cluster.id,
        source: current.source,
        title: issue.title.slice(0, MAX_TITLE) || current.id,
        details: issue.details.slice(0, MAX_DETAILS),
        impact: issue.impact,
        terms: issue.terms,
        createdAt: current.createdAt,
        ingestedAt: current.ingestedAt,
        seq: await nextSequence(tx, `conversation-issues:${organization}`),
      };
      await tx.put(issuesTable, record);
      added.push(record);
    }
    for (const issue of previous) await tx.delete(issuesTable, issue.id);
    for (const cluster of touched.values()) {
      const change = {
        added: added.filter((issue) => issue.cluster === cluster.id),
        removed: previous.filter((issue) => issue.cluster === cluster.id),
      };
      await updateCluster(tx, cluster, change, weightsOf, now);
    }

    const { impact: _impact, terms: _terms, ...rest } = current;
    await tx.put(conversationsTable, {
      ...rest,
      processedAt: now,
      counted,
      ...(found.length ? { impact: highestImpact(found.map((issue) => issue.impact)) } : {}),
    });
  });
};
