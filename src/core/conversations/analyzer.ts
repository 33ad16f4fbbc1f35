/**
 * The analyzer port (docs/conversations.md, "Analyzers"): what turns one ingested conversation into
 * issues. The built-in one is `lexicalAnalyzer` (`lexical.ts`); a host passes another with
 * `createDocsbase({ conversationAnalyzer })`. It runs in the analysis job, outside any storage
 * transaction, so it may call a model over the network. This file imports nothing, so that the
 * world (`shared/world.ts`) can name the type without an import cycle.
 */

/** The API's impact scale: low (minor friction), medium (workarounds exist), high (blocking). */
export type ConversationImpact = "low" | "medium" | "high";

/** A conversation as the analyzer receives it: what was ingested. */
export interface ConversationToAnalyze {
  readonly id: string;
  readonly subject?: string;
  readonly parts: readonly { readonly type: string; readonly role: string; readonly body: string }[];
  readonly metadata: {
    readonly url?: string;
    readonly attributes?: Readonly<Record<string, string>>;
    readonly createdAt?: string;
  };
}

/** One issue found in a conversation. */
export interface AnalyzedIssue {
  /** A short title (at most 200 characters are kept). */
  readonly title: string;
  /** What the issue is about, as plain text: kept as the issue's `summary` and `details`. */
  readonly details: string;
  readonly impact: ConversationImpact;
  /**
   * The issue as a sparse vector of term counts, which clustering weighs by inverse document
   * frequency over the organization's analysed conversations and compares by cosine similarity.
   * An analyzer with embeddings may pass them as `{ "0": x0, "1": x1, ... }`.
   */
  readonly terms: Readonly<Record<string, number>>;
}

/**
 * Finds the issues of a conversation. `analyze` must be deterministic for clustering to be
 * reproducible, and may return no issue (a thank-you note, an empty conversation).
 *
 * @example
 * ```ts
 * const analyzer: ConversationAnalyzer = {
 *   threshold: 0.3,
 *   async analyze(conversation) {
 *     const text = conversation.parts.map((part) => part.body).join("\n");
 *     return [{ title: conversation.subject ?? "Conversation", details: text, impact: "low", terms: { [text]: 1 } }];
 *   },
 * };
 * createDocsbase({ storage, conversationAnalyzer: analyzer });
 * ```
 */
export interface ConversationAnalyzer {
  analyze(conversation: ConversationToAnalyze): Promise<readonly AnalyzedIssue[]> | readonly AnalyzedIssue[];
  /**
   * The cosine similarity (0 to 1) from which a new issue joins the most similar cluster rather
   * than starting one. Default `DEFAULT_CLUSTER_THRESHOLD`.
   */
  readonly threshold?: number;
}

/** Similarity from which an issue joins an existing cluster, when the analyzer names none. */
export const DEFAULT_CLUSTER_THRESHOLD = 0.25;
