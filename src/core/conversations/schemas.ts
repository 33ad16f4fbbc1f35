import * as z from "zod";
import { pathParam, timestamp, url, wellFormed } from "../shared/schema.js";
import { conversationImpact, conversationMetadata, conversationPart } from "./tables.js";

/** The reference's `ConversationInput` limits. */
export const MAX_CONVERSATION_ID_LENGTH = 255;
export const MAX_SUBJECT_LENGTH = 512;
/** Ours (docs/conversations.md, "Limits"): conversations per request, parts per conversation. */
export const MAX_CONVERSATIONS_PER_REQUEST = 100;
export const MAX_PARTS = 500;
export const MAX_PART_BODY_LENGTH = 100_000;
export const MAX_METADATA_URL_LENGTH = 2048;
export const MAX_ATTRIBUTES = 50;

/** The reference's `ConversationInput`. `metadata.createdAt` must be an ISO 8601 date-time. */
export const conversationInput = z.object({
  id: z.string().min(1).max(MAX_CONVERSATION_ID_LENGTH).check(wellFormed()),
  subject: z.string().max(MAX_SUBJECT_LENGTH).check(wellFormed()).optional(),
  metadata: conversationMetadata
    .extend({
      url: z.string().max(MAX_METADATA_URL_LENGTH).optional(),
      attributes: z
        .record(z.string().max(255), z.string().max(2048))
        .refine((attributes) => Object.keys(attributes).length <= MAX_ATTRIBUTES, {
          error: `Too big: expected at most ${MAX_ATTRIBUTES} attributes`,
        })
        .optional(),
      createdAt: z.iso.datetime({ offset: true }).optional(),
    })
    .optional(),
  parts: z.array(conversationPart.extend({ body: z.string().max(MAX_PART_BODY_LENGTH) })).max(MAX_PARTS),
});
export type ConversationInput = z.infer<typeof conversationInput>;

const conversationInputs = z.array(conversationInput).min(1).max(MAX_CONVERSATIONS_PER_REQUEST);

/**
 * One conversation or an array of them. Parsed by the shape it has, so that a refusal names the
 * field (`body.parts.0.type`, `body.1.id`): a zod union would only say that neither form matched.
 * The OpenAPI document shows the union.
 */
export const ingestBody = z
  .unknown()
  .transform((value, context): ConversationInput | ConversationInput[] => {
    const result = (Array.isArray(value) ? conversationInputs : conversationInput).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ ...issue, code: "custom", path: issue.path });
    return z.NEVER;
  })
  .meta(
    z.toJSONSchema(z.union([conversationInput, conversationInputs]), { io: "input", unrepresentable: "any" }),
  );

export const organizationParams = z.object({ organizationId: pathParam() });
export const conversationParams = organizationParams.extend({
  conversationId: pathParam(MAX_CONVERSATION_ID_LENGTH),
});
export const issueParams = organizationParams.extend({ issueId: pathParam() });
export const clusterParams = organizationParams.extend({ clusterId: pathParam() });

export const conversationSchema = z.object({
  object: z.literal("conversation"),
  id: z.string(),
  subject: z.string().optional(),
  createdAt: timestamp(),
  processedAt: timestamp().optional(),
  source: z.string(),
  impact: conversationImpact.optional(),
  urls: z.object({ location: url(), source: url().optional() }),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationWithPartsSchema = z.object({
  conversation: conversationSchema,
  parts: z.array(conversationPart),
  metadata: conversationMetadata,
});

const documentSchema = z.looseObject({
  object: z.literal("document"),
  data: z.record(z.string(), z.unknown()),
  nodes: z.array(z.unknown()),
});

export const issueSchema = z.object({
  object: z.literal("conversation-issue"),
  id: z.string(),
  title: z.string(),
  /** The reference's plain-text summary; `details` is the same text as a document. */
  summary: z.string(),
  details: documentSchema,
  impact: conversationImpact,
  createdAt: timestamp(),
  ingestedAt: timestamp(),
  conversation: z.string(),
  cluster: z.string(),
  urls: z.object({ location: url() }),
});
export type Issue = z.infer<typeof issueSchema>;

export const issueWithConversationSchema = z.object({
  issue: issueSchema,
  conversation: conversationSchema,
});

export const clusterSchema = z.object({
  object: z.literal("issues-cluster"),
  id: z.string(),
  label: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  icon: z.string(),
  summary: z.string(),
  muted: z.boolean(),
  impact: conversationImpact,
  weeklyPulse: z.array(z.number()).length(13),
  sources: z.record(z.string(), z.number()),
  stats: z.object({
    issues: z.number(),
    conversations: z.number(),
    tasksTotal: z.number(),
    tasksBacklog: z.number(),
    tasksStarted: z.number(),
    tasksCompleted: z.number(),
    tasksCancelled: z.number(),
  }),
  urls: z.object({ location: url(), app: url() }),
});
export type Cluster = z.infer<typeof clusterSchema>;
