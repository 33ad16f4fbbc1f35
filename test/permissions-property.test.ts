import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grantsTable } from "../src/core/grants/tables.js";
import { atLeast, type DefaultLevel, MEMBER_ROLES, type Role, strongest } from "../src/core/shared/roles.js";
import { createWorkspace, type Requester, type Workspace } from "./support/workspace.js";

/**
 * One resolution, proven (issue 24, item 6): for generated organizations (members of every role
 * and guests, teams, collection trees two or three levels deep with random `defaultLevel`s, spaces
 * in them, random grants to users and teams), every caller's `permissions` flags on every space and
 * collection are what the rules give (the model below), each flag is true exactly where the call it
 * stands for succeeds (view, admin; on spaces also edit, comment, review and merge), and the
 * organization's lists show exactly what the caller may view. Then a member is removed and a team
 * deleted through the API, and what their grants gave is gone.
 *
 * Seeded: a failure prints the seed and the shrunk scenario (fast-check's report); rerun with
 * PERMISSIONS_SEED=<seed>.
 */
const RUNS = 30;
const SEED = Number(process.env["PERMISSIONS_SEED"] ?? 20261126);

type Level = DefaultLevel;
const LEVELS: Level[] = ["inherit", null, ...MEMBER_ROLES];
const ORG_ROLES: (Role | null)[] = [...MEMBER_ROLES, null];

interface Scenario {
  /** Organization roles of the members besides the owner (an admin); null is a guest. */
  members: (Role | null)[];
  /** Each team's members, as indexes into `members`. */
  teams: number[][];
  /**
   * Each collection's parent (an earlier collection's index, or -1 for the root) and level. Objects
   * are numbered collections first, so a parent's index is its index among the objects too.
   */
  collections: { parent: number; level: Level }[];
  spaces: { parent: number; level: Level }[];
  grants: { object: number; kind: "user" | "team"; grantee: number; role: Role }[];
  /** Which member is removed and which team deleted at the end (taken modulo their counts). */
  removed: number;
  deleted: number;
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    members: fc.array(fc.constantFrom(...ORG_ROLES), { minLength: 2, maxLength: 4 }),
    teamCount: fc.integer({ min: 1, max: 2 }),
    collectionParents: fc.array(fc.integer({ min: -1, max: 4 }), { minLength: 1, maxLength: 4 }),
    collectionLevels: fc.array(fc.constantFrom(...LEVELS), { minLength: 4, maxLength: 4 }),
    spaces: fc.array(
      fc.record({ parent: fc.integer({ min: -1, max: 3 }), level: fc.constantFrom(...LEVELS) }),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    teamMembers: fc.array(fc.array(fc.nat(3), { maxLength: 3 }), { minLength: 2, maxLength: 2 }),
    grants: fc.array(
      fc.record({
        object: fc.nat(6),
        kind: fc.constantFrom("user" as const, "team" as const),
        grantee: fc.nat(3),
        role: fc.constantFrom(...MEMBER_ROLES),
      }),
      { maxLength: 6 },
    ),
    removed: fc.nat(3),
    deleted: fc.nat(1),
  })
  .map(({ members, teamCount, collectionParents, collectionLevels, spaces, teamMembers, ...rest }) => {
    // A parent is an earlier collection at most two levels deep, so trees are at most three deep.
    const depth: number[] = [];
    const collections = collectionParents.map((wanted, index) => {
      const parent = wanted < index && wanted >= 0 && depth[wanted]! < 2 ? wanted : -1;
      depth.push(parent < 0 ? 0 : depth[parent]! + 1);
      return { parent, level: collectionLevels[index]! };
    });
    return {
      ...rest,
      members,
      teams: teamMembers
        .slice(0, teamCount)
        .map((team) => [...new Set(team.filter((m) => m < members.length))]),
      collections,
      spaces: spaces.map((space) => ({
        ...space,
        parent: space.parent < collections.length ? space.parent : -1,
      })),
    };
  });

/** The objects of a built scenario, and the members as the API knows them. */
interface Built {
  readonly w: Workspace;
  readonly members: { id: string; role: Role | null; request: Requester }[];
  readonly teams: { id: string; members: Set<number> }[];
  readonly objects: { kind: "collection" | "space"; id: string; parent: number; level: Level }[];
  readonly grants: { object: number; kind: "user" | "team"; grantee: number; role: Role }[];
}

