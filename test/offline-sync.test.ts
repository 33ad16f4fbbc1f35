import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { createDocsbase, type Docsbase } from "../src/docsbase.js";
import type { Storage } from "../src/core/storage/port.js";
import { createReplica, type Replica } from "../src/sync/index.js";
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

  /** The local page tree: [title, parent title, markdown] in reading order. */
  const localTree = async (replica: Replica) => {
    const { pages: tree } = await replica.client.listPages({ spaceId });
    const rows: [string, string, string | undefined][] = [];
    const walk = (list: typeof tree, parent: string) => {
      for (const page of list) {
        rows.push([page.id, parent, page.markdown]);
        walk(page.pages, page.id);
      }
    };
    walk(tree, "");
    return rows;
  };
  const remoteTree = async () => {
    const { pages: tree } = await alice.client.listPages({ spaceId });
    const rows: [string, string, string | undefined][] = [];
    const walk = (list: typeof tree, parent: string) => {
      for (const page of list) {
        rows.push([page.id, parent, page.markdown]);
        walk(page.pages, page.id);
      }
    };
    walk(tree, "");
    return rows;
  };

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
});
