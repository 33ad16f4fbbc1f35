import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import type { TermWeights } from "./statistics.js";
import { type ClusterRecord, clustersTable, clusterTermsTable } from "./tables.js";

/**
 * The inverted index term -> clusters (docs/conversations.md, "Cost"): a cluster has one row per
 * term of its cut centroid, weighted by the centroid's value. An issue finds its candidate
 * clusters through its own heaviest terms, so no job reads every cluster of the organization.
 */

/** The issue's terms (heaviest by TF-IDF) whose clusters are looked up. */
export const QUERY_TERMS = 20;
/** Clusters read per looked-up term: those where the term weighs most. */
export const CLUSTERS_PER_TERM = 10;
/** Candidate clusters scored per issue: those sharing the most weight with it. */
export const MAX_CANDIDATES = 30;

const rowKey = (cluster: string, term: string) => `${cluster}/${term}`;

/** Writes the cluster's index rows from its centroid, removing those of terms it lost. */
export async function reindexCluster(tx: WriteTransaction, cluster: ClusterRecord) {
  for (const row of await tx.list(clusterTermsTable, { index: "byCluster", where: [cluster.id] })) {
    if (cluster.centroid[row.term] === undefined) await tx.delete(clusterTermsTable, row.key);
  }
  for (const [term, weight] of Object.entries(cluster.centroid)) {
    await tx.put(clusterTermsTable, {
      key: rowKey(cluster.id, term),
      organization: cluster.organization,
      term,
      cluster: cluster.id,
      weight,
    });
  }
}

export async function unindexCluster(tx: WriteTransaction, cluster: string) {
  for (const row of await tx.list(clusterTermsTable, { index: "byCluster", where: [cluster] })) {
    await tx.delete(clusterTermsTable, row.key);
  }
}

/**
 * The indexed clusters most likely to be similar to an issue, oldest first: at most
 * `MAX_CANDIDATES`, found through its `QUERY_TERMS` heaviest terms.
 */
export async function candidateClusters(
  tx: ReadTransaction,
  organization: string,
  issue: Readonly<Record<string, number>>,
  weights: TermWeights,
): Promise<ClusterRecord[]> {
  const heaviest = Object.entries(issue)
    .map(([term, value]) => [term, value * weights.idf(term)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, QUERY_TERMS);
  const shared = new Map<string, number>();
  for (const [term, weight] of heaviest) {
    const rows = await tx.list(clusterTermsTable, {
      index: "byTerm",
      where: [organization, term],
      reverse: true,
      limit: CLUSTERS_PER_TERM,
    });
    for (const row of rows) shared.set(row.cluster, (shared.get(row.cluster) ?? 0) + weight * row.weight);
  }
  const chosen = [...shared]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, MAX_CANDIDATES);
  const clusters: ClusterRecord[] = [];
  for (const [id] of chosen) {
    const cluster = await tx.get(clustersTable, id);
    if (cluster) clusters.push(cluster);
  }
  return clusters.sort((a, b) =>
    a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : 1,
  );
}
