import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumMissing,
  launch,
  openPage,
  profileDirectory,
  runScenario,
  startRemote,
  startScenarioSite,
  type Remote,
  type Site,
} from "./support/sync-browser.js";

/**
 * The replica in a page of another origin than the server's, in Chromium: `docsbase serve
 * --cors-origins <the page's origin>` lets it pull and push directly, with its bearer token (a
 * preflighted request); the same page from an origin not listed cannot reach the server.
 */
describe.skipIf(chromiumMissing)("a replica calling the server across origins (CORS), in Chromium", () => {
  let remote: Remote;
  let site: Site;
  const profile = profileDirectory();

  beforeAll(async () => {
    // No pass-through: the page calls the server at its own origin.
    site = await startScenarioSite(undefined);
    remote = await startRemote(["--cors-origins", site.origin]);
  });
  afterAll(async () => {
    await site?.close();
    await remote?.close();
    profile.remove();
  });

  const run = runScenario;

  it("pulls and pushes from a listed origin; another origin gets no answer it may read", async () => {
    const { space, pages, alice } = remote;
    const context: BrowserContext = await launch(profile.path);
    try {
      const page = await openPage(context, site.origin, "syncScenario");
      expect(await run(page, "open", alice.token, remote.url)).toMatchObject({
        value: { user: alice.id },
      });
      expect(await run(page, "pull", space)).toMatchObject({ value: { space, pages: 4 } });
      await run(page, "update", space, pages["Install"], "# Install\n\nEdited across origins.");
      const pushed: any = await run(page, "push", space, "Across origins");
      expect(pushed.error).toBeUndefined();
      const [made, ...others] = await alice.api.listAll(`/spaces/${space}/change-requests?status=open`);
      expect(others).toEqual([]);
      expect(made).toMatchObject({ id: pushed.value.changeRequest.id, subject: "Across origins" });
      expect(site.passed).toEqual([]);

      // The same page served from http://localhost:<port>: another origin, not listed.
      const elsewhere = await openPage(
        context,
        site.origin.replace("127.0.0.1", "localhost"),
        "syncScenario",
      );
      const refused: any = await run(elsewhere, "open", alice.token, remote.url);
      expect(refused.error).toMatch(/ReplicaOfflineError|did not answer/);
    } finally {
      await context.close();
    }
  }, 180_000);
});