async function build(s: Scenario): Promise<Built> {
  const w = await createWorkspace();
  const members: Built["members"][number][] = [];
  for (const role of s.members) {
    const request = await w.member(role);
    members.push({ id: request.userId, role, request });
  }
  const teams: Built["teams"][number][] = [];
  for (const [index, team] of s.teams.entries()) {
    const ids = team.map((member) => members[member]!.id);
    const created = await w.api("PUT", `/orgs/${w.org}/teams`, { title: `Team ${index}`, members: ids });
    if (created.status !== 201) throw new Error(`could not create a team: ${JSON.stringify(created.body)}`);
    teams.push({ id: created.body.id as string, members: new Set(team) });
  }
  const objects: Built["objects"] = [];
  for (const collection of s.collections) {
    const parent = collection.parent >= 0 ? { parent: objects[collection.parent]!.id } : {};
    const id = await w.collection({ title: "C", ...parent });
    await w.api("PATCH", `/collections/${id}`, { defaultLevel: collection.level });
    objects.push({ kind: "collection", id, ...collection });
  }
  for (const space of s.spaces) {
    const parent = space.parent >= 0 ? { parent: objects[space.parent]!.id } : {};
    const id = await w.space({ title: "S", ...parent });
    await w.api("PATCH", `/spaces/${id}`, { defaultLevel: space.level });
    objects.push({ kind: "space", id, ...space });
  }
  // Granted through the operations, in order, by the owner: each scenario exercises them too.
  const grants = s.grants
    .map((grant) => ({ ...grant, object: grant.object % objects.length }))
    .filter((grant) =>
      grant.kind === "user" ? grant.grantee < members.length : grant.grantee < teams.length,
    );
  for (const grant of grants) {
    const object = objects[grant.object]!;
    const grantee =
      grant.kind === "user" ? { users: [members[grant.grantee]!.id] } : { teams: [teams[grant.grantee]!.id] };
    const body = { role: grant.role, ...grantee };
    if (object.kind === "space") await w.client.inviteToSpace({ spaceId: object.id, body });
    else await w.client.inviteToCollection({ collectionId: object.id, body });
  }
  // A later grant to the same grantee on the same object replaced the earlier one.
  const kept = new Map(grants.map((grant) => [`${grant.object}:${grant.kind}:${grant.grantee}`, grant]));
  return { w, members, teams, objects, grants: [...kept.values()] };
}

/**
 * The model: a caller's role on object `index`, written from the rules (docs/permissions.md), not
 * from the code. An admin is admin everywhere; otherwise the strongest of the organization role,
 * the grants to the caller or their teams on the object and every collection above it, and (for
 * non-guests) the nearest `defaultLevel` other than `inherit`.
 */
function modelRole(
  b: Built,
  caller: number,
  index: number,
  gone: { member?: number; team?: number },
): Role | null {
  if (caller === gone.member) return null;
  const role = caller < 0 ? "admin" : b.members[caller]!.role;
  if (role === "admin") return "admin";
  const teams = b.teams.flatMap((team, t) => (t !== gone.team && team.members.has(caller) ? [t] : []));
  let best: Role | null = role;
  let level: Level = "inherit";
  for (let at = index; at >= 0; at = b.objects[at]!.parent) {
    const object = b.objects[at]!;
    if (level === "inherit") level = object.level;
    for (const grant of b.grants) {
      if (grant.object !== at) continue;
      if (
        (grant.kind === "user" && grant.grantee === caller) ||
        (grant.kind === "team" && teams.includes(grant.grantee))
      ) {
        best = strongest(best, grant.role);
      }
    }
  }
  return role === null ? best : strongest(best, level === "inherit" ? null : level);
}

/**
 * What the caller's requests answer and report, for one object, as `[flag, call succeeded]` pairs.
 * On a space, `review` and `merge` act on a change request the owner opens for this check alone:
 * the caller reviews it, then merges it. The owner, its author, is not asked to review it (an
 * author may never review their own change request, whatever their role).
 */
