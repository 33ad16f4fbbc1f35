import type { WriteTransaction } from "../storage/port.js";
import type { ConversationImpact } from "./analyzer.js";
import { reindexCluster, unindexCluster } from "./cluster-index.js";
import type { TermWeights } from "./statistics.js";
import { type ClusterRecord, clustersTable, type IssueRecord, issuesTable } from "./tables.js";

/**
 * Grouping issues into clusters (docs/conversations.md, "Clustering"): an issue is a sparse term
 * vector, weighted by inverse document frequency over the organization's analysed conversations
 * (TF-IDF); a cluster's centroid is the sum of its issues' normalised vectors, cut to its
 * `MAX_CENTROID_TERMS` largest. A new issue joins the cluster whose centroid is most similar
 * (cosine) when the similarity reaches the threshold, else it starts a cluster of its own.
 * Clustering is online and greedy: the result depends on the order in which conversations are
 * analysed, and clusters are never split or merged later.
 *
 * A cluster is updated by the difference an analysis makes (the issues it adds and removes), so
 * the cost does not grow with the cluster: only its label reads issues, the latest
 * `LABEL_SAMPLE`.
 */

type Vector = Readonly<Record<string, number>>;

/** Terms a centroid keeps: its largest values. */
export const MAX_CENTROID_TERMS = 100;
/** Issues the label is chosen from: the cluster's latest. */
export const LABEL_SAMPLE = 50;
/** Daily counts kept for the weekly pulse: older days go (the pulse shows 13 weeks). */
const DAYS_KEPT = 7 * 14;

/** The vector scaled to length 1 (an empty vector stays empty). */
export function normalise(vector: Vector): Record<string, number> {
  const length = Math.sqrt(Object.values(vector).reduce((sum, value) => sum + value * value, 0));
  const result: Record<string, number> = {};
  if (!length) return result;
  for (const [term, value] of Object.entries(vector)) result[term] = value / length;
  return result;
}

