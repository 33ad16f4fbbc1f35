import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { collectionPermissions } from "../src/core/collections/permissions.js";
import { contentRole, viewsAllContent, type Membership } from "../src/core/permissions/membership.js";
import { MEMBER_ROLES, type DefaultLevel } from "../src/core/shared/roles.js";
import { spacePermissions } from "../src/core/spaces/permissions.js";
import type { ReadTransaction, Storage, WriteTransaction } from "../src/core/storage/port.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * List `count` (docs/api.md, "Lists"): read from maintained counters, it must equal the number of
 * items that paging the whole list returns, for every caller, through every write that moves an
 * item in or out of a list; and a page must read the same records however large the organization.
 */

const directory = mkdtempSync(join(tmpdir(), "docsbase-list-counts-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const sqliteFile = () => join(directory, `db${++files}.sqlite`);

const KINDS = {
  memory: () => memoryStorage(),
  sqlite: () => sqliteStorage({ filename: sqliteFile() }),
};

interface Org {
  readonly test: TestDocsbase;
  readonly org: string;
  readonly other: string;
  readonly admin: { id: string; token: string };
  advance(ms: number): void;
  join(name: string, role: string | null): Promise<{ id: string; token: string }>;
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }>;
}

async function organization(storage: Storage): Promise<Org> {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const test = await createTestDocsbase({ storage, clock: () => new Date((now += 1000)), tokenCache: false });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await test.request(method, path, { token, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response;
  };
  const org: string = (await call("POST", "/orgs", admin.token, { title: "Acme" })).body.id;
  const other: string = (await call("POST", "/orgs", admin.token, { title: "Other" })).body.id;
  let users = 0;
  return {
    test,
    org,
    other,
    admin,
    advance: (ms) => void (now += ms),
    call,
    async join(name, role) {
      const email = `member${++users}@acme.test`;
      const user = await test.createUser(name, email);
      await call("POST", `/orgs/${org}/invites`, admin.token, { emails: [{ email, role }] });
      const [invite] = (await call("GET", "/user/invites", user.token)).body.items;
      await call("POST", `/user/invites/${invite.id}/accept`, user.token);
      return user;
    },
  };
}

/** Pages a whole list with `limit` per page: its items' ids and the `count` of every page. */
async function pageAll(o: Org, path: string, token: string, limit = 2) {
  const ids: string[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  const separator = path.includes("?") ? "&" : "?";
  for (let i = 0; i < 200; i++) {
    const response = await o.test.request(
      "GET",
      `${path}${separator}limit=${limit}${page ? `&page=${page}` : ""}`,
      {
        token,
      },
    );
    if (response.status !== 200) return { status: response.status, ids, counts: [...counts] };
    ids.push(...response.body.items.map((item: any) => item.id ?? item.team?.id ?? item.user?.id));
    counts.add(response.body.count);
    page = response.body.next?.page;
    if (!page) return { status: 200, ids, counts: [...counts] };
  }
  throw new Error("Too many pages");
}

/** Every list's `count` equals the items paged, for each caller; answers the admin's counts. */
async function expectExact(o: Org, callers: Record<string, { token: string }>, collections: string[]) {
  const lists = [
    `/orgs/${o.org}/spaces`,
    `/orgs/${o.other}/spaces`,
    `/orgs/${o.org}/collections`,
    `/orgs/${o.org}/collections?nested=false`,
    `/orgs/${o.org}/members`,
    `/orgs/${o.org}/members?role=read&sort=joinedAt`,
    `/orgs/${o.org}/teams`,
    ...collections.map((collection) => `/collections/${collection}/spaces`),
  ];
  const seen: Record<string, number> = {};
  for (const [name, caller] of Object.entries(callers)) {
    for (const path of lists) {
      const { status, ids, counts } = await pageAll(o, path, caller.token);
      if (status !== 200) continue; // A list the caller may not read (a guest's collection: 404).
      expect({ name, path, counts }).toEqual({ name, path, counts: [ids.length] });
      expect(new Set(ids).size).toBe(ids.length);
      if (name === "admin") seen[path] = ids.length;
    }
  }
  return seen;
}

describe.each(Object.entries(KINDS))("list counts on %s", (_kind, storage) => {
  it("stay exact through creates, deletes, restores, purges, moves, transfers and role changes", async () => {
    const o = await organization(storage());
    const { admin, org, other, call } = o;
    const reader = await o.join("Reader", "read");
    const editor = await o.join("Editor", "edit");
    const guest = await o.join("Guest", null);
    const callers = { admin, reader, editor, guest };
    const createSpace = async (parent?: string) =>
      (await call("POST", `/orgs/${org}/spaces`, admin.token, parent ? { parent } : {})).body.id as string;

    const top = (await call("POST", `/orgs/${org}/collections`, admin.token, { title: "Top" })).body.id;
    const nested = (await call("POST", `/orgs/${org}/collections`, admin.token, { title: "In", parent: top }))
      .body.id;
    const spaces = [await createSpace(), await createSpace(), await createSpace(), await createSpace(top)];
    spaces.push(await createSpace(top), await createSpace(nested));
    const collections = [top, nested];
    let counts = await expectExact(o, callers, collections);
    expect(counts[`/orgs/${org}/spaces`]).toBe(6);
    expect(counts[`/collections/${top}/spaces`]).toBe(2);
    expect(counts[`/orgs/${org}/collections`]).toBe(2);
    expect(counts[`/orgs/${org}/collections?nested=false`]).toBe(1);
    expect(counts[`/orgs/${org}/members`]).toBe(4);

    // Delete, restore, delete again and purge.
    await call("DELETE", `/spaces/${spaces[0]}`, admin.token);
    await call("DELETE", `/spaces/${spaces[3]}`, admin.token);
    counts = await expectExact(o, callers, collections);
    expect(counts[`/orgs/${org}/spaces`]).toBe(4);
    expect(counts[`/collections/${top}/spaces`]).toBe(1);
    await call("POST", `/spaces/${spaces[3]}/restore`, admin.token);
    await expectExact(o, callers, collections);
    o.advance(8 * 24 * 60 * 60 * 1000);
    await o.test.docsbase.runJobs();
    counts = await expectExact(o, callers, collections);
    expect(counts[`/orgs/${org}/spaces`]).toBe(5);

    // Moves between collections and the root, a transfer to another organization, a duplicate.
    await call("POST", `/spaces/${spaces[1]}/move`, admin.token, { parent: nested });
    await call("POST", `/spaces/${spaces[4]}/move`, admin.token, { parent: null });
    counts = await expectExact(o, callers, collections);
    expect(counts[`/collections/${nested}/spaces`]).toBe(2);
    await call("POST", `/spaces/${spaces[2]}/transfer`, admin.token, { organization: other });
    await call("POST", `/spaces/${spaces[4]}/duplicate`, admin.token);
    counts = await expectExact(o, callers, collections);
    expect(counts[`/orgs/${org}/spaces`]).toBe(5);
    expect(counts[`/orgs/${other}/spaces`]).toBe(1);

    // A collection moved to the root, then deleted with its spaces.
    await call("POST", `/collections/${nested}/move`, admin.token, { parent: null });
    counts = await expectExact(o, callers, collections);
    expect(counts[`/orgs/${org}/collections?nested=false`]).toBe(2);
    await call("DELETE", `/collections/${nested}`, admin.token);
    counts = await expectExact(o, callers, [top]);
    expect(counts[`/orgs/${org}/spaces`]).toBe(3);
    expect(counts[`/orgs/${org}/collections`]).toBe(1);

    // Permission changes: roles, teams, removal.
    await call("PUT", `/orgs/${org}/teams`, admin.token, {
      title: "Writers",
      members: [reader.id, editor.id],
    });
    await call("PATCH", `/orgs/${org}/members/${reader.id}`, admin.token, { role: null });
    await call("PATCH", `/orgs/${org}/members/${guest.id}`, admin.token, { role: "read" });
    counts = await expectExact(o, callers, [top]);
    expect(counts[`/orgs/${org}/members?role=read&sort=joinedAt`]).toBe(1);
    expect((await pageAll(o, `/orgs/${org}/spaces`, reader.token)).ids).toEqual([]);
    expect((await pageAll(o, `/orgs/${org}/spaces`, guest.token)).ids).toHaveLength(3);
    await call("DELETE", `/orgs/${org}/members/${editor.id}`, admin.token);
    counts = await expectExact(o, { admin, reader, guest }, [top]);
    expect(counts[`/orgs/${org}/members`]).toBe(3);
    const [team] = (await call("GET", `/orgs/${org}/teams`, admin.token)).body.items;
    expect(team.members).toBe(1); // The removed member left the team.
  });
});

describe("counts of a database written before counters", () => {
  it("are computed once on open, then maintained", async () => {
    const filename = sqliteFile();
    const before = await organization(sqliteStorage({ filename }));
    const reader = await before.join("Reader", "read");
    for (let i = 0; i < 3; i++)
      await before.call("POST", `/orgs/${before.org}/spaces`, before.admin.token, {});
    await before.test.docsbase.close();
    // What the earlier release left: the same records, no counters table at all.
    const db = new Database(filename);
    db.exec(`DROP TABLE "counters"`);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'counters'`).get()).toEqual({
      n: 0,
    });
    db.close();

    const reopened = await createTestDocsbase({ storage: sqliteStorage({ filename }) });
    const o: Org = {
      ...before,
      test: reopened,
      call: (method, path, token, body) => reopened.request(method, path, { token, body }),
    };
    const spaces = `/orgs/${o.org}/spaces`;
    expect(await pageAll(o, spaces, reader.token)).toEqual({
      status: 200,
      ids: expect.any(Array),
      counts: [3],
    });
    await o.call("POST", spaces, o.admin.token, {});
    expect((await pageAll(o, spaces, reader.token)).counts).toEqual([4]);
    await reopened.docsbase.close();
    // The counters are stored: counting no longer needs the spaces.
    const check = new Database(filename);
    const rows = check.prepare(`SELECT pk, doc FROM "counters"`).all() as { pk: string; doc: string }[];
    check.close();
    const key = JSON.stringify(["spaces", "byOrganization", [o.org, "live"]]);
    expect(rows.find((row) => row.pk === key)?.doc).toContain('"count":4');
  });
});

describe("a page of a list", () => {
  /** Memory storage that counts the records each transaction reads and the range counts it asks. */
  function countingStorage() {
    const inner = memoryStorage();
    const reads = { records: 0, counts: 0 };
    const wrap = <T extends ReadTransaction>(tx: T): T => ({
      ...tx,
      get: async (table, key) => {
        const record = await tx.get(table, key);
        if (record) reads.records++;
        return record;
      },
      list: async (table, query) => {
        const records = await tx.list(table, query);
        reads.records += records.length;
        return records;
      },
      count: (table, query) => {
        reads.counts++;
        return tx.count(table, query);
      },
      ...("put" in tx
        ? {
            put: (tx as unknown as WriteTransaction).put.bind(tx),
            delete: (tx as unknown as WriteTransaction).delete.bind(tx),
          }
        : {}),
    });
    const storage: Storage = {
      init: (schema) => inner.init(schema),
      read: (fn) => inner.read((tx) => fn(wrap(tx))),
      write: (fn) => inner.write((tx) => fn(wrap(tx))),
      close: () => inner.close(),
    };
    return { storage, reads };
  }

  async function readsOfOnePage(spaces: number) {
    const { storage, reads } = countingStorage();
    const o = await organization(storage);
    const member = await o.join("Member", "read");
    const guest = await o.join("Guest", null);
    const client = o.test.docsbase.as({ token: o.admin.token });
    for (let i = 0; i < spaces; i++) await client.createSpace({ organizationId: o.org, body: {} });
    const measure = async (token: string, page?: string) => {
      // The clock ticks on every read, so what depends on time must not depend on how often it is
      // read (the test double's journal reads it too): tokens are not cached (a 5 s lifetime), and a
      // token's use, recorded at most once a minute, is recorded here rather than during the measure.
      await o.test.request("GET", "/user", { token });
      reads.records = 0;
      reads.counts = 0;
      const response = await o.test.request(
        "GET",
        `/orgs/${o.org}/spaces?limit=100${page ? `&page=${page}` : ""}`,
        {
          token,
        },
      );
      expect(response.status).toBe(200);
      return {
        ...reads,
        items: response.body.items.length,
        count: response.body.count,
        next: response.body.next,
      };
    };
    const first = await measure(member.token);
    const second = await measure(member.token, first.next.page);
    return { first, second, admin: await measure(o.admin.token), guest: await measure(guest.token) };
  }

  it(
    "reads as many records in an organization of 2,000 spaces as in one of 300",
    { timeout: 120_000 },
    async () => {
      const small = await readsOfOnePage(300);
      const large = await readsOfOnePage(2000);
      expect([small.first.count, large.first.count]).toEqual([300, 2000]);
      expect([small.first.items, large.first.items, large.second.items]).toEqual([100, 100, 100]);
      for (const key of ["first", "second", "admin", "guest"] as const) {
        expect({ key, records: large[key].records }).toEqual({ key, records: small[key].records });
        // The storage counts no range: `count` is one counter record.
        expect({ key, counts: large[key].counts }).toEqual({ key, counts: 0 });
      }
      expect(large.guest).toMatchObject({ items: 0, count: 0 });
      // A page reads its items, the one after them, and a few records of the caller and the counter.
      expect(large.first.records).toBeLessThan(150);
    },
  );
});

describe("content visibility", () => {
  it("follows from the organization role alone where nothing is granted, as lists assume", async () => {
    const levels: DefaultLevel[] = [...MEMBER_ROLES, null, "inherit"];
    for (const role of [...MEMBER_ROLES, null]) {
      const membership = { role, organization: { id: "o" }, member: { user: "u" } } as Membership;
      for (const level of levels) {
        for (const parentLevel of levels) {
          // The item sits in collection "c" whose own level is `parentLevel`, at the root.
          const parent = { id: "c", parent: "", defaultLevel: parentLevel };
          // No team, no grant: every grant read finds nothing.
          const tx = {
            get: async (_table: unknown, id: string) => (id === "c" ? parent : undefined),
            list: async () => [],
          };
          const found = await contentRole(tx as unknown as ReadTransaction, membership, {
            id: "s",
            defaultLevel: level,
            parent: "c",
          });
          const expected = viewsAllContent(membership);
          expect({
            role,
            level,
            parentLevel,
            view: spacePermissions(found, { editMode: "live" }).view,
          }).toEqual({
            role,
            level,
            parentLevel,
            view: expected,
          });
          expect(collectionPermissions(found).view).toBe(expected);
        }
      }
    }
    expect(viewsAllContent({ role: null } as Membership)).toBe(false);
  });
});
