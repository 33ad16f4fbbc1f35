import * as z from "zod";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import type { ReadTransaction } from "../storage/port.js";
import { inConversations } from "./access.js";
import { presentCluster } from "./present.js";
import { clusterParams, clusterSchema, organizationParams } from "./schemas.js";
import { type ClusterRecord, clustersTable } from "./tables.js";

/**
 * Issue clusters of an organization: listed in the reference's order (`orderBy`, `order`), read,
 * and muted by admins (`muted`: left out of change-request creation).
 */

const tag = "conversations";

/** `orderBy` to the index serving it; docsbase makes no tasks, so task counts order by creation. */
const ORDER_INDEXES = {
  updatedAt: "byUpdatedAt",
  issues: "byIssues",
  conversations: "byConversations",
  tasksTotal: "byOrganization",
  tasksBacklog: "byOrganization",
  tasksStarted: "byOrganization",
} as const;

async function findCluster(tx: ReadTransaction, organization: string, id: string) {
  const cluster = await tx.get(clustersTable, id);
  if (cluster?.organization !== organization) throw notFound(`Issues cluster "${id}" not found`);
  return cluster;
}

export const listConversationsIssuesClusters = defineOperation({
  id: "listConversationsIssuesClusters",
  method: "get",
  path: "/orgs/{organizationId}/conversations-clusters",
  tag,
  summary:
    "List issue clusters by `orderBy` (default `updatedAt`) in `order` (default `desc`); `status` matches none, since clusters are analysed as issues arrive",
  params: organizationParams,
  access: inConversations("view"),
  query: z.object({
    ...pageQuery,
    order: z.enum(["asc", "desc"]).default("desc"),
    orderBy: z
      .enum(["updatedAt", "issues", "conversations", "tasksTotal", "tasksBacklog", "tasksStarted"])
      .default("updatedAt"),
    status: z.enum(["pending", "analysing"]).optional(),
  }),
  response: listOf(clusterSchema),
  async run(scope, { params, query }) {
    if (query.status !== undefined) return { count: 0, items: [] };
    return paginate<ClusterRecord, z.infer<typeof clusterSchema>>(scope.tx, query, {
      table: clustersTable,
      index: ORDER_INDEXES[query.orderBy],
      where: [params.organizationId],
      reverse: query.order === "desc",
      map: (cluster) => presentCluster(scope, cluster),
    });
  },
});

export const getConversationsIssuesCluster = defineOperation({
  id: "getConversationsIssuesCluster",
  method: "get",
  path: "/orgs/{organizationId}/conversations-clusters/{clusterId}",
  tag,
  summary: "Get an issue cluster",
  params: clusterParams,
  access: inConversations("view"),
  response: clusterSchema,
  async run(scope, { params }) {
    return presentCluster(scope, await findCluster(scope.tx, params.organizationId, params.clusterId));
  },
});

export const updateConversationsIssuesCluster = defineOperation({
  id: "updateConversationsIssuesCluster",
  method: "patch",
  path: "/orgs/{organizationId}/conversations-clusters/{clusterId}",
  tag,
  summary: "Mute or unmute an issue cluster (docsbase's own)",
  params: clusterParams,
  access: inConversations("manage"),
  body: z.object({ muted: z.boolean() }),
  response: clusterSchema,
  async run(scope, { params, body }) {
    const cluster = await findCluster(scope.tx, params.organizationId, params.clusterId);
    const updated: ClusterRecord = { ...cluster, muted: body.muted, updatedAt: scope.clock().toISOString() };
    await scope.tx.put(clustersTable, updated);
    return presentCluster(scope, updated);
  },
});

export const clusterOperations = {
  listConversationsIssuesClusters,
  getConversationsIssuesCluster,
  updateConversationsIssuesCluster,
};
