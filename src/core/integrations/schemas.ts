import * as z from "zod";
import { organizationSchema } from "../organizations/schemas.js";
import { boundedId, httpUrl, timestamp, wellFormed } from "../shared/schema.js";
import { siteSchema } from "../sites/schemas.js";
import { spaceSchema } from "../spaces/schemas.js";
import {
  eventLog,
  integrationCategory,
  integrationScope,
  integrationTarget,
  integrationVisibility,
} from "./tables.js";

/**
 * Input and output shapes of the integration operations, after the reference's
 * `PublishIntegration`, `Integration`, `IntegrationInstallation`, `IntegrationEvent` and the space
 * and site installation entries. Where the reference sets no bound, docsbase sets one (the
 * `MAX_*` constants; docs/integrations.md, "Limits").
 */

/** The reference's integration name: the path parameter `integrationName`. */
export const integrationName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9-_.]+$/, "Letters, digits, '-', '_' and '.' only");
export const integrationParams = z.object({ integrationName });

/** Longest base64 preview image: about 1 MiB of image. */
export const MAX_IMAGE_CHARS = 1_400_000;
/** Longest base64 icon: 256 KiB of image, for a picture shown at most a few hundred pixels wide. */
export const MAX_ICON_CHARS = 349_528;
/**
 * Largest listed definition: the JSON of `summary`, `blocks`, `contentSources`, `configurations`,
 * `externalLinks` and `contentSecurityPolicy` together, in UTF-8 bytes. Every user reads the list
 * of public integrations, so each item's size is bounded (images are linked, not inlined).
 */
export const MAX_DEFINITION_BYTES = 32_768;
/**
 * Most integrations on one page of `listIntegrations`, whatever `limit` asks: with
 * {@link MAX_DEFINITION_BYTES} per item, a page stays under about 2 MB.
 */
export const MAX_INTEGRATIONS_PAGE = 50;
/** Most public integrations per organization. */
export const MAX_PUBLIC_INTEGRATIONS = 25;
/** Longest `script`: 1 MiB of characters. */
export const MAX_SCRIPT_CHARS = 1_048_576;
/** Most blocks, content sources, scopes, categories, configuration properties per integration. */
export const MAX_ITEMS = 100;
/** Longest free-form string of a definition (ids, icons, URL patterns, CSP directives). */
export const MAX_TEXT = 2048;
/** Longest secret value. */
export const MAX_SECRET_CHARS = 4096;

const text = (max = MAX_TEXT) => z.string().max(max).check(wellFormed());
const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "Expected base64 content");

const blockMarkdown = z.object({ codeblock: text(100), body: text(100) });
export const integrationBlock = z.object({
  id: text(100).min(1),
  title: text(40).min(2),
  description: text(150).optional(),
  icon: text().optional(),
  urlUnfurl: z.array(text()).max(MAX_ITEMS).optional(),
  markdown: blockMarkdown.optional(),
});

const configurationComponent = z.object({ componentId: text(100).min(1) });
export const integrationContentSource = z.object({
  id: text(100).min(1),
  title: text(40).min(2),
  description: text(150).optional(),
  icon: text().optional(),
  configuration: configurationComponent,
});

const propertyText = { title: text(30).optional(), description: text(100).optional() };
const configurationProperty = z.discriminatedUnion("type", [
  z.object({
    ...propertyText,
    type: z.literal("string"),
    default: text().optional(),
    completion_url: text().optional(),
    enum: z.array(text()).max(MAX_ITEMS).optional(),
  }),
  z.object({ ...propertyText, type: z.literal("number"), default: z.number().optional() }),
  z.object({ ...propertyText, type: z.literal("boolean"), default: z.boolean().optional() }),
  z.object({ ...propertyText, type: z.literal("button"), callback_url: text(), button_text: text(100) }),
]);
const configurationSchema = z.object({
  properties: z
    .record(text(100), configurationProperty)
    .refine((properties) => Object.keys(properties).length <= MAX_ITEMS, {
      error: `at most ${MAX_ITEMS} properties`,
    }),
  required: z
    .array(text(100))
    .max(MAX_ITEMS)
    .refine((names) => new Set(names).size === names.length, { error: "names must be unique" })
    .optional(),
});
/** A configuration: a schema of properties, or a ContentKit component (the reference's oneOf). */
const integrationConfiguration = z.union([configurationSchema, configurationComponent]);
export const integrationConfigurations = z.object({
  account: integrationConfiguration.optional(),
  space: integrationConfiguration.optional(),
  site: integrationConfiguration.optional(),
});

export const externalLinks = z.array(z.object({ url: httpUrl(), label: text(100) })).max(5);

const CSP_DIRECTIVES = [
  "base-uri",
  "block-all-mixed-content",
  "child-src",
  "connect-src",
  "default-src",
  "font-src",
  "form-action",
  "frame-ancestors",
  "frame-src",
  "img-src",
  "manifest-src",
  "media-src",
  "navigate-to",
  "object-src",
  "plugin-types",
  "prefetch-src",
  "referrer",
  "report-to",
  "report-uri",
  "require-sri-for",
  "require-trusted-types-for",
  "sandbox",
  "script-src",
  "script-src-attr",
  "script-src-elem",
  "style-src",
  "style-src-attr",
  "style-src-elem",
  "trusted-types",
  "upgrade-insecure-requests",
  "worker-src",
] as const;
export const contentSecurityPolicy = z.union([text(), z.partialRecord(z.enum(CSP_DIRECTIVES), text())]);

const uniqueList = <T extends z.ZodType<string>>(item: T) =>
  z
    .array(item)
    .max(MAX_ITEMS)
    .refine((values) => new Set(values).size === values.length, { error: "values must be unique" });

