import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { createDocsbase, type Docsbase } from "../src/docsbase.js";
import type { Storage } from "../src/core/storage/port.js";
import { createReplica, type Replica, ReplicaOfflineError } from "../src/sync/index.js";
import { startCuttingProxy } from "./support/cutting-proxy.js";
import { seedLargeSpace } from "./support/large-space.js";
import { type ServerUser, type SyncServer, startSyncServer } from "./support/sync-server.js";

/**
 * docsbase/sync against a real HTTP server on 127.0.0.1: the same cases on a memory replica and on
 * a SQLite one. "Restarting" the replica is a new docsbase over the same storage object (memory)
 * or the same file (SQLite).
 */

interface LocalStore {
  /** A docsbase over the replica's storage: the same data each time. */
  open(): Docsbase;
  cleanup(): void;
}

const stores: Record<string, () => LocalStore> = {
  memory: () => {
    const storage = memoryStorage();
    // Closing a memory storage keeps nothing: the restart reopens the same object, never closed.
    const unclosable: Storage = { ...storage, close: async () => {} };
    return { open: () => createDocsbase({ storage: unclosable }), cleanup: () => {} };
  },
  sqlite: () => {
    const directory = mkdtempSync(join(tmpdir(), "docsbase-sync-"));
    const filename = join(directory, "replica.sqlite");
    return {
      open: () => createDocsbase({ storage: sqliteStorage({ filename }) }),
      cleanup: () => rmSync(directory, { recursive: true, force: true }),
    };
  },
};

const PNG = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3, 255]);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

interface TreePage {
  readonly id: string;
  readonly markdown?: string;
  readonly pages: readonly TreePage[];
}

/** A page tree as [id, parent id, markdown] rows, in reading order. */
function rowsOf(tree: readonly TreePage[], parent = ""): [string, string, string | undefined][] {
  return tree.flatMap((page) => [
    [page.id, parent, page.markdown] as [string, string, string | undefined],
    ...rowsOf(page.pages, page.id),
  ]);
}

