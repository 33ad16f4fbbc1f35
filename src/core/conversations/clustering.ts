import type { WriteTransaction } from "../storage/port.js";
import type { ConversationImpact } from "./analyzer.js";
import {
  type ClusterRecord,
  clustersTable,
  type IssueRecord,
  issuesTable,
  type TermStatsRecord,
} from "./tables.js";

/**
 * Grouping issues into clusters (docs/conversations.md, "Clustering"): an issue is a sparse term
 * vector, weighted by inverse document frequency over the organization's analysed conversations
 * (TF-IDF); a cluster's centroid is the sum of its issues' normalised vectors. A new issue joins
 * the cluster whose centroid is most similar (cosine) when the similarity reaches the threshold,
 * else it starts a cluster of its own. Clustering is online and greedy: the result depends on
 * the order in which conversations are analysed, and clusters are never split or merged later.
 */

type Vector = Readonly<Record<string, number>>;

/** Smoothed inverse document frequency, never below 1. */
export function idf(stats: TermStatsRecord | undefined, term: string): number {
  const documents = stats?.documents ?? 0;
  const frequency = stats?.frequencies[term] ?? 0;
  return Math.log((1 + documents) / (1 + frequency)) + 1;
}

/** The vector scaled to length 1 (an empty vector stays empty). */
export function normalise(vector: Vector): Record<string, number> {
  const length = Math.sqrt(Object.values(vector).reduce((sum, value) => sum + value * value, 0));
  const result: Record<string, number> = {};
  if (!length) return result;
  for (const [term, value] of Object.entries(vector)) result[term] = value / length;
  return result;
}

/** Cosine similarity of two vectors after weighting each term by `weight`. */
export function similarity(a: Vector, b: Vector, weight: (term: string) => number): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, value] of Object.entries(a)) {
    const w = value * weight(term);
    normA += w * w;
    const other = b[term];
    if (other !== undefined) dot += w * other * weight(term);
  }
  for (const [term, value] of Object.entries(b)) normB += (value * weight(term)) ** 2;
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}

/** The most similar cluster at or above the threshold, or undefined. Ties go to the oldest. */
export function bestCluster(
  clusters: readonly ClusterRecord[],
  terms: Vector,
  stats: TermStatsRecord | undefined,
  threshold: number,
): ClusterRecord | undefined {
  let best: ClusterRecord | undefined;
  let bestScore = threshold;
  for (const cluster of clusters) {
    const score = similarity(terms, cluster.centroid, (term) => idf(stats, term));
    if (score > bestScore || (score === bestScore && !best && score > 0)) {
      best = cluster;
      bestScore = score;
    }
  }
  return best;
}

const IMPACT_ORDER: readonly ConversationImpact[] = ["low", "medium", "high"];

/** The highest of some impacts (`low` for none). */
export function highestImpact(impacts: Iterable<ConversationImpact>): ConversationImpact {
  let highest = 0;
  for (const impact of impacts) highest = Math.max(highest, IMPACT_ORDER.indexOf(impact));
  return IMPACT_ORDER[highest]!;
}

/** Icons by the words that call for them; the first whose word is among a cluster's top terms. */
const ICONS: readonly [string, readonly string[]][] = [
  ["lock", ["sso", "saml", "login", "log", "sign", "password", "okta", "idp"]],
  ["credit-card", ["invoice", "billing", "bill", "refund", "charg", "payment", "subscription", "vat"]],
  ["code-branch", ["git", "github", "gitlab", "sync", "repository", "commit", "branch"]],
  ["globe", ["domain", "dns", "cname", "ssl", "certificate", "https"]],
  ["magnifying-glass", ["search", "index", "result"]],
  ["file-pdf", ["pdf", "export"]],
  ["pen", ["editor", "edit", "content", "lost", "crash"]],
  ["key", ["api", "token", "401", "429", "rate"]],
  ["user-plus", ["invite", "invitation", "member", "access", "role"]],
  ["brackets-curly", ["openapi", "swagger", "spec", "reference", "yaml"]],
];

/** Top terms of a centroid, by TF-IDF weight, then alphabetically for determinism. */
export function topTerms(centroid: Vector, stats: TermStatsRecord | undefined, count: number): string[] {
  return Object.entries(centroid)
    .map(([term, value]) => [term, value * idf(stats, term)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([term]) => term);
}

/**
 * Recomputes what a cluster shows from its issues (label, icon, summary, counts, sources, impact,
 * daily counts, centroid). Returns undefined, and deletes the cluster, when no issue is left.
 */
export async function refreshCluster(
  tx: WriteTransaction,
  cluster: ClusterRecord,
  stats: TermStatsRecord | undefined,
  now: string,
): Promise<ClusterRecord | undefined> {
  const issues = await tx.list(issuesTable, { index: "byCluster", where: [cluster.id] });
  if (!issues.length) {
    await tx.delete(clustersTable, cluster.id);
    return undefined;
  }
  const centroid: Record<string, number> = {};
  const sources: Record<string, number> = {};
  const days: Record<string, number> = {};
  for (const issue of issues) {
    for (const [term, value] of Object.entries(normalise(issue.terms))) {
      centroid[term] = (centroid[term] ?? 0) + value;
    }
    sources[issue.source] = (sources[issue.source] ?? 0) + 1;
    const day = issue.createdAt.slice(0, 10);
    days[day] = (days[day] ?? 0) + 1;
  }
  const top = topTerms(centroid, stats, 6);
  const representative = medoid(issues, centroid, stats);
  const conversations = new Set(issues.map((issue) => issue.conversationKey)).size;
  const updated: ClusterRecord = {
    ...cluster,
    label: representative.title.slice(0, 200),
    icon: ICONS.find(([, words]) => top.slice(0, 4).some((term) => words.includes(term)))?.[0] ?? "comments",
    summary:
      `${issues.length} issue${issues.length === 1 ? "" : "s"} from ${conversations} ` +
      `conversation${conversations === 1 ? "" : "s"}. Frequent terms: ${top.join(", ")}.`,
    impact: highestImpact(issues.map((issue) => issue.impact)),
    centroid,
    issues: issues.length,
    conversations,
    sources,
    days,
    updatedAt: now,
  };
  await tx.put(clustersTable, updated);
  return updated;
}

/** The issue closest to the centroid: its title labels the cluster. */
function medoid(issues: readonly IssueRecord[], centroid: Vector, stats: TermStatsRecord | undefined) {
  let best = issues[0]!;
  let bestScore = -1;
  for (const issue of issues) {
    const score = similarity(issue.terms, centroid, (term) => idf(stats, term));
    if (score > bestScore) {
      best = issue;
      bestScore = score;
    }
  }
  return best;
}

const DAY = 86_400_000;
export const PULSE_WEEKS = 13;

/**
 * The reference's `weeklyPulse`: issues per week over the 13 weeks ending with the current one,
 * oldest first. Weeks are ISO weeks in UTC (Monday 00:00 to Sunday 24:00); the last entry is the
 * week containing `now`, so far. Issues dated after `now` are not counted.
 */
export function weeklyPulse(days: Readonly<Record<string, number>>, now: Date): number[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
  const start = monday - (PULSE_WEEKS - 1) * 7 * DAY;
  const pulse = new Array<number>(PULSE_WEEKS).fill(0);
  for (const [day, count] of Object.entries(days)) {
    const time = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(time) || time < start || time > today) continue;
    pulse[Math.floor((time - start) / (7 * DAY))]! += count;
  }
  return pulse;
}
