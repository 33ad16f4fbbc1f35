import { describe, expect, it } from "vitest";
import { answerOf } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { sitesTable } from "./tables.js";
import { signVisitorToken, verifyVisitorToken } from "../visitors/visitor-token.js";

/** The publishing auth: the site's private key, to admins only, and its regeneration. */
describe("publishing auth", () => {
  async function setup() {
    const w = await createWorkspace();
    const organizationId = w.org;
    const site = (await w.client.createSite({ organizationId, body: { visibility: "visitor-auth" } })).id;
    return { ...w, site, auth: { organizationId, siteId: site } };
  }

  it("answers the site's publishing key as privateKey, with the custom backend", async () => {
    const w = await setup();
    const got = await w.client.getSitePublishingAuthById(w.auth);
    const key = (await w.stored(sitesTable, w.site))?.publishingKey;
    expect(got).toEqual({ object: "publishing-auth", backend: "custom", privateKey: key });
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("regenerates the key: tokens signed with the old one stop verifying", async () => {
    const w = await setup();
    const old = (await w.client.getSitePublishingAuthById(w.auth)).privateKey;
    const token = await signVisitorToken({ plan: "pro" }, old);
    const now = new Date();
    expect(await verifyVisitorToken(token, old, now)).toEqual({ ok: true, claims: { plan: "pro" } });
    const regenerated = await w.client.regenerateSitePublishingAuthById(w.auth);
    const fresh = regenerated.privateKey;
    expect(fresh).not.toBe(old);
    expect(regenerated).toEqual({ object: "publishing-auth", backend: "custom", privateKey: fresh });
    expect((await w.stored(sitesTable, w.site))?.publishingKey).toBe(fresh);
    expect((await w.client.getSitePublishingAuthById(w.auth)).privateKey).toBe(fresh);
    expect(await verifyVisitorToken(token, fresh, now)).toEqual({ ok: false, reason: "signature" });
    const renewed = await signVisitorToken({ plan: "pro" }, fresh);
    expect((await verifyVisitorToken(renewed, fresh, now)).ok).toBe(true);
  });

  it("shows and regenerates the key for admins only; members get 403, others 404", async () => {
    const w = await setup();
    const key = (await w.stored(sitesTable, w.site))?.publishingKey;
    const reader = (await w.member("read")).client;
    const editor = (await w.member("edit")).client;
    for (const member of [reader, editor]) {
      const refused = await answerOf(member.getSitePublishingAuthById(w.auth));
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain(key);
      await expect(member.regenerateSitePublishingAuthById(w.auth)).rejects.toMatchObject({
        code: "forbidden",
      });
    }
    const guest = (await w.member(null)).client;
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.getSitePublishingAuthById(w.auth)).rejects.toMatchObject({ code: "not_found" });
      await expect(stranger.regenerateSitePublishingAuthById(w.auth)).rejects.toMatchObject({
        code: "not_found",
      });
    }
    expect((await w.stored(sitesTable, w.site))?.publishingKey).toBe(key);
    await expect(
      w.client.getSitePublishingAuthById({ organizationId: w.org, siteId: "unknown" }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