describe.each(Object.keys(stores))("docsbase/sync on a %s replica", (kind) => {
  let server: SyncServer;
  let alice: ServerUser;
  let bob: ServerUser;
  let spaceId: string;
  let store: LocalStore;
  let local: Docsbase;
  const pages: Record<string, string> = {};

  beforeEach(async () => {
    server = await startSyncServer();
    alice = await server.user("Alice");
    bob = await server.user("Bob");
    const org = await alice.client.createOrganization({ body: { title: "Acme" } });
    await alice.client.inviteUsersToOrganization({
      organizationId: org.id,
      body: { emails: [{ email: "bob@example.com", role: "admin" }] },
    });
    const invite = (await bob.client.listUserInvites({})).items[0]!;
    await bob.client.acceptUserInvite({ invitationId: invite.id });
    const space = await alice.client.createSpace({ organizationId: org.id, body: { title: "Docs" } });
    spaceId = space.id;
    const create = async (title: string, markdown: string, parent?: string) =>
      (await alice.client.createPage({ spaceId, body: { title, markdown, ...(parent ? { parent } : {}) } }))
        .id;
    pages.intro = await create("Intro", "# Intro\n\nSee [the guide](guide/README.md).\n");
    pages.guide = await create("Guide", "# Guide\n\nLine one.\n\nLine two.\n");
    pages.install = await create("Install", "# Install\n\nRun it.\n", pages.guide);
    pages.configure = await create("Configure", "# Configure\n\nSet it.\n", pages.guide);
    pages.faq = await create("FAQ", "# FAQ\n\nAsk.\n");
    await alice.client.uploadFile({
      spaceId,
      body: { name: "logo.png", contentType: "image/png", data: base64(PNG) },
    });
    store = stores[kind]!();
    local = store.open();
  });

  afterEach(async () => {
    await local.close();
    await server.close();
    store.cleanup();
  });

  const replicaOf = (docsbase: Docsbase, user: ServerUser = alice) =>
    createReplica({ docsbase, remote: server.base, token: user.token });

  /** The local and the remote page trees (see rowsOf). */
  const localTree = async (replica: Replica) => rowsOf((await replica.client.listPages({ spaceId })).pages);
  const remoteTree = async () => rowsOf((await alice.client.listPages({ spaceId })).pages);

  it("pulls a space: ids, hierarchy, order, markdown and file bytes", async () => {
    const replica = await replicaOf(local);
    const pulled = await replica.pull(spaceId);
    expect(pulled).toMatchObject({ space: spaceId, changed: true, pages: 5, files: 1 });
    expect(await localTree(replica)).toEqual(await remoteTree());
    const [file] = (await replica.client.listFiles({ spaceId })).items;
    expect(file).toMatchObject({ name: "logo.png", contentType: "image/png", size: PNG.length });
    const bytes = await local.fetch(new Request(file!.downloadURL));
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(PNG);
    expect(replica.user).toBe(alice.id);
    const status = await replica.status(spaceId);
    expect(status.pending).toEqual({
      pages: { created: [], updated: [], deleted: [] },
      files: { created: [], updated: [], deleted: [] },
    });
  });

  it("a pull of an unchanged space sends one request", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    const before = server.requests.length;
    const again = await replica.pull(spaceId);
    expect(again).toMatchObject({ changed: false, pages: 5, files: 1 });
    expect(server.requests.slice(before)).toEqual([`GET /v1/spaces/${spaceId}`]);
  });

  /** Bob changes the guide's first line in a change request and merges it. */
  const bobEditsGuide = async () => {
    const request = await bob.client.createChangeRequest({ spaceId, body: { subject: "Bob's guide" } });
    await bob.client.updatePageInChangeRequest({
      spaceId,
      changeRequestId: request.id,
      pageId: pages.guide!,
      body: { markdown: "# Guide\n\nLine one, by Bob.\n\nLine two.\n" },
    });
    await bob.client.mergeChangeRequest({ spaceId, changeRequestId: request.id });
    return request.id;
  };

  it("edits offline, survive a restart, push as one change request, resolve, merge, pull", async () => {
    let replica = await replicaOf(local);
    await replica.pull(spaceId);
    const spaceEvents: string[] = [];
    const listen = (target: Replica) => {
      target.on("pulled", (event) => spaceEvents.push(`pulled:${event.changed}`));
      target.on("pushed", (event) => spaceEvents.push(`pushed:${event.result}`));
      target.on("conflict", (event) =>
        spaceEvents.push(`conflict:${event.conflicts.map((c) => "page" in c && c.page)}`),
      );
    };
    // Offline edits: two pages changed, one added, one deleted.
    await replica.client.updatePage({
      spaceId,
      pageId: pages.intro!,
      body: { markdown: "# Intro\n\nWritten offline.\n" },
    });
    await replica.client.updatePage({
      spaceId,
      pageId: pages.guide!,
      body: { markdown: "# Guide\n\nLine one, offline.\n\nLine two.\n" },
    });
    const added = await replica.client.createPage({
      spaceId,
      body: { title: "Upgrade", markdown: "# Upgrade\n\nNew page.\n", parent: pages.guide! },
    });
    await replica.client.deletePage({ spaceId, pageId: pages.faq! });
    const expected = {
      pages: {
        created: [added.id],
        updated: [pages.guide!, pages.intro!].sort(),
        deleted: [pages.faq!],
      },
      files: { created: [], updated: [], deleted: [] },
    };
    expect((await replica.status(spaceId)).pending).toEqual(expected);

    // Restart: a new docsbase over the same storage; the pending changes are still there.
    await local.close();
    local = store.open();
    replica = await replicaOf(local);
    listen(replica);
    expect((await replica.status(spaceId)).pending).toEqual(expected);

    // Meanwhile Bob changed the same line of the guide, and merged.
    await bobEditsGuide();
    const pushed = await replica.push(spaceId, { subject: "Offline edits" });
    expect(pushed).toMatchObject({ result: "conflicts", conflicts: [{ page: pages.guide }] });
    const requests = await alice.client.listChangeRequestsForSpace({ spaceId, status: "open" });
    expect(requests.items.map((request) => request.id)).toEqual([pushed!.changeRequest.id]);
    expect(requests.items[0]!.subject).toBe("Offline edits");
    const status = await replica.status(spaceId);
    expect(status.pending.pages).toEqual({ created: [], updated: [], deleted: [] });
    expect(status.changeRequest).toMatchObject({
      id: pushed!.changeRequest.id,
      status: "open",
      result: "conflicts",
    });
    expect(spaceEvents).toEqual(["conflict:" + pages.guide, "pushed:conflicts"]);

    // Resolve: the guide takes the change request's version; then the server merges it.
    const resolved = await replica.resolve(spaceId, { pages: { [pages.guide!]: "changeRequest" } });
    expect(resolved.result).toBe("update");
    const merged = await alice.client.mergeChangeRequest({
      spaceId,
      changeRequestId: pushed!.changeRequest.id,
    });
    expect(merged.result).toBe("merge");

    const pulled = await replica.pull(spaceId);
    expect(pulled).toMatchObject({ changed: true, pages: 5 });
    expect(pulled.revision).toBe((await alice.client.getSpaceById({ spaceId })).revision);
    expect(await localTree(replica)).toEqual(await remoteTree());
    const after = await replica.status(spaceId);
    expect(after.pending).toEqual({
      pages: { created: [], updated: [], deleted: [] },
      files: { created: [], updated: [], deleted: [] },
    });
    const guide = await alice.client.getPageById({ spaceId, pageId: pages.guide!, format: "markdown" });
    expect(guide.markdown).toContain("Line one, offline.");
    expect(spaceEvents.at(-1)).toBe("pulled:true");
    // Nothing left to push.
    expect(await replica.push(spaceId)).toBeUndefined();
  });

  it("a pull with pending work keeps it, rebased on the new remote revision", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    await replica.client.updatePage({
      spaceId,
      pageId: pages.intro!,
      body: { markdown: "# Intro\n\nWritten offline.\n" },
    });
    await bobEditsGuide();
    await replica.pull(spaceId);
    const intro = await replica.client.getPageById({ spaceId, pageId: pages.intro!, format: "markdown" });
    const guide = await replica.client.getPageById({ spaceId, pageId: pages.guide!, format: "markdown" });
    expect(intro.markdown).toBe("# Intro\n\nWritten offline.\n");
    expect(guide.markdown).toContain("Line one, by Bob.");
    expect((await replica.status(spaceId)).pending.pages).toEqual({
      created: [],
      updated: [pages.intro],
      deleted: [],
    });
  });

  it("a pull whose remote edit collides with a pending one keeps the local version, still pending", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    await replica.client.updatePage({
      spaceId,
      pageId: pages.guide!,
      body: { markdown: "# Guide\n\nLine one, offline.\n\nLine two.\n" },
    });
    await bobEditsGuide();
    const pulled = await replica.pull(spaceId);
    expect(pulled.revision).toBe((await alice.client.getSpaceById({ spaceId })).revision);
    const guide = await replica.client.getPageById({ spaceId, pageId: pages.guide!, format: "markdown" });
    expect(guide.markdown).toContain("Line one, offline.");
    expect((await replica.status(spaceId)).pending.pages.updated).toEqual([pages.guide]);
    // Pushed, the server's update reports the collision.
    const pushed = await replica.push(spaceId);
    expect(pushed).toMatchObject({ result: "conflicts", conflicts: [{ page: pages.guide }] });
  });

  it("a page created on both sides with one slug: the pull is refused (409), nothing changes", async () => {
    const replica = await replicaOf(local);
    const first = await replica.pull(spaceId);
    await replica.client.createPage({ spaceId, body: { title: "Notes", markdown: "Mine.\n" } });
    await alice.client.createPage({ spaceId, body: { title: "Notes", markdown: "Theirs.\n" } });
    const before = await replica.status(spaceId);
    await expect(replica.pull(spaceId)).rejects.toMatchObject({ code: "conflict" });
    const after = await replica.status(spaceId);
    expect(after).toEqual(before);
    expect(after.remoteRevision).toBe(first.revision);
  });

  it("a change request archived unmerged gives its changes back to pending", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    await replica.client.deletePage({ spaceId, pageId: pages.faq! });
    const pushed = await replica.push(spaceId);
    expect((await replica.status(spaceId)).pending.pages.deleted).toEqual([]);
    await alice.client.updateChangeRequestById({
      spaceId,
      changeRequestId: pushed!.changeRequest.id,
      body: { status: "archived" },
    });
    await alice.client.updatePage({ spaceId, pageId: pages.intro!, body: { title: "Welcome" } });
    await replica.pull(spaceId);
    const status = await replica.status(spaceId);
    expect(status.pending.pages).toEqual({ created: [], updated: [], deleted: [pages.faq] });
    expect(status.changeRequest).toBeUndefined();
    const intro = await replica.client.getPageById({ spaceId, pageId: pages.intro! });
    expect(intro.title).toBe("Welcome");
  });

  it("nothing pending: push sends nothing", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    const before = server.requests.length;
    expect(await replica.push(spaceId)).toBeUndefined();
    expect(server.requests.length).toBe(before);
  });

  it("a push first stored by a sync() that found the remote unreachable takes the subject of the next push", async () => {
    let reachable = true;
    const replica = await createReplica({
      docsbase: local,
      remote: server.base,
      token: alice.token,
      fetch: (input, init) =>
        reachable ? fetch(input, init) : Promise.reject(new TypeError("fetch failed")),
    });
    await replica.pull(spaceId);
    await replica.client.updatePage({
      spaceId,
      pageId: pages.faq!,
      body: { markdown: "# FAQ\n\nOffline.\n" },
    });
    reachable = false;
    await replica.sync(); // stores the push, without a subject, and cannot send it
    expect(replica.online).toBe(false);
    reachable = true;
    const pushed = await replica.push(spaceId, { subject: "FAQ, rewritten offline" });
    const [opened, ...others] = (await alice.client.listChangeRequestsForSpace({ spaceId })).items;
    expect(others).toEqual([]);
    expect(pushed?.changeRequest.id).toBe(opened!.id);
    expect(opened!.subject).toBe("FAQ, rewritten offline");
  });

  it("a later push extends the open change request; once merged, a pull leaves only later work pending", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    await replica.client.updatePage({ spaceId, pageId: pages.faq!, body: { markdown: "# FAQ\n\nOne.\n" } });
    const first = await replica.push(spaceId, { subject: "Two pushes" });
    expect(first?.result).toBe("update");
    await replica.client.deletePage({ spaceId, pageId: pages.install! });
    await replica.client.uploadFile({
      spaceId,
      body: { name: "notes.txt", contentType: "text/plain", data: base64(new TextEncoder().encode("hi")) },
    });
    const second = await replica.push(spaceId);
    expect(second?.changeRequest.id).toBe(first!.changeRequest.id);
    expect((await alice.client.listChangeRequestsForSpace({ spaceId })).items).toHaveLength(1);
    // Written after the push: stays pending through the merge and the pull.
    await replica.client.updatePage({
      spaceId,
      pageId: pages.intro!,
      body: { markdown: "# Intro\n\nLater.\n" },
    });
    await alice.client.mergeChangeRequest({ spaceId, changeRequestId: first!.changeRequest.id });
    await replica.pull(spaceId);
    const status = await replica.status(spaceId);
    expect(status.pending).toEqual({
      pages: { created: [], updated: [pages.intro], deleted: [] },
      files: { created: [], updated: [], deleted: [] },
    });
    expect(status.changeRequest).toBeUndefined();
    const remote = await remoteTree();
    expect(remote.map(([id]) => id)).not.toContain(pages.install);
    const localRows = await localTree(replica);
    expect(localRows.filter(([id]) => id !== pages.intro)).toEqual(
      remote.filter(([id]) => id !== pages.intro),
    );
    const files = (await replica.client.listFiles({ spaceId })).items.map((file) => file.name).sort();
    expect(files).toEqual(["logo.png", "notes.txt"]);

    // sync(): the later work goes out as a new change request (the first one is merged).
    const [synced, ...more] = await replica.sync();
    expect(more).toEqual([]);
    expect(synced?.pending.pages).toEqual({ created: [], updated: [], deleted: [] });
    expect(synced?.changeRequest).toMatchObject({ status: "open", result: "update" });
    expect(synced?.changeRequest?.id).not.toBe(first!.changeRequest.id);
    expect((await replica.spaces()).map((entry) => entry.space)).toEqual([spaceId]);
  });

  it("a page tree without markdown: each page is read with getPageInRevisionById, eight at a time", async () => {
    let inFlight = 0;
    let most = 0;
    const pageReads: string[] = [];
    // A remote whose page list leaves the bodies out (as GitBook's does): only pages are read then.
    const stripping: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const reading = /\/revisions\/[^/]+\/page\//.test(url);
      if (reading) {
        pageReads.push(url);
        most = Math.max(most, ++inFlight);
      }
      try {
        const response = await fetch(input, init);
        if (!/\/revisions\/[^/]+\/pages$/.test(new URL(url).pathname)) return response;
        const strip = (list: { markdown?: string; pages: unknown[] }[]): unknown[] =>
          list.map(({ markdown: _markdown, ...page }) => ({ ...page, pages: strip(page.pages as never) }));
        const { pages: tree } = (await response.json()) as { pages: never[] };
        return Response.json({ pages: strip(tree) });
      } finally {
        if (reading) inFlight--;
      }
    };
    for (let i = 0; i < 20; i++) {
      await alice.client.createPage({ spaceId, body: { title: `Extra ${i}`, markdown: `# Extra ${i}\n` } });
    }
    const replica = await createReplica({
      docsbase: local,
      remote: server.base,
      token: alice.token,
      fetch: stripping,
    });
    await replica.pull(spaceId);
    expect(pageReads).toHaveLength(25);
    expect(pageReads.every((url) => url.endsWith("?format=markdown"))).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    expect(await localTree(replica)).toEqual(await remoteTree());
    // Again after one page changed: that page alone is read (the others' updatedAt did not move).
    await alice.client.updatePage({ spaceId, pageId: pages.faq!, body: { markdown: "# FAQ\n\nNew.\n" } });
    pageReads.length = 0;
    await replica.pull(spaceId);
    expect(pageReads.map((url) => new URL(url).pathname.split("/").at(-1))).toEqual([pages.faq]);
    expect(await localTree(replica)).toEqual(await remoteTree());
  });

  it("a push meant for a change request merged behind the replica's back pulls, then opens a new one", async () => {
    const replica = await replicaOf(local);
    await replica.pull(spaceId);
    await replica.client.updatePage({ spaceId, pageId: pages.faq!, body: { markdown: "# FAQ\n\nOne.\n" } });
    const first = await replica.push(spaceId);
    await alice.client.mergeChangeRequest({ spaceId, changeRequestId: first!.changeRequest.id });
    await replica.client.updatePage({
      spaceId,
      pageId: pages.intro!,
      body: { markdown: "# Intro\n\nTwo.\n" },
    });
    const second = await replica.push(spaceId);
    expect(second?.result).toBe("update");
    expect(second?.changeRequest.id).not.toBe(first!.changeRequest.id);
    const open = (await alice.client.listChangeRequestsForSpace({ spaceId })).items.map(
      (request) => request.id,
    );
    expect(open).toEqual([second!.changeRequest.id]);
    const status = await replica.status(spaceId);
    expect(status.remoteRevision).toBe((await alice.client.getSpaceById({ spaceId })).revision);
    expect(status.pending.pages).toEqual({ created: [], updated: [], deleted: [] });
    const intro = await alice.client.getPageInChangeRequestById({
      spaceId,
      changeRequestId: second!.changeRequest.id,
      pageId: pages.intro!,
      format: "markdown",
    });
    expect(intro.markdown).toBe("# Intro\n\nTwo.\n");
  });

  it("another user's token on the same replica storage: asked of the remote, a local user of its own", async () => {
    const first = await replicaOf(local);
    await first.pull(spaceId);
    const before = server.requests.length;
    const again = await replicaOf(local);
    expect(again.user).toBe(alice.id);
    expect(again.token).toBe(first.token);
    expect(server.requests.length).toBe(before);
    const other = await replicaOf(local, bob);
    expect(other.user).toBe(bob.id);
    expect(server.requests.slice(before)).toEqual(["GET /v1/user"]);
    const space = await other.client.getSpaceById({ spaceId });
    expect(space.id).toBe(spaceId);
  });

  it("a reader pulls, but the server refuses their push (403): nothing opened, the edits stay pending", async () => {
    const carol = await server.user("Carol");
    const { organization } = await alice.client.getSpaceById({ spaceId });
    await alice.client.inviteUsersToOrganization({
      organizationId: organization,
      body: { emails: [{ email: "carol@example.com", role: "read" }] },
    });
    const invite = (await carol.client.listUserInvites({})).items[0]!;
    await carol.client.acceptUserInvite({ invitationId: invite.id });
    const replica = await replicaOf(local, carol);
    await replica.pull(spaceId);
    await replica.client.updatePage({ spaceId, pageId: pages.faq!, body: { markdown: "# FAQ\n\nMine.\n" } });
    await expect(replica.push(spaceId)).rejects.toMatchObject({ name: "RemoteError", status: 403 });
    expect((await alice.client.listChangeRequestsForSpace({ spaceId })).items).toEqual([]);
    expect((await replica.status(spaceId)).pending.pages.updated).toEqual([pages.faq]);
    expect(replica.online).toBe(true);
  });

  it("refuses a space it never pulled, naming it, without a request", async () => {
    const replica = await replicaOf(local);
    const before = server.requests.length;
    await expect(replica.push("nope")).rejects.toThrow(/^space: "nope" was never pulled/);
    await expect(replica.status("nope")).rejects.toThrow(/^space: /);
    expect(server.requests.length).toBe(before);
    await expect(replica.pull("nope")).rejects.toMatchObject({ name: "RemoteError", status: 404 });
  });

  it("a push whose answer was lost is retried with the same id: one change request, nothing applied twice", async () => {
    const { hostname, port } = new URL(server.base);
    const proxy = await startCuttingProxy({ host: hostname, port: Number(port) });
    try {
      const replica = await createReplica({ docsbase: local, remote: proxy.base, token: alice.token });
      const offline: unknown[] = [];
      let online = 0;
      replica.on("offline", (event) => offline.push(event.error));
      replica.on("online", () => online++);
      await replica.pull(spaceId);
      await replica.client.updatePage({
        spaceId,
        pageId: pages.intro!,
        body: { markdown: "# Intro\n\nWritten offline.\n" },
      });
      const added = await replica.client.createPage({
        spaceId,
        body: { title: "Upgrade", markdown: "New.\n" },
      });
      const cut = proxy.cutAnswerTo(/^PUT \/v1\/spaces\/[^/]+\/pushes\//);
      await expect(replica.push(spaceId, { subject: "Offline" })).rejects.toBeInstanceOf(ReplicaOfflineError);
      await cut;
      expect(replica.online).toBe(false);
      expect(offline).toHaveLength(1);
      // The server did apply it: one change request, holding the edits.
      const [opened, ...others] = (await alice.client.listChangeRequestsForSpace({ spaceId })).items;
      expect(others).toEqual([]);
      const before = await alice.client.getChangeRequestById({ spaceId, changeRequestId: opened!.id });

      const retried = await replica.push(spaceId);
      expect(replica.online).toBe(true);
      expect(online).toBe(1);
      expect(retried?.changeRequest.id).toBe(opened!.id);
      const after = await alice.client.getChangeRequestById({ spaceId, changeRequestId: opened!.id });
      expect(after.revision).toBe(before.revision);
      expect((await alice.client.listChangeRequestsForSpace({ spaceId })).items).toHaveLength(1);
      const { pages: tree } = await alice.client.listPagesInChangeRequest({
        spaceId,
        changeRequestId: opened!.id,
      });
      expect(tree.filter((page) => page.id === added.id)).toHaveLength(1);
      expect(tree).toHaveLength(4);
      expect(await replica.push(spaceId)).toBeUndefined();

      // The remote gone: sync resolves, the replica is offline, the new edit stays pending.
      await proxy.close();
      await replica.client.updatePage({
        spaceId,
        pageId: pages.faq!,
        body: { markdown: "# FAQ\n\nLater.\n" },
      });
      const [status] = await replica.sync();
      expect(replica.online).toBe(false);
      expect(status?.pending.pages.updated).toEqual([pages.faq]);
    } finally {
      await proxy.close();
    }
  });
});