async function observe(
  b: Built,
  caller: number,
  request: Requester,
  index: number,
): Promise<Record<string, [boolean, boolean]>> {
  const object = b.objects[index]!;
  const ok = (status: number) => status >= 200 && status < 300;
  if (object.kind === "collection") {
    const read = await request("GET", `/collections/${object.id}`);
    const flags = read.body?.permissions ?? { view: false, admin: false };
    const admin = await request("PATCH", `/collections/${object.id}`, { defaultLevel: object.level });
    return { view: [flags.view, ok(read.status)], admin: [flags.admin, ok(admin.status)] };
  }
  const read = await request("GET", `/spaces/${object.id}`);
  const flags = read.body?.permissions ?? {
    view: false,
    edit: false,
    admin: false,
    comment: false,
    review: false,
    merge: false,
  };
  const edit = await request("PATCH", `/spaces/${object.id}`, { title: "S" });
  const admin = await request("PATCH", `/spaces/${object.id}`, { defaultLevel: object.level });
  const comment = await request("POST", `/spaces/${object.id}/comments`, { body: { markdown: "c" } });
  const opened = await b.w.api("POST", `/spaces/${object.id}/change-requests`, { subject: "Check" });
  if (opened.status !== 201)
    throw new Error(`could not open a change request: ${JSON.stringify(opened.body)}`);
  const changeRequest = `/spaces/${object.id}/change-requests/${opened.body.id as string}`;
  const observed: Record<string, [boolean, boolean]> = {
    view: [flags.view, ok(read.status)],
    edit: [flags.edit, ok(edit.status)],
    admin: [flags.admin, ok(admin.status)],
    comment: [flags.comment, ok(comment.status)],
  };
  if (caller >= 0) {
    const review = await request("POST", `${changeRequest}/reviews`, { status: "approved" });
    observed["review"] = [flags.review, ok(review.status)];
  }
  const merge = await request("POST", `${changeRequest}/merge`);
  observed["merge"] = [flags.merge, ok(merge.status)];
  return observed;
}

/** The flags the model gives a role, as the responses name them (`review` where it was asked). */
function modelFlags(
  role: Role | null,
  kind: "collection" | "space",
  asked: Record<string, unknown>,
): Record<string, boolean> {
  const base = { view: atLeast(role, "read"), admin: atLeast(role, "admin") };
  if (kind === "collection") return base;
  return {
    ...base,
    edit: atLeast(role, "edit"),
    comment: atLeast(role, "comment"),
    ...("review" in asked ? { review: atLeast(role, "review") } : {}),
    merge: atLeast(role, "edit"),
  };
}

/** Checks every caller on every object, and the organization's lists, against the model. */
async function check(b: Built, gone: { member?: number; team?: number }): Promise<void> {
  const callers: [number, Requester][] = [
    [-1, b.w.api],
    ...b.members.map((m, i): [number, Requester] => [i, m.request]),
  ];
  for (const [caller, request] of callers) {
    const who = caller < 0 ? "owner" : `member ${caller} (${b.members[caller]!.role ?? "guest"})`;
    const viewable = new Set<string>();
    for (const [index, object] of b.objects.entries()) {
      const role = modelRole(b, caller, index, gone);
      const observed = await observe(b, caller, request, index);
      const where = `${who} on ${object.kind} ${index}`;
      for (const [action, [flag, succeeded]] of Object.entries(observed)) {
        expect(flag, `${where}: the ${action} flag differs from whether the call succeeds`).toBe(succeeded);
      }
      const flags = Object.fromEntries(Object.entries(observed).map(([action, [flag]]) => [action, flag]));
      expect(flags, `${where}: the flags differ from the model's role ${role}`).toEqual(
        modelFlags(role, object.kind, observed),
      );
      if (role) viewable.add(object.id);
    }
    if (caller === gone.member) {
      expect((await request("GET", `/orgs/${b.w.org}/spaces`)).status, `${who} removed`).toBe(404);
      continue;
    }
    for (const kind of ["spaces", "collections"] as const) {
      const listed = (await request("GET", `/orgs/${b.w.org}/${kind}`)).body.items.map(
        (item: { id: string }) => item.id,
      );
      const expected = b.objects.filter((o) => `${o.kind}s` === kind && viewable.has(o.id)).map((o) => o.id);
      expect(new Set(listed), `${who}: GET /orgs/{id}/${kind} lists exactly what they may view`).toEqual(
        new Set(expected),
      );
    }
  }
}

describe("one resolution of roles, proven on generated organizations", () => {
  it("reports each permission exactly where its call succeeds, lists what may be viewed, and forgets removed grantees", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const b = await build(s);
        await check(b, {});

        const member = s.removed % b.members.length;
        const team = s.deleted % b.teams.length;
        expect((await b.w.api("DELETE", `/orgs/${b.w.org}/members/${b.members[member]!.id}`)).status).toBe(
          205,
        );
        const deletion = await b.w.api("DELETE", `/orgs/${b.w.org}/teams/${b.teams[team]!.id}`);
        expect(deletion.status, `deleting the team ${JSON.stringify(b.teams)}`).toBe(205);
        const left = await b.w.storage.read((tx) => tx.list(grantsTable, { index: "byObject", where: [] }));
        const grantees = new Set(left.map((grant) => grant.grantee));
        expect(grantees.has(b.members[member]!.id), "the removed member's grants are gone").toBe(false);
        expect(grantees.has(b.teams[team]!.id), "the deleted team's grants are gone").toBe(false);
        await check(b, { member, team });
      }),
      { numRuns: RUNS, seed: SEED, verbose: true },
    );
  });
});
