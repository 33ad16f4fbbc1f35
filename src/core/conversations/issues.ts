import * as z from "zod";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { inConversations } from "./access.js";
import { conversationKey } from "./conversations.js";
import { presentConversation, presentIssue } from "./present.js";
import { issueParams, issueWithConversationSchema, organizationParams } from "./schemas.js";
import { clustersTable, conversationsTable, type IssueRecord, issuesTable } from "./tables.js";

/** Issues found in an organization's conversations, each with its conversation. */

const tag = "conversations";

async function withConversation(tx: ReadTransaction, world: World, issue: IssueRecord) {
  const conversation = await tx.get(conversationsTable, issue.conversationKey);
  // An issue and its conversation are written and removed together.
  if (!conversation) throw new Error(`Issue ${issue.id} has no conversation`);
  return { issue: presentIssue(world, issue), conversation: presentConversation(world, conversation) };
}

export const listConversationsIssues = defineOperation({
  id: "listConversationsIssues",
  method: "get",
  path: "/orgs/{organizationId}/conversations-issues",
  tag,
  summary: "List the issues found in conversations, oldest first; filter by `cluster` and by `conversation`",
  params: organizationParams,
  access: inConversations("view"),
  query: z.object({
    ...pageQuery,
    cluster: z.string().min(1).max(128).optional(),
    conversation: z.string().min(1).max(255).optional(),
  }),
  response: listOf(issueWithConversationSchema),
  async run(scope, { params, query }) {
    const { tx } = scope;
    const organization = params.organizationId;
    const map = (issue: IssueRecord) => withConversation(tx, scope, issue);
    if (query.cluster !== undefined) {
      const cluster = await tx.get(clustersTable, query.cluster);
      if (cluster?.organization !== organization) return { count: 0, items: [] };
    }
    if (query.conversation !== undefined) {
      return paginate(tx, query, {
        table: issuesTable,
        index: "byConversation",
        where: [conversationKey(organization, query.conversation)],
        ...(query.cluster !== undefined
          ? { filter: (issue: IssueRecord) => issue.cluster === query.cluster }
          : {}),
        map,
      });
    }
    if (query.cluster !== undefined) {
      return paginate(tx, query, { table: issuesTable, index: "byCluster", where: [query.cluster], map });
    }
    return paginate(tx, query, { table: issuesTable, index: "byOrganization", where: [organization], map });
  },
});

export const getConversationIssueById = defineOperation({
  id: "getConversationIssueById",
  method: "get",
  path: "/orgs/{organizationId}/conversations-issues/{issueId}",
  tag,
  summary: "Get an issue with its conversation",
  params: issueParams,
  access: inConversations("view"),
  response: issueWithConversationSchema,
  async run(scope, { params }) {
    const issue = await scope.tx.get(issuesTable, params.issueId);
    if (issue?.organization !== params.organizationId) {
      throw notFound(`Conversation issue "${params.issueId}" not found`);
    }
    return withConversation(scope.tx, scope, issue);
  },
});

export const issueOperations = { listConversationsIssues, getConversationIssueById };
