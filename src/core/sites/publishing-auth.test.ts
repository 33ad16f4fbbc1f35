import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { sitesTable } from "./tables.js";
import { signVisitorToken, verifyVisitorToken } from "../visitors/visitor-token.js";

/** The publishing auth: the site's private key, to admins only, and its regeneration. */
describe("publishing auth", () => {
  async function setup() {
    const w = await createWorkspace();
    const site = (await w.api("POST", `/orgs/${w.org}/sites`, { visibility: "visitor-auth" })).body
      .id as string;
    return { ...w, site, auth: `/orgs/${w.org}/sites/${site}/publishing/auth` };
  }

  it("answers the site's publishing key as privateKey, with the custom backend", async () => {
    const w = await setup();
    const got = await w.api("GET", w.auth);
    expect(got.status).toBe(200);
    const key = (await w.stored(sitesTable, w.site))?.publishingKey;
    expect(got.body).toEqual({ object: "publishing-auth", backend: "custom", privateKey: key });
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("regenerates the key: tokens signed with the old one stop verifying", async () => {
    const w = await setup();
    const old = (await w.api("GET", w.auth)).body.privateKey as string;
    const token = await signVisitorToken({ plan: "pro" }, old);
    const now = new Date();
    expect(await verifyVisitorToken(token, old, now)).toEqual({ ok: true, claims: { plan: "pro" } });
    const regenerated = await w.api("POST", `${w.auth}/regenerate`);
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.privateKey as string;
    expect(fresh).not.toBe(old);
    expect(regenerated.body).toEqual({ object: "publishing-auth", backend: "custom", privateKey: fresh });
    expect((await w.stored(sitesTable, w.site))?.publishingKey).toBe(fresh);
    expect((await w.api("GET", w.auth)).body.privateKey).toBe(fresh);
    expect(await verifyVisitorToken(token, fresh, now)).toEqual({ ok: false, reason: "signature" });
    const renewed = await signVisitorToken({ plan: "pro" }, fresh);
    expect((await verifyVisitorToken(renewed, fresh, now)).ok).toBe(true);
  });

  it("shows and regenerates the key for admins only; members get 403, others 404", async () => {
    const w = await setup();
    const key = (await w.stored(sitesTable, w.site))?.publishingKey;
    const reader = await w.member("read");
    const editor = await w.member("edit");
    for (const member of [reader, editor]) {
      const refused = await member("GET", w.auth);
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain(key);
      expect((await member("POST", `${w.auth}/regenerate`)).status).toBe(403);
    }
    const guest = await w.member(null);
    for (const stranger of [guest, w.outsider]) {
      expect((await stranger("GET", w.auth)).status).toBe(404);
      expect((await stranger("POST", `${w.auth}/regenerate`)).status).toBe(404);
    }
    expect((await w.stored(sitesTable, w.site))?.publishingKey).toBe(key);
    expect((await w.api("GET", `/orgs/${w.org}/sites/unknown/publishing/auth`)).status).toBe(404);
  });
});
