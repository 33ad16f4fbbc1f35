import { decodeJwt } from "jose/jwt/decode";
import { loadJose } from "../shared/jose.js";
import * as z from "zod";
import type { Caller, CallerInstallation, World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { secretOf, signingKey, unstoredRecord, verifiedClaims, verifySiteToken } from "./site-token.js";
import type { SigningKeyRecord, TokenRecord } from "./tables.js";

/**
 * Integration and installation tokens (docs/integrations.md, "Tokens"). An integration token
 * authenticates as an integration, standing for no user; docsbase hands one to the integration
 * with each event it delivers (`environment.apiTokens.integration`). With it the integration
 * obtains installation tokens (`createIntegrationInstallationToken`), each acting for one of its
 * installations. Both are JWTs signed with the key of site tokens, so every instance sharing the
 * database verifies them and nothing is stored per token; they are revoked only by expiry.
 */

/** How long an integration token authenticates: 1 hour; each delivered event carries a new one. */
export const INTEGRATION_TOKEN_LIFETIME_MS = 60 * 60_000;

/** How long an installation token authenticates: 1 hour; the integration asks again for a new one. */
export const INSTALLATION_TOKEN_LIFETIME_MS = 60 * 60_000;

/** The caller id prefix of an integration token (user ids have no ":"). */
export const INTEGRATION_CALLER_PREFIX = "integration:";

/** The caller id prefix of an installation token, followed by the installation's id. */
export const INSTALLATION_CALLER_PREFIX = "installation:";

const integrationPayload = z.object({
  exp: z.number().int(),
  kind: z.literal("integration"),
  integration: z.string(),
});

const installationPayload = z.object({
  exp: z.number().int(),
  kind: z.literal("installation"),
  integration: z.string(),
  installation: z.string(),
  organization: z.string(),
});

const signedPayload = z.discriminatedUnion("kind", [integrationPayload, installationPayload]);

async function sign(
  tx: WriteTransaction,
  world: Pick<World, "clock" | "ids">,
  lifetime: number,
  claims: Record<string, string>,
): Promise<string> {
  const key = await signingKey(tx, world);
  const exp = Math.floor((world.clock().getTime() + lifetime) / 1000);
  const { SignJWT } = await loadJose();
  return new SignJWT({ ...claims, exp }).setProtectedHeader({ alg: "HS256" }).sign(secretOf(key));
}

/**
 * A new integration token for the integration named `integration`.
 *
 * @example
 * ```ts
 * const token = await issueIntegrationToken(tx, world, "analytics");
 * ```
 */
export function issueIntegrationToken(
  tx: WriteTransaction,
  world: Pick<World, "clock" | "ids">,
  integration: string,
): Promise<string> {
  return sign(tx, world, INTEGRATION_TOKEN_LIFETIME_MS, { kind: "integration", integration });
}

/** A new installation token acting for `installation`. */
export function issueInstallationToken(
  tx: WriteTransaction,
  world: Pick<World, "clock" | "ids">,
  installation: CallerInstallation,
): Promise<string> {
  return sign(tx, world, INSTALLATION_TOKEN_LIFETIME_MS, {
    kind: "installation",
    integration: installation.integration,
    installation: installation.id,
    organization: installation.organization,
  });
}

/** The `kind` claim of a JWT, read before its signature is checked, to pick its verifier. */
function kindOf(token: string): unknown {
  try {
    return decodeJwt(token)["kind"];
  } catch {
    return undefined;
  }
}

/**
 * The caller a JWT docsbase signed stands for (a site, integration or installation token), with a
 * record of it as a stored token would read (never stored), or null when its signature, `exp` (at
 * `now`) or a claim is wrong.
 */
export async function verifySignedToken(
  token: string,
  hash: string,
  key: SigningKeyRecord | undefined,
  now: Date,
): Promise<{ caller: Caller; record: TokenRecord } | null> {
  const kind = kindOf(token);
  if (kind !== "integration" && kind !== "installation") return verifySiteToken(token, hash, key, now);
  if (!key) return null;
  const payload = await verifiedClaims(token, key, now, signedPayload);
  if (!payload) return null;
  const caller: Caller =
    payload.kind === "integration"
      ? Object.freeze({
          userId: `${INTEGRATION_CALLER_PREFIX}${payload.integration}`,
          operator: false,
          integration: payload.integration,
        })
      : Object.freeze({
          userId: `${INSTALLATION_CALLER_PREFIX}${payload.installation}`,
          operator: false,
          installation: Object.freeze({
            id: payload.installation,
            integration: payload.integration,
            organization: payload.organization,
          }),
        });
  return { caller, record: unstoredRecord(hash, now, payload.exp) };
}
