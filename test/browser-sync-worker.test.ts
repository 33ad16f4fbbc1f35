import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  bundle,
  chromiumMissing,
  launch,
  must,
  openPage,
  profileDirectory,
  startRemote,
  startSite,
  type Remote,
  type Site,
} from "./support/sync-browser.js";

/**
 * A replica in a service worker (`serveReplica`, issue 26) in Chromium: the page reads and writes
 * the replica through the worker's `/v1`, offline too; back online, the worker syncs on its own
 * (Background Sync, which writes through the worker register) and the change request appears on
 * a real `docsbase serve`; a page's message syncs on demand.
 */
const PAGE = `<!doctype html><script type="module">
globalThis.messages = [];
navigator.serviceWorker.addEventListener("message", (event) => messages.push(event.data));
globalThis.startWorker = async (token) => {
  await navigator.serviceWorker.register("/sync-worker.js?token=" + encodeURIComponent(token), { type: "module" });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
};
globalThis.api = async (method, path, body) => {
  const response = await fetch("/v1" + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};
</script>`;

describe.skipIf(chromiumMissing)("a replica in a service worker, in Chromium", () => {
  let remote: Remote;
  let site: Site;
  const profile = profileDirectory();

  beforeAll(async () => {
    const [started, worker] = await Promise.all([startRemote(), bundle("sync-worker.ts", "worker")]);
    remote = started;
    site = await startSite(remote.url, {
      "/": { type: "text/html", body: PAGE },
      "/sync-worker.js": { type: "text/javascript", body: worker },
    });
  });
  afterAll(async () => {
    await site?.close();
    await remote?.close();
    profile.remove();
  });

  /** Local `/v1` through the worker: the page sends no token. */
  const api = (
    page: Page,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> =>
    page.evaluate(([m, p, b]) => (globalThis as any).api(m, p, b), [method, path, body] as const);
  const post = (page: Page, message: unknown) =>
    page.evaluate((data) => navigator.serviceWorker.controller!.postMessage(data), message);
  /**
   * Waits for the worker's next message matching `expected` (after the first `from` messages);
   * a failed sync before it fails the test with the worker's message.
   */
  const message = async (page: Page, from: number, expected: Record<string, unknown>): Promise<any> => {
    const handle = await page.waitForFunction(
      ([skip, wanted]) =>
        (globalThis as any).messages
          .slice(skip)
          .find(
            (data: any) =>
              data.type === "docsbase-sync-error" ||
              Object.entries(wanted).every(([key, value]) => data[key] === value),
          ),
      [from, expected] as const,
      { timeout: 60_000 },
    );
    const found = await handle.jsonValue();
    if (found.type === "docsbase-sync-error" && expected["type"] !== found.type) {
      throw new Error(`the worker's sync failed (${found.trigger}): ${found.message}`);
    }
    return found;
  };
  const count = (page: Page) => page.evaluate(() => (globalThis as any).messages.length as number);
  const openChangeRequests = () =>
    remote.alice.api.listAll(`/spaces/${remote.space}/change-requests?status=open`);

  it("serves the replica's /v1 offline and syncs when back online", async () => {
    const { space, pages, alice, bob } = remote;
    const context = await launch(profile.path);
    try {
      const page = await openPage(context, site.origin, "startWorker");
      await page.evaluate((token) => (globalThis as any).startWorker(token), alice.token);

      // On demand: the page names the space to replicate.
      await post(page, { type: "docsbase-sync", spaces: [space] });
      const first = await message(page, 0, { type: "docsbase-synced", trigger: "message" });
      expect(first.online).toBe(true);
      expect(first.spaces.map((status: any) => status.space)).toEqual([space]);
      const local = await api(page, "GET", `/spaces/${space}/content`);
      expect(local.status).toBe(200);
      expect(local.body.pages.map((p: any) => p.title)).toEqual([
        "Install",
        "Configure",
        "Upgrade",
        "Old notes",
      ]);

      // Offline: reads and writes still answer, from the worker.
      await context.setOffline(true);
      const edited = await api(page, "PATCH", `/spaces/${space}/content/page/${pages["Configure"]}`, {
        markdown: "# Configure\n\nEdited offline, in the worker.",
      });
      expect(edited.status).toBe(200);
      const created = await api(page, "POST", `/spaces/${space}/content/pages`, {
        title: "FAQ",
        markdown: "# FAQ\n\nWritten offline.",
      });
      expect(created.status).toBe(201);
      const bad = await api(page, "PATCH", `/spaces/${space}/content/page/${pages["Configure"]}`, {
        title: "",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("title");
      const asked = await count(page);
      await post(page, { type: "docsbase-status" });
      const offline = await message(page, asked, { type: "docsbase-status" });
      expect(offline.spaces[0].pending.pages).toEqual({
        created: [created.body.id],
        updated: [pages["Configure"]],
        deleted: [],
      });
      expect(await openChangeRequests()).toEqual([]);

      // Back online: the Background Sync that the writes registered fires, and the worker pushes.
      const reconnected = await count(page);
      await context.setOffline(false);
      const synced = await message(page, reconnected, {
        type: "docsbase-synced",
        trigger: "background-sync",
      });
      expect(synced.online).toBe(true);
      const opened = await openChangeRequests();
      expect(opened).toHaveLength(1);
      expect(synced.spaces[0].changeRequest).toMatchObject({
        id: opened[0].id,
        status: "open",
        result: "update",
      });
      const events = (await page.evaluate(() => (globalThis as any).messages))
        .filter((data: any) => data.type === "docsbase-sync-event")
        .map((data: any) => data.event);
      expect(events).toEqual(expect.arrayContaining(["pushed", "pulled"]));
      const cr = await must(alice.api, "GET", `/spaces/${space}/change-requests/${opened[0].id}/content`);
      expect(cr.pages.map((p: any) => p.title)).toEqual([
        "Install",
        "Configure",
        "Upgrade",
        "Old notes",
        "FAQ",
      ]);

      // Merged on the server; an on-demand sync pulls it: nothing pending, the server's revision.
      const merged = await must(bob.api, "POST", `/spaces/${space}/change-requests/${opened[0].id}/merge`);
      expect(merged.result).toBe("merge");
      const before = await count(page);
      await post(page, { type: "docsbase-sync" });
      const pulled = await message(page, before, { type: "docsbase-synced", trigger: "message" });
      const server = await must(alice.api, "GET", `/spaces/${space}`);
      expect(pulled.spaces[0].remoteRevision).toBe(server.revision);
      expect(pulled.spaces[0].pending.pages).toEqual({ created: [], updated: [], deleted: [] });
      expect(await openChangeRequests()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("pushes offline work when the connection comes back with no page open (Background Sync)", async () => {
    const { space, pages } = remote;
    // The same profile: the worker installed by the test above, its replica in IndexedDB.
    const context = await launch(profile.path);
    try {
      const page = await openPage(context, site.origin, "startWorker");
      await page.evaluate((token) => (globalThis as any).startWorker(token), remote.alice.token);
      await context.setOffline(true);
      const edited = await api(page, "PATCH", `/spaces/${space}/content/page/${pages["Upgrade"]}`, {
        markdown: "# Upgrade\n\nEdited offline, then the tab was closed.",
      });
      expect(edited.status).toBe(200);
      // Every page goes (a persistent context also opens a blank one at launch).
      for (const open of context.pages()) await open.close();
      expect(context.pages()).toEqual([]);
      expect(await openChangeRequests()).toEqual([]);

      await context.setOffline(false);
      await vi.waitFor(async () => expect(await openChangeRequests()).toHaveLength(1), {
        timeout: 60_000,
        interval: 250,
      });
      const [opened] = await openChangeRequests();
      const upgrade = await must(
        remote.alice.api,
        "GET",
        `/spaces/${space}/change-requests/${opened.id}/content/page/${pages["Upgrade"]}?format=markdown`,
      );
      expect(upgrade.markdown).toContain("the tab was closed");
    } finally {
      await context.close();
    }
  }, 180_000);
});
