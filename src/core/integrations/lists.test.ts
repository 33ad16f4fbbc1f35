import { describe, expect, it } from "vitest";
import { integrationDefinition, png, type PublishBody } from "../../../test/support/integrations.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import {
  MAX_DEFINITION_BYTES,
  MAX_ICON_CHARS,
  MAX_INTEGRATIONS_PAGE,
  MAX_PUBLIC_INTEGRATIONS,
} from "./schemas.js";
import { integrationsTable } from "./tables.js";
import { LARGE_ITEMS_PAGE_CHARS } from "../shared/pagination.js";

/**
 * Issue 28, item 3: one tenant could bloat the list of integrations every user reads, since each
 * item inlined its icon and preview images. Images are now linked (assets.ts), the listed
 * definition has a byte budget, pages hold at most 50 integrations, and an organization has at
 * most 25 public integrations.
 */

/** A public integration, unless `extra` says otherwise. */
const definition = (organization: string, extra: Partial<PublishBody> = {}): PublishBody =>
  integrationDefinition(organization, { visibility: "public", ...extra });

describe("lists of integrations", () => {
  it("link images instead of inlining them, so an item's size does not grow with its images", async () => {
    const w = await createWorkspace();
    const reader = await w.member(null);
    const sizeOfList = async () => JSON.stringify((await reader("GET", "/integrations")).body).length;
    await w.client.publishIntegration({ integrationName: "plain", body: definition(w.org) });
    const plain = await sizeOfList();
    const icon = png(30_000);
    await w.client.publishIntegration({
      integrationName: "heavy",
      body: definition(w.org, { icon, previewImages: [png(30_000), png(30_000), png(30_000)] }),
    });
    // Two items: the heavy one answers about as much as the plain one, not 160 kB more.
    expect(await sizeOfList()).toBeLessThan(plain * 2 + 2_000);

    const listed = (await reader("GET", "/integrations")).body.items.find(
      (item: { name: string }) => item.name === "heavy",
    );
    expect(listed.previewImages).toHaveLength(3);
    const iconUrl: string = listed.urls.icon;
    expect(iconUrl).toMatch(/^http:\/\/docsbase\.test\/v1\/integrations\/heavy\/assets\/[0-9a-f]{32}\/icon$/);
    const answer = await w.test.fetch(iconUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/png");
    expect(answer.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(btoa(String.fromCharCode(...new Uint8Array(await answer.arrayBuffer())))).toBe(icon);
    const preview = await w.test.fetch(listed.previewImages[2]);
    expect(preview.status).toBe(200);
    expect((await preview.arrayBuffer()).byteLength).toBe(30_000);
  });

  it("end a page at the size budget when owners' full organizations are large", async () => {
    const w = await createWorkspace();
    // Members of the owner get its full Organization: 30 merge rules of 1000 users, about 660 kB.
    const users = Array.from({ length: 1000 }, (_, i) => `user-${String(i).padStart(12, "0")}`);
    const rules = Array.from({ length: 30 }, () => ({ rule: "allow_bypass" as const, users }));
    await w.client.updateOrganizationById({
      organizationId: w.org,
      body: { mergeRules: { type: "rules", rules } },
    });
    for (const name of ["a", "b", "c"]) {
      await w.client.publishIntegration({ integrationName: name, body: definition(w.org) });
    }
    const first = (await w.api("GET", "/integrations")).body;
    expect(JSON.stringify(first.items).length).toBeLessThanOrEqual(LARGE_ITEMS_PAGE_CHARS);
    expect(first.items).toHaveLength(1);
    expect(first.next).toBeDefined();
  });

  it("give a private integration's images to those who see it only, and a new URL per version", async () => {
    const w = await createWorkspace();
    const body = definition(w.org, { visibility: "private", icon: png(100) });
    const first = await w.client.publishIntegration({ integrationName: "secret", body });
    const iconUrl = first.urls.icon!;
    expect((await w.test.fetch(iconUrl)).status).toBe(200);
    // Another key (a guess, or the integration's name) finds nothing.
    const guessed = iconUrl.replace(/\/assets\/[0-9a-f]{32}\//, `/assets/${"0".repeat(32)}/`);
    expect((await w.test.fetch(guessed)).status).toBe(404);
    expect((await w.outsider("GET", "/integrations/secret")).status).toBe(404);
    const second = await w.client.publishIntegration({ integrationName: "secret", body });
    expect(second.urls.icon).not.toBe(iconUrl);
    expect((await w.test.fetch(iconUrl)).status).toBe(404);
    expect((await w.test.fetch(second.urls.icon!)).status).toBe(200);
  });

  it("refuse a definition whose listed fields pass the byte budget, naming the largest, storing nothing", async () => {
    const w = await createWorkspace();
    // 20 blocks of 10 URL patterns of 200 characters: about 42 kB of JSON, each field within its limit.
    const blocks = Array.from({ length: 20 }, (_, i) => ({
      id: `block-${i}`,
      title: "Block",
      urlUnfurl: Array.from({ length: 10 }, (_, j) => `https://${"x".repeat(180)}.example/${i}/${j}`),
    }));
    expect(JSON.stringify(blocks).length).toBeGreaterThan(MAX_DEFINITION_BYTES);
    await expect(
      w.client.publishIntegration({ integrationName: "wide", body: definition(w.org, { blocks }) }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("body.blocks") });
    expect(await w.stored(integrationsTable, "wide")).toBeUndefined();
    await w.client.publishIntegration({
      integrationName: "wide",
      body: definition(w.org, { blocks: blocks.slice(0, 10) }),
    });

    const icon = "A".repeat(MAX_ICON_CHARS + 4);
    await expect(
      w.client.publishIntegration({ integrationName: "big-icon", body: definition(w.org, { icon }) }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("body.icon") });
  });

  it(`cap public integrations at ${MAX_PUBLIC_INTEGRATIONS} per organization, storing nothing past it`, async () => {
    const w = await createWorkspace();
    const publish = (name: string, extra: Partial<PublishBody> = {}) =>
      w.client.publishIntegration({ integrationName: name, body: definition(w.org, extra) });
    for (let i = 0; i < MAX_PUBLIC_INTEGRATIONS; i++) await publish(`public-${i}`);
    await expect(publish("one-too-many")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("body.visibility"),
    });
    expect(await w.stored(integrationsTable, "one-too-many")).toBeUndefined();
    // A private one, a new version of a public one: still accepted. Then no private one may turn public.
    await publish("one-too-many", { visibility: "private" });
    expect((await publish("public-0", { title: "Renamed" })).version).toBe(2);
    await expect(publish("one-too-many")).rejects.toMatchObject({ code: "conflict" });
    expect((await w.stored(integrationsTable, "one-too-many"))?.visibility).toBe("private");
    // Another organization has its own allowance.
    const other = await w.organization("Other");
    await w.client.publishIntegration({ integrationName: "elsewhere", body: definition(other) });
    // Once one is made private, a place is free.
    await publish("public-1", { visibility: "private" });
    await publish("one-too-many");
  });

  it(`hold at most ${MAX_INTEGRATIONS_PAGE} integrations per page, whatever limit asks`, async () => {
    const w = await createWorkspace();
    const organizations = [w.org, await w.organization("Second"), await w.organization("Third")];
    for (let i = 0; i < MAX_INTEGRATIONS_PAGE + 5; i++) {
      await w.client.publishIntegration({
        integrationName: `listed-${String(i).padStart(2, "0")}`,
        body: definition(organizations[i % 3]!),
      });
    }
    const first = (await w.api("GET", "/integrations?limit=1000")).body;
    expect(first.items).toHaveLength(MAX_INTEGRATIONS_PAGE);
    expect(first.count).toBe(MAX_INTEGRATIONS_PAGE + 5);
    const second = (await w.api("GET", `/integrations?page=${encodeURIComponent(first.next.page)}`)).body;
    expect(second.items).toHaveLength(5);
    expect(second.next).toBeUndefined();
  });
});
