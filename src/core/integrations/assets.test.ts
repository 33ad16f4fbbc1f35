import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { countingStorage } from "../../../test/support/counting-storage.js";
import { png } from "../../../test/support/integrations.js";
import { integrationAssetsTable, integrationsTable } from "./tables.js";

/**
 * Issue 28, item 3: the integration record held the icon, the preview images and the script
 * inline, so every list page, get, installation and event delivery read and parsed up to 5.6 MB
 * per integration. They are now stored apart, and only the asset download reads them.
 */

async function setup() {
  const inner = memoryStorage();
  const counting = countingStorage(inner);
  const test = await createTestDocsbase({ storage: counting.storage });
  const developer = test.as(await test.createUser("Developer"));
  const org = (await developer.createOrganization({ body: { title: "Developer org" } })).id;
  return { test, inner, counting, developer, org };
}

describe("an integration's large fields", () => {
  it("are not read by lists, gets, installations or deliveries, only by the asset download", async () => {
    const { test, counting, developer, org } = await setup();
    // About 1.3 MB of icon, preview images and script.
    const published = await developer.publishIntegration({
      integrationName: "heavy",
      body: {
        organization: org,
        title: "Heavy",
        description: "Large images and script",
        icon: png(200_000),
        previewImages: [png(200_000), png(200_000), png(200_000)],
        script: `export default {}//${"x".repeat(300_000)}`,
        scopes: [],
        visibility: "public",
      },
    });
    // Events go to a tunnel the outbound guard refuses: the delivery job still loads the integration.
    await developer.setIntegrationDevelopmentMode({
      integrationName: "heavy",
      body: { tunnelUrl: "http://127.0.0.1:9/events", all: true },
    });
    const customer = test.as(await test.createUser("Customer"));
    const customerOrg = (await customer.createOrganization({ body: { title: "Customer org" } })).id;
    counting.clear();

    expect((await customer.listIntegrations({})).items.map((item) => item.name)).toEqual(["heavy"]);
    await developer.listIntegrations({ owner: org });
    await customer.getIntegrationByName({ integrationName: "heavy" });
    await customer.installIntegration({ integrationName: "heavy", body: { organization: customerOrg } });
    await developer.listIntegrationInstallations({ integrationName: "heavy" });
    expect(await test.jobs.drain()).toBeGreaterThan(0);
    const [event] = (await developer.listIntegrationEvents({ integrationName: "heavy" })).items;
    expect(event?.payload).toMatchObject({ type: "installation_setup" });

    expect(counting.recordsRead(integrationAssetsTable.name)).toBe(0);
    expect(counting.recordsRead(integrationsTable.name)).toBeGreaterThan(0);
    // All records read by the calls above: tens of kilobytes, not the megabytes of the assets.
    expect(counting.readChars()).toBeLessThan(100_000);

    const answer = await test.fetch(published.urls.icon!);
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBe(200_000);
    expect(counting.recordsRead(integrationAssetsTable.name)).toBe(1);
  });

  it("are stored with the version they belong to, replaced by each publish, deleted with the integration", async () => {
    const { test, inner, developer, org } = await setup();
    const body = {
      organization: org,
      title: "Versions",
      description: "Two versions",
      script: "export default 1",
      scopes: [],
      icon: png(100),
    };
    const assets = () => inner.read((tx) => tx.get(integrationAssetsTable, "versions"));
    const first = await developer.publishIntegration({ integrationName: "versions", body });
    expect(await assets()).toMatchObject({ version: 1, script: "export default 1", icon: png(100) });
    const second = await developer.publishIntegration({
      integrationName: "versions",
      body: { ...body, script: "export default 2", icon: png(200), previewImages: [png(300)] },
    });
    expect(await assets()).toMatchObject({ version: 2, script: "export default 2", icon: png(200) });
    const record = await inner.read((tx) => tx.get(integrationsTable, "versions"));
    expect(record?.images).toEqual({ icon: true, previews: 1 });
    expect(record).not.toHaveProperty("script");
    expect(record).not.toHaveProperty("icon");
    expect((await test.fetch(first.urls.icon!)).status).toBe(404);
    expect((await test.fetch(second.previewImages[0]!)).status).toBe(200);

    await developer.unpublishIntegration({ integrationName: "versions" });
    expect(await assets()).toBeUndefined();
    expect((await test.fetch(second.urls.icon!)).status).toBe(404);
  });

  it("stay readable on a record stored inline by an earlier version, until its next publish", async () => {
    const { test, inner, developer, org } = await setup();
    await developer.publishIntegration({
      integrationName: "legacy",
      body: { organization: org, title: "Legacy", description: "Old shape", script: "x", scopes: [] },
    });
    const icon = png(500);
    const previews = [png(600), png(700)];
    // The record as the previous version stored it: large fields inline, no `images`, no asset record.
    await inner.write(async (tx) => {
      const record = await tx.get(integrationsTable, "legacy");
      const { images: _images, ...old } = record!;
      await tx.put(integrationsTable, { ...old, icon, previewImages: previews, script: "old script" });
      await tx.delete(integrationAssetsTable, "legacy");
    });

    const [listed] = (await developer.listIntegrations({ owner: org })).items;
    expect(listed?.urls.icon).toMatch(/\/v1\/integrations\/legacy\/assets\/[0-9a-f]{32}\/icon$/);
    expect(listed?.previewImages).toHaveLength(2);
    const answer = await test.fetch(listed!.urls.icon!);
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBe(500);
    expect((await (await test.fetch(listed!.previewImages[1]!)).arrayBuffer()).byteLength).toBe(700);

    // The next publish moves the large fields out of the record.
    await developer.publishIntegration({
      integrationName: "legacy",
      body: { organization: org, title: "Legacy", description: "New shape", script: "y", scopes: [], icon },
    });
    const record = await inner.read((tx) => tx.get(integrationsTable, "legacy"));
    expect(record).toMatchObject({ images: { icon: true, previews: 0 } });
    expect(record).not.toHaveProperty("previewImages");
    expect(record).not.toHaveProperty("script");
  });
});
