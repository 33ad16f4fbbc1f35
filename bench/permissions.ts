/**
 * Permissions with 200 grants (issue 24, "Show"): `GET /v1/spaces/{id}` and a space search
 * (`GET /v1/spaces/{id}/search?query=...`) as a `read` member, through the HTTP handler
 * (`docsbase.fetch`), on memory and SQLite, for a space under a chain of four collections with no
 * grants and for the same shape with 200 grants spread over its chain (40 on each collection and
 * on the space: to other users and other teams, and one to the caller's team). Both spaces live
 * in one organization and are measured in alternating rounds, so warm-up and machine noise fall on
 * both alike (PERMISSIONS_ROUNDS, 10 by default). Median and p95 of each; the ratio is of the
 * medians. `npm run bench -- permissions`.
 *
 * The grants are given through the grant operations before the rounds: the figure is of the
 * resolution reading them, not of granting.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { MEMBER_ROLES } from "../src/core/shared/roles.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";

const BASE = "http://docsbase.test";
const GRANTS = 200;
const DEPTH = 4;
const ROUNDS = Number(process.env["PERMISSIONS_ROUNDS"] ?? 10);
const GETS_PER_ROUND = 200;
const SEARCHES_PER_ROUND = 50;
const OTHER_TEAMS = 9;
/** Members granted a role besides the caller: as many as one object's grants, so none repeats on it. */
const OTHER_USERS = 40;
const PAGES = 20;
const WORDS = "permission grant collection space review merge handbook guide team member".split(" ");

export async function benchPermissions(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-bench-permissions-"));
  try {
    await benchOne("memory", memoryStorage());
    await benchOne("sqlite", sqliteStorage({ filename: join(directory, "permissions.sqlite") }));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function benchOne(name: string, storage: Storage): Promise<void> {
  const test = await createTestDocsbase({ storage, baseUrl: BASE });
  const admin = await test.createUser("Admin", `admin@${name}.bench`);
  const reader = await test.createUser("Reader", `reader@${name}.bench`);
  const as = (token: string) => async (method: string, path: string, body?: unknown) => {
    const response = await test.docsbase.fetch(
      new Request(`${BASE}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read loosely
    return (await response.json()) as Record<string, any>;
  };
  const api = as(admin.token);
  const org = (await api("POST", "/orgs", { title: "Bench" }))["id"] as string;
  await api("POST", `/orgs/${org}/invites`, { emails: [{ email: `reader@${name}.bench`, role: "read" }] });
  const read = as(reader.token);
  const [invite] = (await read("GET", "/user/invites"))["items"];
  await read("POST", `/user/invites/${invite.id}/accept`);
  const team = (await api("PUT", `/orgs/${org}/teams`, { title: "Readers", members: [reader.id] }))["id"];
  const others: string[] = [];
  for (let i = 0; i < OTHER_TEAMS; i++) {
    others.push((await api("PUT", `/orgs/${org}/teams`, { title: `Team ${i}` }))["id"] as string);
  }
  // A grant names a member: the other users join as guests, whose grants give them all they have.
  const users: { id: string; token: string }[] = [];
  for (let i = 0; i < OTHER_USERS; i++)
    users.push(await test.createUser(`User ${i}`, `user${i}@${name}.bench`));
  const emails = users.map((_, i) => ({ email: `user${i}@${name}.bench`, role: null }));
  await api("POST", `/orgs/${org}/invites`, { emails });
  for (const user of users) {
    const [invited] = (await as(user.token)("GET", "/user/invites"))["items"];
    await as(user.token)("POST", `/user/invites/${invited.id}/accept`);
  }

  /** A space under `DEPTH` nested collections, with pages to search; the chain's ids, space last. */
  const chain = async (title: string): Promise<string[]> => {
    const ids: string[] = [];
    for (let level = 0; level < DEPTH; level++) {
      const parent = ids.at(-1);
      ids.push(
        (await api("POST", `/orgs/${org}/collections`, { title, ...(parent ? { parent } : {}) }))["id"],
      );
    }
    const space = (await api("POST", `/orgs/${org}/spaces`, { title, parent: ids.at(-1) }))["id"] as string;
    for (let page = 0; page < PAGES; page++) {
      const markdown = Array.from({ length: 60 }, (_, i) => WORDS[(i * 7 + page) % WORDS.length]).join(" ");
      await api("POST", `/spaces/${space}/content/pages`, { title: `Page ${page}`, markdown });
    }
    return [...ids, space];
  };
  const plain = await chain("No grants");
  const granted = await chain("200 grants");

  // 40 grants on each of the five objects: to other users and other teams, and one to the
  // caller's team. The resolution reads no grant but the caller's and their teams'.
  const granting = test.as(admin);
  for (let i = 0; i < GRANTS; i++) {
    const at = i % granted.length;
    const role = i === 0 ? "comment" : MEMBER_ROLES[i % MEMBER_ROLES.length]!;
    const grantee =
      i === 0 ? { teams: [team] }
      : i % 4 === 0 ? { teams: [others[i % OTHER_TEAMS]!] }
      : { users: [users[Math.floor(i / granted.length)]!.id] };
    const body = { role, ...grantee };
    if (at === granted.length - 1) await granting.inviteToSpace({ spaceId: granted[at]!, body });
    else await granting.inviteToCollection({ collectionId: granted[at]!, body });
  } // prettier-ignore
  const space = await read("GET", `/spaces/${granted.at(-1)}`);
  if (!space["permissions"].comment) throw new Error("The caller's team grant did not apply");

  const times = { get: { plain: [], granted: [] }, search: { plain: [], granted: [] } } as Record<
    "get" | "search",
    Record<"plain" | "granted", number[]>
  >;
  const measure = async (into: number[], path: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await read("GET", path);
      into.push(performance.now() - start);
    }
  };
  for (let round = 0; round <= ROUNDS; round++) {
    // Round 0 warms up, unrecorded.
    const keep = <T>(list: T[]) => (round === 0 ? [] : list);
    for (const which of ["plain", "granted"] as const) {
      const id = (which === "plain" ? plain : granted).at(-1)!;
      await measure(keep(times.get[which]), `/spaces/${id}`, GETS_PER_ROUND);
      const query = WORDS[round % WORDS.length]!;
      await measure(keep(times.search[which]), `/spaces/${id}/search?query=${query}`, SEARCHES_PER_ROUND);
    }
  }
  for (const kind of ["get", "search"] as const) {
    const label = kind === "get" ? "GET /v1/spaces/{id}" : "GET /v1/spaces/{id}/search";
    const plainMedian = report(`${name}: ${label}, no grants`, times[kind].plain);
    const grantedMedian = report(`${name}: ${label}, ${GRANTS} grants`, times[kind].granted);
    console.log(
      `${`${name}: ${label}, ratio (medians)`.padEnd(60)} ${(grantedMedian / plainMedian).toFixed(2)}`,
    );
  }
  await test.docsbase.close();
}

/** Prints the median and p95; answers the median. */
function report(label: string, times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  console.log(
    `${label.padEnd(60)} median ${at(0.5).toFixed(3).padStart(7)} ms   p95 ${at(0.95).toFixed(3).padStart(7)} ms`,
  );
  return at(0.5);
}
