import { isHttpUrl } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { weeklyPulse } from "./clustering.js";
import type { Cluster, Conversation, Issue } from "./schemas.js";
import type { ClusterRecord, ConversationRecord, IssueRecord } from "./tables.js";

/** Responses of the conversations module; URLs under `<baseUrl>/v1/orgs/<organization>/`. */

const base = (world: World, organization: string) => `${world.baseUrl}/v1/orgs/${organization}`;

export function presentConversation(world: World, conversation: ConversationRecord): Conversation {
  const source = conversation.metadata.url;
  return {
    object: "conversation",
    id: conversation.id,
    ...(conversation.subject !== undefined ? { subject: conversation.subject } : {}),
    createdAt: conversation.createdAt,
    ...(conversation.processedAt ? { processedAt: conversation.processedAt } : {}),
    source: conversation.source,
    ...(conversation.impact ? { impact: conversation.impact } : {}),
    urls: {
      location: `${base(world, conversation.organization)}/conversations/${encodeURIComponent(conversation.id)}`,
      // The reference types it as a URI: a metadata URL that is not an http(s) URL is left out.
      ...(source && isHttpUrl(source) ? { source } : {}),
    },
  };
}

/** Plain text as a document of paragraphs, one per block of text between blank lines. */
function textDocument(text: string) {
  return {
    object: "document" as const,
    data: {},
    nodes: text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean)
      .map((paragraph) => ({
        object: "block",
        type: "paragraph",
        nodes: [{ object: "text", leaves: [{ object: "leaf", text: paragraph, marks: [] }] }],
      })),
  };
}

export function presentIssue(world: World, issue: IssueRecord): Issue {
  return {
    object: "conversation-issue",
    id: issue.id,
    title: issue.title,
    summary: issue.details,
    details: textDocument(issue.details),
    impact: issue.impact,
    createdAt: issue.createdAt,
    ingestedAt: issue.ingestedAt,
    conversation: issue.conversation,
    cluster: issue.cluster,
    urls: { location: `${base(world, issue.organization)}/conversations-issues/${issue.id}` },
  };
}

export function presentCluster(world: World, cluster: ClusterRecord): Cluster {
  return {
    object: "issues-cluster",
    id: cluster.id,
    label: cluster.label,
    createdAt: cluster.createdAt,
    updatedAt: cluster.updatedAt,
    icon: cluster.icon,
    summary: cluster.summary,
    muted: cluster.muted,
    impact: cluster.impact,
    weeklyPulse: weeklyPulse(cluster.days, world.clock()),
    sources: { ...cluster.sources },
    stats: {
      issues: cluster.issues,
      conversations: cluster.conversations,
      // docsbase makes no tasks from clusters.
      tasksTotal: 0,
      tasksBacklog: 0,
      tasksStarted: 0,
      tasksCompleted: 0,
      tasksCancelled: 0,
    },
    urls: {
      location: `${base(world, cluster.organization)}/conversations-clusters/${cluster.id}`,
      app: `${world.appUrl}/o/${cluster.organization}/conversations/clusters/${cluster.id}`,
    },
  };
}