/** The fields of a definition that every listing of the integration repeats, images aside. */
const LISTED_FIELDS = [
  "summary",
  "blocks",
  "contentSources",
  "configurations",
  "externalLinks",
  "contentSecurityPolicy",
] as const;

/**
 * Refuses a definition whose listed fields pass {@link MAX_DEFINITION_BYTES} together, naming the
 * largest of them.
 */
function withinDefinitionBudget(
  body: Partial<Record<(typeof LISTED_FIELDS)[number], unknown>>,
  context: z.RefinementCtx,
) {
  const encoder = new TextEncoder();
  const sizes = LISTED_FIELDS.map((field) => ({
    field,
    bytes: body[field] === undefined ? 0 : encoder.encode(JSON.stringify(body[field])).byteLength,
  }));
  const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total <= MAX_DEFINITION_BYTES) return;
  const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  context.addIssue({
    code: "custom",
    path: [largest.field],
    message: `Too big: summary, blocks, contentSources, configurations, externalLinks and contentSecurityPolicy are ${total} bytes of JSON together (${largest.field}: ${largest.bytes}), at most ${MAX_DEFINITION_BYTES}`,
  });
}

/** The body of `publishIntegration`: the reference's `PublishIntegration`. */
export const publishIntegrationBody = z
  .object({
    runtime: z.enum(["v1", "v2"]).optional(),
    icon: base64(MAX_ICON_CHARS).optional(),
    title: text(30).min(2),
    description: text(100),
    summary: text(2048).optional(),
    previewImages: z.array(base64(MAX_IMAGE_CHARS)).max(3).optional(),
    visibility: integrationVisibility.optional(),
    target: integrationTarget.optional(),
    scopes: uniqueList(integrationScope),
    categories: uniqueList(integrationCategory).optional(),
    blocks: z
      .array(integrationBlock)
      .max(MAX_ITEMS)
      .refine((blocks) => new Set(blocks.map((block) => block.id)).size === blocks.length, {
        error: "block ids must be unique",
      })
      .optional(),
    contentSources: z
      .array(integrationContentSource)
      .max(MAX_ITEMS)
      .refine((sources) => new Set(sources.map((source) => source.id)).size === sources.length, {
        error: "content source ids must be unique",
      })
      .optional(),
    externalLinks: externalLinks.optional(),
    configurations: integrationConfigurations.optional(),
    script: z.string().max(MAX_SCRIPT_CHARS),
    /** The owner organization: its id or its hostname. */
    organization: boundedId(),
    secrets: z
      .record(text(100).min(1), z.string().max(MAX_SECRET_CHARS))
      .refine((secrets) => Object.keys(secrets).length <= 20, { error: "at most 20 secrets" })
      .optional(),
    contentSecurityPolicy: contentSecurityPolicy.optional(),
  })
  .superRefine(withinDefinitionBudget);
export type PublishIntegrationBody = z.infer<typeof publishIntegrationBody>;

export const integrationSchema = z.object({
  object: z.literal("integration"),
  name: z.string(),
  version: z.number(),
  runtime: z.enum(["v1", "v2"]),
  title: z.string(),
  description: z.string(),
  summary: z.string().optional(),
  previewImages: z.array(z.string()),
  target: integrationTarget,
  verified: z.boolean(),
  visibility: integrationVisibility,
  scopes: z.array(integrationScope),
  categories: z.array(integrationCategory),
  blocks: z.array(integrationBlock),
  contentSources: z.array(integrationContentSource),
  configurations: integrationConfigurations,
  externalLinks,
  owner: organizationSchema,
  urls: z.object({
    location: z.string(),
    icon: z.string().optional(),
    app: z.string(),
    assets: z.string(),
    publicEndpoint: z.string(),
  }),
  permissions: z.object({ admin: z.boolean() }),
  contentSecurityPolicy: contentSecurityPolicy.optional(),
  /**
   * The Standard Webhooks key (`whsec_...`) that signs event deliveries; shown to the admins of
   * the owner organization only.
   */
  signingSecret: z.string().optional(),
});
export type Integration = z.infer<typeof integrationSchema>;

const installationStatus = z.enum(["active", "pending", "paused"]);

export const installationSchema = z.object({
  id: z.string(),
  status: installationStatus,
  space_selection: z.enum(["all", "selected"]),
  site_selection: z.enum(["all", "selected"]),
  spaces: z.number(),
  configuration: z.record(z.string(), z.unknown()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  urls: z.object({ location: z.string(), app: z.string(), publicEndpoint: z.string() }),
  externalIds: z.array(z.string()),
  target: z.object({ organization: z.string() }),
});
export type Installation = z.infer<typeof installationSchema>;

const contentInstallationBase = {
  integration: z.string(),
  installation: z.string(),
  status: installationStatus,
  configuration: z.record(z.string(), z.unknown()),
  externalIds: z.array(z.string()),
  urls: z.object({ location: z.string(), publicEndpoint: z.string() }),
};
export const spaceInstallationSchema = z.object({
  ...contentInstallationBase,
  space: z.union([z.string(), spaceSchema]),
});
export const siteInstallationSchema = z.object({
  ...contentInstallationBase,
  site: z.union([z.string(), siteSchema]),
});

export const integrationEventSchema = z.object({
  id: z.string(),
  integrationId: z.string(),
  installationId: z.string().optional(),
  createdAt: timestamp(),
  payload: z.record(z.string(), z.unknown()),
  status: z.enum(["success", "failed"]),
});
export type IntegrationEvent = z.infer<typeof integrationEventSchema>;

export const integrationEventWithTrace = z.object({
  event: integrationEventSchema,
  trace: z.object({ logs: z.array(eventLog) }),
});
