import * as z from "zod";
import { requireCaller } from "../permissions/membership.js";
import { defineOperation, noContent } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import { inConversations } from "./access.js";
import { queueAnalysis } from "./analysis.js";
import { presentConversation } from "./present.js";
import {
  type Conversation,
  type ConversationInput,
  conversationParams,
  conversationSchema,
  conversationWithPartsSchema,
  ingestBody,
  organizationParams,
} from "./schemas.js";
import { type ConversationRecord, conversationsTable } from "./tables.js";

/**
 * Conversations of an organization (docs/conversations.md): ingested by
 * holders of the `ingestConversations` permission, read by members. Ingestion answers 204 at once
 * and queues one analysis per conversation (`analysis.ts`).
 */

const tag = "conversations";

/** A conversation's storage key: ids are unique per organization only. */
export const conversationKey = (organization: string, id: string) => `${organization}/${id}`;

/**
 * Who ingested: docsbase callers are users, so the reference's `integration:<name>:<id>` form
 * names the pseudo-integration `user` and the user's id.
 */
export const sourceOfUser = (userId: string) => `integration:user:${userId}`;

export const ingestConversation = defineOperation({
  id: "ingestConversation",
  method: "post",
  path: "/orgs/{organizationId}/conversations",
  tag,
  summary:
    "Ingest one conversation or an array of them (204); an id already ingested in the organization is replaced and analysed again",
  params: organizationParams,
  access: inConversations("ingest"),
  body: ingestBody,
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    const { tx } = scope;
    const source = sourceOfUser(requireCaller(scope).userId);
    const now = scope.clock().toISOString();
    // The same id twice in one request: the last one wins, as two requests in a row would.
    const inputs = new Map<string, ConversationInput>();
    for (const input of Array.isArray(body) ? body : [body]) inputs.set(input.id, input);
    for (const input of inputs.values()) {
      const key = conversationKey(params.organizationId, input.id);
      const existing = await tx.get(conversationsTable, key);
      const metadata = {
        ...(input.metadata?.url !== undefined ? { url: input.metadata.url } : {}),
        ...(input.metadata?.attributes ? { attributes: input.metadata.attributes } : {}),
        ...(input.metadata?.createdAt ? { createdAt: new Date(input.metadata.createdAt).toISOString() } : {}),
      };
      const conversation: ConversationRecord = {
        key,
        organization: params.organizationId,
        id: input.id,
        ...(input.subject !== undefined ? { subject: input.subject } : {}),
        metadata,
        parts: input.parts,
        source,
        createdAt: metadata.createdAt ?? existing?.createdAt ?? now,
        ingestedAt: now,
        revision: (existing?.revision ?? 0) + 1,
        ...(existing?.processedAt ? { processedAt: existing.processedAt } : {}),
        ...(existing?.impact ? { impact: existing.impact } : {}),
        ...(existing?.terms ? { terms: existing.terms } : {}),
        ...(existing?.counted ? { counted: existing.counted } : {}),
        seq: existing?.seq ?? (await nextSequence(tx, `conversations:${params.organizationId}`)),
      };
      await tx.put(conversationsTable, conversation);
      await queueAnalysis(tx, scope, conversation);
    }
    return noContent();
  },
});

export const listConversations = defineOperation({
  id: "listConversations",
  method: "get",
  path: "/orgs/{organizationId}/conversations",
  tag,
  summary:
    "List the conversations of an organization in order of first ingestion, optionally of one `source`",
  params: organizationParams,
  access: inConversations("view"),
  query: z.object({ ...pageQuery, source: z.string().min(1).max(512).optional() }),
  response: listOf(conversationSchema),
  async run(scope, { params, query }) {
    return paginate<ConversationRecord, Conversation>(scope.tx, query, {
      table: conversationsTable,
      ...(query.source !== undefined
        ? { index: "bySource", where: [params.organizationId, query.source] }
        : { index: "byOrganization", where: [params.organizationId] }),
      map: (conversation) => presentConversation(scope, conversation),
    });
  },
});

export const getConversationById = defineOperation({
  id: "getConversationById",
  method: "get",
  path: "/orgs/{organizationId}/conversations/{conversationId}",
  tag,
  summary: "Get a conversation with its parts and metadata",
  params: conversationParams,
  access: inConversations("view"),
  response: conversationWithPartsSchema,
  async run(scope, { params }) {
    const conversation = await scope.tx.get(
      conversationsTable,
      conversationKey(params.organizationId, params.conversationId),
    );
    if (!conversation) throw notFound(`Conversation "${params.conversationId}" not found`);
    return {
      conversation: presentConversation(scope, conversation),
      parts: conversation.parts,
      metadata: conversation.metadata,
    };
  },
});

export const conversationOperations = { ingestConversation, listConversations, getConversationById };
