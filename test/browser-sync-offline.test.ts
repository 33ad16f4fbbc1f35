import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bundle,
  chromiumMissing,
  editAndMerge,
  launch,
  must,
  openPage,
  profileDirectory,
  serveShellOffline,
  startRemote,
  startSite,
  type Remote,
  type Site,
} from "./support/sync-browser.js";

/**
 * Issue 26's scenario in Chromium: a replica on IndexedDB in a page, edited offline, pushed to a
 * real `docsbase serve` as one change request that conflicts with another user's merged edit,
 * resolved, merged, and pulled back.
 */
describe.skipIf(chromiumMissing)("offline edits in Chromium come back as a change request", () => {
  let remote: Remote;
  let site: Site;
  let files: Record<string, { type: string; body: string }>;
  const profile = profileDirectory();

  beforeAll(async () => {
    const [started, script] = await Promise.all([startRemote(), bundle("sync-page.ts", "page")]);
    remote = started;
    files = {
      "/": { type: "text/html", body: '<!doctype html><script type="module" src="/page.js"></script>' },
      "/page.js": { type: "text/javascript", body: script },
    };
    site = await startSite(remote.url, files);
  });
  afterAll(async () => {
    await site?.close();
    await remote?.close();
    profile.remove();
  });

  const open = async (context: Parameters<typeof openPage>[0]) => {
    const page = await openPage(context, site.origin, "syncScenario");
    await page.evaluate((token) => (globalThis as any).syncScenario.open(token), remote.alice.token);
    return page;
  };
  const run = <T>(page: Page, script: string, ...args: unknown[]): Promise<T> =>
    page.evaluate(
      ([name, values]) => (globalThis as any).syncScenario[name as string](...(values as unknown[])),
      [script, args] as const,
    ) as Promise<T>;

  it("pulls, keeps offline edits across a reopen, pushes one change request, resolves its conflict, pulls the merge", async () => {
    const { space, pages, alice, bob } = remote;
    const context = await launch(profile.path);
    try {
      // The app's shell loads offline (as from its cache); `/v1` goes to the network.
      await serveShellOffline(context, site.origin, files);
      let page = await open(context);
      const before = await must(alice.api, "GET", `/spaces/${space}`);
      expect(await run(page, "pull", space)).toMatchObject({
        space,
        revision: before.revision,
        changed: true,
        pages: 4,
      });

      await context.setOffline(true);
      await run(page, "update", space, pages["Install"], "# Install\n\nRun the installer, offline edit.");
      await run(page, "update", space, pages["Configure"], "# Configure\n\nSet the port, offline edit.");
      const added = await run<string>(
        page,
        "create",
        space,
        "Troubleshoot",
        "# Troubleshoot\n\nNew offline.",
      );
      await run(page, "remove", space, pages["Old notes"]);
      const pending = {
        pages: {
          created: [added],
          updated: [pages["Install"], pages["Configure"]].sort(),
          deleted: [pages["Old notes"]],
        },
        files: { created: [], updated: [], deleted: [] },
      };
      const sorted = (status: any) => ({
        ...status.pending,
        pages: { ...status.pending.pages, updated: [...status.pending.pages.updated].sort() },
      });
      expect(sorted(await run(page, "status", space))).toEqual(pending);

      // Closed and opened again, still offline: the pending changes are in IndexedDB.
      await page.close();
      page = await open(context);
      const reopened: any = await run(page, "status", space);
      expect(sorted(reopened)).toEqual(pending);
      expect(reopened.remoteRevision).toBe(before.revision);
      expect(await run(page, "readPage", space, pages["Install"])).toEqual({
        title: "Install",
        markdown: expect.stringContaining("offline edit"),
      });

      // Offline, a push fails as offline and reaches nothing; the push it stored (with its
      // subject) is the one sent later.
      const attempt = await page.evaluate(
        (id) =>
          (globalThis as any).syncScenario.push(id, "Offline edits").then(
            () => "pushed",
            (error: Error) => error.name,
          ),
        space,
      );
      expect(attempt).toBe("ReplicaOfflineError");
      expect(await run(page, "online")).toBe(false);
      expect((await run<any[]>(page, "events")).map((event) => event.event)).toContain("offline");
      expect(site.passed.filter((request) => request.includes("/pushes/"))).toEqual([]);

      // Meanwhile another user changes the same line of "Install" on the server and merges.
      await editAndMerge(bob, space, pages["Install"]!, "# Install\n\nRun the installer, server edit.");

      await context.setOffline(false);
      const pushed: any = await run(page, "push", space);
      expect(pushed.result).toBe("conflicts");
      expect(pushed.conflicts).toEqual([expect.objectContaining({ page: pages["Install"] })]);
      const opened = await alice.api.listAll(`/spaces/${space}/change-requests?status=open`);
      expect(opened.map((cr) => cr.id)).toEqual([pushed.changeRequest.id]);
      expect(opened[0]).toMatchObject({ subject: "Offline edits", revisionInitial: before.revision });
      const status: any = await run(page, "status", space);
      expect(status.changeRequest).toMatchObject({
        id: pushed.changeRequest.id,
        status: "open",
        result: "conflicts",
      });

      // The replica keeps its side of the conflict; the update is then clean and the merge applies it all.
      const resolved: any = await run(page, "resolve", space, { [pages["Install"]!]: "changeRequest" });
      expect(resolved).toMatchObject({ changeRequest: { id: pushed.changeRequest.id }, result: "update" });
      const merged = await must(
        bob.api,
        "POST",
        `/spaces/${space}/change-requests/${pushed.changeRequest.id}/merge`,
      );
      expect(merged.result).toBe("merge");
      const titles = (await must(alice.api, "GET", `/spaces/${space}/content`)).pages.map(
        (p: any) => p.title,
      );
      expect(titles).toEqual(["Install", "Configure", "Upgrade", "Troubleshoot"]);
      const markdown = async (id: string) =>
        (await must(alice.api, "GET", `/spaces/${space}/content/page/${id}?format=markdown`)).markdown;
      expect(await markdown(pages["Install"]!)).toContain("offline edit");
      expect(await markdown(pages["Configure"]!)).toContain("offline edit");
      expect(await markdown(added)).toContain("New offline.");
      expect(
        (await alice.api.send("GET", `/spaces/${space}/content/page/${pages["Old notes"]}`)).status,
      ).toBe(404);

      // The replica pulls the merged revision: nothing is pending any more.
      const after = await must(alice.api, "GET", `/spaces/${space}`);
      expect(await run(page, "pull", space)).toMatchObject({ revision: after.revision, changed: true });
      const final: any = await run(page, "status", space);
      expect(final.remoteRevision).toBe(after.revision);
      expect(final.pending).toEqual({
        pages: { created: [], updated: [], deleted: [] },
        files: { created: [], updated: [], deleted: [] },
      });
      expect((await run<any[]>(page, "events")).map((event) => event.event)).toEqual(
        expect.arrayContaining(["pushed", "conflict", "pulled", "online"]),
      );
    } finally {
      await context.close();
    }
  }, 180_000);
});