describe.each(Object.keys(stores))("a 5,000-page space on a %s replica", (kind) => {
  it("pulls all 5,000 pages; a pull after one page changed costs three requests", async () => {
    const storage = memoryStorage();
    const server = await startSyncServer(storage);
    const store = stores[kind]!();
    const local = store.open();
    try {
      const alice = await server.user("Alice");
      const org = await alice.client.createOrganization({ body: { title: "Acme" } });
      const { id: spaceId } = await alice.client.createSpace({
        organizationId: org.id,
        body: { title: "Big" },
      });
      const ids = await seedLargeSpace(storage, spaceId, 5000, { markdownBytes: 512 });
      const replica = await createReplica({ docsbase: local, remote: server.base, token: alice.token });
      const pulled = await replica.pull(spaceId);
      expect(pulled).toMatchObject({ changed: true, pages: 5000 });
      const { pages: tree } = await replica.client.listPages({ spaceId });
      const count = (list: typeof tree): number => list.reduce((n, page) => n + 1 + count(page.pages), 0);
      expect(count(tree)).toBe(5000);
      expect(tree).toHaveLength(50);
      const sample = ids[4321]!;
      const [remotePage, localPage] = await Promise.all([
        alice.client.getPageById({ spaceId, pageId: sample, format: "markdown" }),
        replica.client.getPageById({ spaceId, pageId: sample, format: "markdown" }),
      ]);
      expect(localPage.markdown).toBe(remotePage.markdown);
      expect(localPage.path).toBe(remotePage.path);

      await alice.client.updatePage({ spaceId, pageId: sample, body: { markdown: "# Changed\n" } });
      const before = server.requests.length;
      expect(await replica.pull(spaceId)).toMatchObject({ changed: true, pages: 5000 });
      expect(server.requests.slice(before).map((request) => request.split("?")[0])).toEqual([
        `GET /v1/spaces/${spaceId}`,
        expect.stringMatching(/\/pages$/),
        expect.stringMatching(/\/files$/),
      ]);
      const changed = await replica.client.getPageById({ spaceId, pageId: sample, format: "markdown" });
      expect(changed.markdown).toBe("# Changed\n");
      expect((await replica.status(spaceId)).pending.pages.updated).toEqual([]);
    } finally {
      await local.close();
      await server.close();
      store.cleanup();
    }
  }, 120_000);
});