/** The `count` largest entries of a vector (ties alphabetically, for determinism). */
export function largest(vector: Vector, count: number, weight: (term: string) => number = () => 1) {
  return Object.entries(vector)
    .map(([term, value]) => [term, value * weight(term)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, count);
}

/** The vector cut to its `count` largest entries. */
export function cut(vector: Vector, count: number): Record<string, number> {
  if (Object.keys(vector).length <= count) return { ...vector };
  return Object.fromEntries(largest(vector, count).map(([term]) => [term, vector[term]!]));
}

/** The length of a vector weighted by inverse document frequency. */
export function weightedNorm(vector: Vector, weights: TermWeights): number {
  let sum = 0;
  for (const [term, value] of Object.entries(vector)) sum += (value * weights.idf(term)) ** 2;
  return Math.sqrt(sum);
}

/**
 * Cosine similarity of an issue and a centroid, both weighted by inverse document frequency. The
 * centroid's weighted length is `norm` (stored with the cluster), so only the issue's terms are
 * read.
 */
export function similarity(issue: Vector, centroid: Vector, norm: number, weights: TermWeights): number {
  let dot = 0;
  let normIssue = 0;
  for (const [term, value] of Object.entries(issue)) {
    const w = value * weights.idf(term);
    normIssue += w * w;
    const other = centroid[term];
    if (other !== undefined) dot += w * other * weights.idf(term);
  }
  return normIssue && norm ? dot / Math.sqrt(normIssue) / norm : 0;
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

/** Adds `sign` (1 or -1) to a count, dropping counts that reach 0. */
function bump(counts: Record<string, number>, key: string, sign: number) {
  const value = (counts[key] ?? 0) + sign;
  if (value > 1e-9) counts[key] = value;
  else delete counts[key];
}

/** A new cluster, stored by the `updateCluster` that gives it its first issue. */
export function newCluster(
  id: string,
  organization: string,
  impact: ConversationImpact,
  now: string,
): ClusterRecord {
  return {
    id,
    organization,
    label: "",
    icon: "comments",
    summary: "",
    muted: false,
    impact,
    centroid: {},
    norm: 0,
    impacts: {},
    issues: 0,
    conversations: 0,
    sources: {},
    days: {},
    createdAt: now,
    updatedAt: now,
  };
}

/** What one analysis changes in a cluster: the issues of one conversation it adds and removes. */
export interface ClusterChange {
  readonly added: readonly IssueRecord[];
  readonly removed: readonly IssueRecord[];
}

/**
 * Applies one analysis to a cluster and stores it with its index rows (label, icon, summary,
 * counts, sources, impact, daily counts, centroid), after the change's issues were written.
 * A cluster made before the inverted index (no `impacts`) is rebuilt from all its issues once.
 * Returns undefined, and deletes the cluster, when no issue is left.
 */
export async function updateCluster(
  tx: WriteTransaction,
  cluster: ClusterRecord,
  change: ClusterChange,
  weights: (terms: Iterable<string>) => Promise<TermWeights>,
  now: string,
): Promise<ClusterRecord | undefined> {
  const rebuild = cluster.impacts === undefined;
  const state = rebuild
    ? { centroid: {}, impacts: {}, sources: {}, days: {}, issues: 0, conversations: 0 }
    : {
        centroid: { ...cluster.centroid },
        impacts: { ...cluster.impacts },
        sources: { ...cluster.sources },
        days: { ...cluster.days },
        issues: cluster.issues,
        conversations: cluster.conversations,
      };
  const apply = (issues: readonly IssueRecord[], sign: number) => {
    for (const issue of issues) {
      for (const [term, value] of Object.entries(normalise(issue.terms)))
        bump(state.centroid, term, sign * value);
      bump(state.impacts, issue.impact, sign);
      bump(state.sources, issue.source, sign);
      bump(state.days, issue.createdAt.slice(0, 10), sign);
      state.issues += sign;
    }
  };
  if (rebuild) {
    const issues = await tx.list(issuesTable, { index: "byCluster", where: [cluster.id] });
    apply(issues, 1);
    state.conversations = new Set(issues.map((issue) => issue.conversationKey)).size;
  } else {
    apply(change.removed, -1);
    apply(change.added, 1);
    state.conversations += (change.added.length ? 1 : 0) - (change.removed.length ? 1 : 0);
  }
  if (state.issues <= 0) {
    await tx.delete(clustersTable, cluster.id);
    await unindexCluster(tx, cluster.id);
    return undefined;
  }
  const oldest = new Date(Date.parse(now) - DAYS_KEPT * DAY).toISOString().slice(0, 10);
  for (const day of Object.keys(state.days)) if (day < oldest) delete state.days[day];
  const centroid = cut(state.centroid, MAX_CENTROID_TERMS);
  const termWeights = await weights(Object.keys(centroid));
  const top = largest(centroid, 6, termWeights.idf).map(([term]) => term);
  const norm = weightedNorm(centroid, termWeights);
  const latest = await tx.list(issuesTable, {
    index: "byCluster",
    where: [cluster.id],
    reverse: true,
    limit: LABEL_SAMPLE,
  });
  const representative = medoid(latest.reverse(), centroid, norm, termWeights);
  const { issues, conversations } = state;
  const updated: ClusterRecord = {
    ...cluster,
    label: representative.title.slice(0, 200),
    icon: ICONS.find(([, words]) => top.slice(0, 4).some((term) => words.includes(term)))?.[0] ?? "comments",
    summary:
      `${issues} issue${issues === 1 ? "" : "s"} from ${conversations} ` +
      `conversation${conversations === 1 ? "" : "s"}. Frequent terms: ${top.join(", ")}.`,
    impact: highestImpact(Object.keys(state.impacts) as ConversationImpact[]),
    centroid,
    norm,
    impacts: state.impacts,
    issues,
    conversations,
    sources: state.sources,
    days: state.days,
    updatedAt: now,
  };
  await tx.put(clustersTable, updated);
  await reindexCluster(tx, updated);
  return updated;
}

/** The issue closest to the centroid: its title labels the cluster. */
function medoid(issues: readonly IssueRecord[], centroid: Vector, norm: number, weights: TermWeights) {
  let best = issues[0]!;
  let bestScore = -1;
  for (const issue of issues) {
    const score = similarity(issue.terms, centroid, norm, weights);
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
