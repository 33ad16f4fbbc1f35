import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The API's impact enumeration of conversations, issues and clusters. */
export const conversationImpact = z.enum(["low", "medium", "high"]);

/** The reference's `ConversationPartMessage`, the one kind of conversation part. */
export const conversationPart = z.object({
  type: z.literal("message"),
  role: z.enum(["user", "assistant", "team-member"]),
  body: z.string(),
});
export type ConversationPart = z.infer<typeof conversationPart>;

/** The reference's `ConversationMetadata`. */
export const conversationMetadata = z.object({
  url: z.string().optional(),
  attributes: z.record(z.string(), z.string()).optional(),
  createdAt: z.string().optional(),
});
export type ConversationMetadata = z.infer<typeof conversationMetadata>;

/** Sparse term vectors (`AnalyzedIssue.terms`, cluster centroids). */
const termVector = z.record(z.string(), z.number());

export const conversationRecord = z.object({
  /** `<organization>/<id>`: ids are the ingester's own, unique per organization only. */
  key: z.string(),
  organization: z.string(),
  id: z.string(),
  subject: z.string().optional(),
  metadata: conversationMetadata,
  parts: z.array(conversationPart),
  /** Who ingested it last, in the reference's `ConversationSource` format. */
  source: z.string(),
  /** `metadata.createdAt` when given, else the first ingestion. */
  createdAt: z.string(),
  ingestedAt: z.string(),
  /** Bumped by every ingestion: an analysis of an older one drops its result. */
  revision: z.number(),
  processedAt: z.string().optional(),
  /** The highest impact of its issues; absent before analysis or when it has none. */
  impact: conversationImpact.optional(),
  /**
   * The distinct terms it counted in the organization's per-term statistics (`termCountsTable`),
   * at most `MAX_COUNTED_TERMS`. Records analysed before those statistics existed carry `terms`
   * instead, which nothing reads: their terms were counted in the old per-organization record.
   */
  counted: z.array(z.string()).optional(),
  terms: z.array(z.string()).optional(),
  /** Order of first ingestion in the organization: lists keep it across re-ingestion. */
  seq: z.number(),
});
export type ConversationRecord = z.infer<typeof conversationRecord>;

export const conversationsTable = defineTable({
  name: "conversations",
  key: "key",
  indexes: {
    byOrganization: ["organization", "seq"],
    bySource: ["organization", "source", "seq"],
  },
  record: conversationRecord,
});

export const issueRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** The conversation's record key and its own id. */
  conversationKey: z.string(),
  conversation: z.string(),
  cluster: z.string(),
  source: z.string(),
  title: z.string(),
  details: z.string(),
  impact: conversationImpact,
  terms: termVector,
  /** When the conversation happened (its `createdAt`); the weekly pulse counts by it. */
  createdAt: z.string(),
  ingestedAt: z.string(),
  seq: z.number(),
});
export type IssueRecord = z.infer<typeof issueRecord>;

export const issuesTable = defineTable({
  name: "conversation_issues",
  key: "id",
  indexes: {
    byOrganization: ["organization", "seq"],
    byCluster: ["cluster", "seq"],
    byConversation: ["conversationKey", "seq"],
  },
  record: issueRecord,
});

export const clusterRecord = z.object({
  id: z.string(),
  organization: z.string(),
  label: z.string(),
  icon: z.string(),
  summary: z.string(),
  muted: z.boolean(),
  impact: conversationImpact,
  /** Sum of its issues' length-normalised term vectors, cut to its `MAX_CENTROID_TERMS` largest. */
  centroid: termVector,
  /**
   * The centroid's length once weighted by inverse document frequency, as of its last update:
   * scoring a candidate then reads only the issue's terms. Absent on clusters made before the
   * inverted index (`clusterTermsTable`), which the analysis indexes and completes lazily.
   */
  norm: z.number().optional(),
  /** Issues per impact, so that removing one needs no rescan. Absent as `norm` is. */
  impacts: z.record(z.string(), z.number()).optional(),
  issues: z.number(),
  conversations: z.number(),
  sources: z.record(z.string(), z.number()),
  /** Issues per day of their `createdAt` (`YYYY-MM-DD`), for the weekly pulse. */
  days: z.record(z.string(), z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClusterRecord = z.infer<typeof clusterRecord>;

export const clustersTable = defineTable({
  name: "conversation_clusters",
  key: "id",
  indexes: {
    byOrganization: ["organization", "createdAt"],
    byUpdatedAt: ["organization", "updatedAt"],
    byIssues: ["organization", "issues"],
    byConversations: ["organization", "conversations"],
  },
  record: clusterRecord,
});

/**
 * The old shape of the term statistics: one record per organization with every document
 * frequency, which every analysis read and rewrote whole. Still declared so that a database
 * holding such records opens as before; nothing reads or writes it any more.
 */
export const termStatsRecord = z.object({
  organization: z.string(),
  documents: z.number(),
  frequencies: z.record(z.string(), z.number()),
});

export const termStatsTable = defineTable({
  name: "conversation_term_stats",
  key: "organization",
  indexes: {},
  record: termStatsRecord,
});

/** Per organization: how many analysed conversations counted terms, and the index's migration. */
export const termTotalsRecord = z.object({
  organization: z.string(),
  documents: z.number(),
  /**
   * Whether every cluster of the organization is in the inverted index; until then `indexedAfter`
   * is the `byOrganization` position (`createdAt`, `id`) of the last older cluster indexed.
   */
  indexed: z.boolean(),
  indexedAfter: z.array(z.string()).optional(),
});
export type TermTotalsRecord = z.infer<typeof termTotalsRecord>;

export const termTotalsTable = defineTable({
  name: "conversation_term_totals",
  key: "organization",
  indexes: {},
  record: termTotalsRecord,
});

/** Per organization and term: how many analysed conversations counted it (its document frequency). */
export const termCountRecord = z.object({
  /** `<organization>/<term>`. */
  key: z.string(),
  organization: z.string(),
  term: z.string(),
  documents: z.number(),
});
export type TermCountRecord = z.infer<typeof termCountRecord>;

export const termCountsTable = defineTable({
  name: "conversation_terms",
  key: "key",
  indexes: {},
  record: termCountRecord,
});

/** The inverted index: one row per cluster and term of its (cut) centroid, with the term's weight. */
export const clusterTermRecord = z.object({
  /** `<cluster>/<term>`. */
  key: z.string(),
  organization: z.string(),
  term: z.string(),
  cluster: z.string(),
  weight: z.number(),
});
export type ClusterTermRecord = z.infer<typeof clusterTermRecord>;

export const clusterTermsTable = defineTable({
  name: "conversation_cluster_terms",
  key: "key",
  indexes: { byTerm: ["organization", "term", "weight"], byCluster: ["cluster"] },
  record: clusterTermRecord,
});
