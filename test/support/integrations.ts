import type { ClientInput } from "../../src/core/client.js";
import type { Operations } from "../../src/core/operations.js";

/** The body of `publishIntegration`. */
export type PublishBody = ClientInput<Operations["publishIntegration"]>["body"];

/** A small valid integration owned by `organization`, with `extra` fields over it. */
export const integrationDefinition = (
  organization: string,
  extra: Partial<PublishBody> = {},
): PublishBody => ({
  organization,
  title: "Analytics",
  description: "Counts page views",
  script: "export default {}",
  scopes: ["space:content:read"],
  ...extra,
});

/** Base64 of a PNG of about `bytes` bytes: the PNG signature, then zeros. */
export const png = (bytes: number) => btoa("\x89PNG\r\n\x1a\n" + "\0".repeat(bytes - 8));
