import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The reference's `IntegrationVisibility`: who may see an integration (docs/integrations.md). */
export const integrationVisibility = z.enum(["public", "private", "unlisted"]);
export type IntegrationVisibility = z.infer<typeof integrationVisibility>;

/** The reference's `IntegrationTarget`: where an integration can be installed. */
export const integrationTarget = z.enum(["all", "site", "space", "organization"]);

/** The reference's `IntegrationScope`. */
export const integrationScope = z.enum([
  "space:content:read",
  "space:content:write",
  "space:metadata:read",
  "space:metadata:write",
  "space:git:sync",
  "page:feedback:read",
  "site:metadata:read",
  "site:views:read",
  "site:script:inject",
  "site:script:cookies",
  "site:visitor:auth",
  "site:adaptive:read",
  "site:adaptive:write",
  "openapi:read",
  "openapi:write",
  "conversations:ingest",
]);

/** The reference's `IntegrationCategory`. */
export const integrationCategory = z.enum([
  "analytics",
  "collaboration",
  "content",
  "gitsync",
  "marketing",
  "visitor-auth",
  "other",
]);

/**
 * A published integration. The name is its key: one name, one integration, across organizations.
 * The definition fields (`blocks`, `configurations`...) are stored as the publish body sent them,
 * after validation. The large fields (icon, preview images, script: up to 5.6 MB together) are
 * stored apart, in {@link integrationAssetsTable}, so that lists, gets, installations and event
 * deliveries, which read this record, never read them; `images` says what there is to link.
 */
export const integrationRecord = z.object({
  name: z.string(),
  /** The owner organization's id. */
  organization: z.string(),
  version: z.number(),
  runtime: z.enum(["v1", "v2"]),
  title: z.string(),
  description: z.string(),
  summary: z.string().optional(),
  /** Whether the asset record holds an icon, and how many preview images. */
  images: z.object({ icon: z.boolean(), previews: z.number() }).optional(),
  visibility: integrationVisibility,
  target: integrationTarget,
  scopes: z.array(integrationScope),
  categories: z.array(integrationCategory),
  blocks: z.array(z.record(z.string(), z.unknown())),
  contentSources: z.array(z.record(z.string(), z.unknown())),
  externalLinks: z.array(z.object({ url: z.string(), label: z.string() })),
  configurations: z.record(z.string(), z.unknown()),
  /** Write-only: never returned by any operation. */
  secrets: z.record(z.string(), z.string()),
  contentSecurityPolicy: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  /** `whsec_` + base64 of 32 random bytes: the Standard Webhooks key that signs deliveries. */
  signingSecret: z.string(),
  /** Development mode: events go to `tunnelUrl`; only the owner's unless `all`. */
  dev: z.object({ tunnelUrl: z.string(), all: z.boolean() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Earlier versions stored the large fields inline and no `images`. Such a record is still read
   * as it is (presenters and downloads fall back to these), until its next publish moves them.
   */
  icon: z.string().optional(),
  previewImages: z.array(z.string()).optional(),
  script: z.string().optional(),
});
export type IntegrationRecord = z.infer<typeof integrationRecord>;

export const integrationsTable = defineTable({
  name: "integrations",
  key: "name",
  indexes: {
    byOrganization: ["organization", "name"],
    byVisibility: ["visibility", "name"],
    // Counts an organization's public integrations (MAX_PUBLIC_INTEGRATIONS) without reading them.
    byOrganizationVisibility: ["organization", "visibility", "name"],
  },
  record: integrationRecord,
});

/**
 * The large fields of an integration's published version, keyed by the integration's name and
 * replaced by each publish. Only the asset download (assets.ts) reads it.
 */
export const integrationAssetsRecord = z.object({
  integration: z.string(),
  /** The integration version these belong to. */
  version: z.number(),
  icon: z.string().optional(),
  previewImages: z.array(z.string()),
  script: z.string(),
});
export type IntegrationAssetsRecord = z.infer<typeof integrationAssetsRecord>;

export const integrationAssetsTable = defineTable({
  name: "integrationAssets",
  key: "integration",
  indexes: {},
  record: integrationAssetsRecord,
});

/** An installation of an integration into an organization (one per organization). */
export const installationRecord = z.object({
  id: z.string(),
  integration: z.string(),
  /** The organization it is installed in. */
  organization: z.string(),
  status: z.enum(["active", "pending", "paused"]),
  configuration: z.record(z.string(), z.unknown()),
  externalIds: z.array(z.string()),
  /** Insertion order among the integration's installations (`nextSequence`). */
  seq: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InstallationRecord = z.infer<typeof installationRecord>;

export const installationsTable = defineTable({
  name: "integrationInstallations",
  key: "id",
  indexes: {
    byIntegration: ["integration", "seq"],
    byOrganization: ["organization", "integration"],
  },
  record: installationRecord,
});

/** One line of an event's trace (the reference's `IntegrationEventLog`). */
export const eventLog = z.object({
  message: z.string(),
  timestamp: z.string(),
  level: z.enum(["debug", "info", "warn", "error"]),
});
export type EventLog = z.infer<typeof eventLog>;

/**
 * An integration event and its delivery. `delivery` is `pending` while attempts remain,
 * `delivered` once the tunnel answered 2xx, `failed` once delivery gave up, `none` when there was
 * nothing to deliver to (no development mode, or an event the tunnel does not take).
 */
export const eventRecord = z.object({
  id: z.string(),
  integration: z.string(),
  installation: z.string(),
  /** The organization the event happened in (the installation's). */
  organization: z.string(),
  /** Insertion order among the integration's events (`nextSequence`). */
  seq: z.number(),
  createdAt: z.string(),
  payload: z.record(z.string(), z.unknown()),
  delivery: z.enum(["none", "pending", "delivered", "failed"]),
  /** Delivery attempts made so far. */
  attempts: z.number(),
  logs: z.array(eventLog),
});
export type EventRecord = z.infer<typeof eventRecord>;

export const eventsTable = defineTable({
  name: "integrationEvents",
  key: "id",
  indexes: { byIntegration: ["integration", "seq"] },
  record: eventRecord,
});
