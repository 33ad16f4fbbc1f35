import { scheduleJob, type JobHandler } from "../jobs/index.js";
import { operatorOnly } from "../permissions/rules.js";
import { defineOperation } from "../registry.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { randomId, type World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import { challengeName, challengeValue, presentSite } from "./present.js";
import { siteParams, siteSchema } from "./schemas.js";
import { type SiteRecord, sitesTable } from "./tables.js";

/**
 * Custom hostnames (docs/sites.md, "Custom hostnames"). Setting a site's `hostname` makes a claim;
 * a site answers for a hostname (lookups, `urls.published`) only once its claim is verified by a
 * TXT record at `_docsbase-challenge.<hostname>` holding the claim's token, or approved by the
 * operator. A pending claim blocks nobody, so a tenant cannot hold a hostname it does not control;
 * the first verified claim wins, and another site's verification of it answers 409.
 */

const tag = "sites";

/** The job that reads a claim's TXT record and verifies the claim when it matches. */
export const VERIFY_HOSTNAME_JOB = "verifySiteHostname";

/** Fails with 409 when another site answers for `hostname`. */
export async function requireFreeHostname(tx: ReadTransaction, site: string, hostname: string) {
  const found = await tx.list(sitesTable, { index: "byHostname", where: [hostname], limit: 2 });
  if (found.some((other) => other.id !== site)) {
    throw conflict(`hostname: "${hostname}" is already verified by another site`);
  }
}

/**
 * The site with `hostname` claimed (`updateSiteById`): the hostname it answers for already, or a
 * pending claim (a new token for a new hostname), or the hostname at once on an instance that does
 * not verify claims. The site keeps answering for its previous hostname until the claim is
 * verified.
 */
export async function claimHostname(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  hostname: string,
): Promise<SiteRecord> {
  const { hostnameClaim: _pending, ...rest } = site;
  if (site.hostname === hostname) return rest;
  if (!world.hostnames.verify) {
    try {
      await requireFreeHostname(tx, site.id, hostname);
    } catch {
      throw conflict(`body.hostname: "${hostname}" is already used by another site`);
    }
    return { ...rest, hostname };
  }
  if (site.hostnameClaim?.hostname === hostname) return site;
  return { ...rest, hostnameClaim: { hostname, token: randomId(32) } };
}

/** The site answering for its claimed hostname; 409 when another site answers for it now. */
async function activate(tx: ReadTransaction, site: SiteRecord): Promise<SiteRecord> {
  const claim = site.hostnameClaim;
  if (!claim) return site;
  await requireFreeHostname(tx, site.id, claim.hostname);
  const { hostnameClaim: _verified, ...rest } = site;
  return { ...rest, hostname: claim.hostname };
}

function pendingClaim(site: SiteRecord) {
  if (!site.hostnameClaim) throw badRequest(`hostname: site "${site.id}" has no pending hostname claim`);
  return site.hostnameClaim;
}

export const verifySiteHostname = defineOperation({
  id: "verifySiteHostname",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/hostname/verify",
  tag,
  summary:
    "docsbase extension: check the pending hostname claim's TXT record (in a job, at once); the site answers for the hostname once it matches",
  params: siteParams,
  access: onSite("admin"),
  response: siteSchema,
  async run(scope) {
    const { tx, site } = scope;
    const claim = pendingClaim(site);
    await requireFreeHostname(tx, site.id, claim.hostname);
    await scheduleJob(tx, scope, site.organization, VERIFY_HOSTNAME_JOB, scope.clock(), {
      site: site.id,
      token: claim.token,
    });
    return presentSite(tx, scope, site);
  },
});

export const approveSiteHostname = defineOperation({
  id: "approveSiteHostname",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/hostname/approve",
  tag,
  summary:
    "docsbase extension: the operator verifies a site's pending hostname claim without DNS; 409 when another site answers for it",
  params: siteParams,
  access: operatorOnly("Only the operator may approve a hostname"),
  response: siteSchema,
  async run(scope, { params }) {
    const { tx } = scope;
    const site = await tx.get(sitesTable, params.siteId);
    if (!site || site.organization !== params.organizationId) {
      throw notFound(`Site "${params.siteId}" not found`);
    }
    pendingClaim(site);
    const verified = await activate(tx, site);
    await tx.put(sitesTable, verified);
    return presentSite(tx, scope, verified);
  },
});

/**
 * Reads the claim's TXT record outside any transaction, then verifies the claim if it is still the
 * same one and the record holds its token. A mismatch, a missing record or a DNS failure is kept
 * on the claim as `failure`, in words that name no address or DNS error code.
 */
export const verifyHostnameJob: JobHandler = async (world, payload) => {
  const siteId = String(payload["site"]);
  const token = String(payload["token"]);
  const claimOf = (site: SiteRecord | undefined) =>
    site?.hostnameClaim?.token === token ? site.hostnameClaim : undefined;
  const before = await world.storage.read((tx) => tx.get(sitesTable, siteId));
  const claim = claimOf(before);
  if (!claim) return;
  const name = challengeName(claim.hostname);
  let failure: string | undefined;
  if (!world.hostnames.resolveTxt)
    failure = "This server cannot read DNS records: ask the operator to approve";
  else {
    // A name without records rejects (ENOTFOUND, ENODATA): the same as a record that does not match.
    const records = await world.hostnames.resolveTxt(name).catch(() => [] as readonly string[]);
    if (!records.includes(challengeValue(token))) {
      failure = `No TXT record "${challengeValue(token)}" found at ${name}`;
    }
  }
  await world.storage.write(async (tx) => {
    const site = await tx.get(sitesTable, siteId);
    const current = claimOf(site);
    if (!site || !current) return;
    const checkedAt = world.clock().toISOString();
    if (!failure) {
      try {
        await tx.put(sitesTable, await activate(tx, site));
        return;
      } catch {
        failure = `"${current.hostname}" is already verified by another site`;
      }
    }
    await tx.put(sitesTable, { ...site, hostnameClaim: { ...current, checkedAt, failure } });
  });
};

export const hostnameOperations = { verifySiteHostname, approveSiteHostname };
