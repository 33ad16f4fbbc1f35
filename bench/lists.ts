/**
 * Lists that cost a page (issue 8, item 4): one page (limit 100) of `listSpacesInOrganizationById`
 * in organizations of 1,000 and 100,000 spaces, on memory and SQLite, as an organization admin and
 * as a `read` member (whose visibility the permission rules decide), for the first page and the
 * last one (page 1,000 of 100,000 spaces; page 10 of 1,000). Median and p95 of a few hundred calls
 * through the in-process client (`invoke`: validation, access, one read transaction).
 *
 * The spaces are seeded by running the `createSpace` operation itself, thousands per write
 * transaction, over the same counted storage docsbase uses: the records are exactly those a
 * `POST /orgs/{id}/spaces` writes (space, revision, counters), without a transaction per space.
 */
import { DerivedCache } from "../src/core/shared/cache.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { api } from "../src/core/operations.js";
import { countedStorage } from "../src/core/shared/counters.js";
import { randomId, type Context, type World } from "../src/core/shared/world.js";
import { createSpace } from "../src/core/spaces/operations.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";

const SIZES = (process.env["LIST_SIZES"] ?? "1000,100000").split(",").map(Number);
const CALLS = 300;
const LIMIT = 100;
/**
 * Spaces created per seeding transaction: the memory adapter's pending writes are searched by each
 * read of the transaction, so it prefers small ones; SQLite prefers fewer commits.
 */
const SEED_BATCH = { memory: 20, sqlite: 50 } as const;

export async function benchLists(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-bench-lists-"));
  try {
    for (const size of SIZES) {
      await benchOne("memory", memoryStorage(), size);
      await benchOne("sqlite", sqliteStorage({ filename: join(directory, `lists-${size}.sqlite`) }), size);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function benchOne(name: keyof typeof SEED_BATCH, storage: Storage, size: number): Promise<void> {
  const test = await createTestDocsbase({ storage });
  const admin = await test.createUser("Admin", "admin@lists.bench");
  const member = await test.createUser("Reader", "reader@lists.bench");
  const org: string = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Big" } }))
    .body.id;
  await test.request("POST", `/orgs/${org}/invites`, {
    token: admin.token,
    body: { emails: [{ email: "reader@lists.bench", role: "read" }] },
  });
  const [invite] = (await test.request("GET", "/user/invites", { token: member.token })).body.items;
  await test.request("POST", `/user/invites/${invite.id}/accept`, { token: member.token });

  const started = performance.now();
  await seedSpaces(storage, admin.id, org, size, SEED_BATCH[name]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${name}: seeded ${size.toLocaleString("en")} spaces through createSpace in ${seconds} s`);

  for (const [role, token] of [
    ["read member", member.token],
    ["admin", admin.token],
  ] as const) {
    const client = test.docsbase.as({ token });
    const list = (page?: string) =>
      client.listSpacesInOrganizationById({ organizationId: org, limit: LIMIT, ...(page ? { page } : {}) });
    // The last page's token, found by walking the list once.
    let last: string | undefined;
    let pages = 1;
    for (let page = await list(); page.next; pages++) {
      last = page.next.page;
      page = await list(last);
    }
    const first = await list();
    if (first.count !== size || first.items.length !== LIMIT) throw new Error("Unexpected list answer");
    for (const [label, page] of [
      ["page 1", undefined],
      [`page ${pages.toLocaleString("en")}`, last],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const start = performance.now();
        await list(page);
        times.push(performance.now() - start);
      }
      report(`${name}: listSpaces ${size.toLocaleString("en")} spaces, ${role}, ${label}`, times);
    }
  }
  await test.docsbase.close();
}

/** Runs `createSpace` `count` times as `admin`, thousands per write transaction. */
async function seedSpaces(
  storage: Storage,
  admin: string,
  organization: string,
  count: number,
  perTransaction: number,
): Promise<void> {
  const world: World = {
    storage: countedStorage(storage, api.counts),
    clock: () => new Date(),
    ids: () => randomId(),
    baseUrl: "http://docsbase.bench",
    appUrl: "http://docsbase.bench",
    cache: new DerivedCache(16 * 1024 * 1024),
    fetch: () => Promise.reject(new Error("no network while seeding")),
    lifecycle: api.lifecycle(() => world),
    hostnames: { verify: true, resolveTxt: null },
  };
  const context: Context = { ...world, caller: { userId: admin, operator: false } };
  const params = { organizationId: organization };
  for (let done = 0; done < count;) {
    const batch = Math.min(perTransaction, count - done);
    await world.storage.write(async (tx) => {
      const access = await createSpace.access.resolve(tx, context, params, {});
      for (let i = 0; i < batch; i++) {
        await createSpace.run({ ...context, ...access, tx }, { params, query: {}, body: {} });
      }
    });
    done += batch;
  }
}

function report(label: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  console.log(
    `${label.padEnd(64)} median ${at(0.5).toFixed(2).padStart(7)} ms   p95 ${at(0.95).toFixed(2).padStart(7)} ms`,
  );
}
