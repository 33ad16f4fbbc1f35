import { type CollectionRecord, collectionsTable } from "../collections/tables.js";
import { type Grantee, type GrantRecord, grantsTable } from "../grants/tables.js";
import { mapWithin, type Page, type PageRequest, paginateSorted } from "../shared/pagination.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { type Membership, teamsOf } from "./membership.js";

/** Live spaces and collections, each in its organization list's order: what grants reach. */
export interface VisibleContent {
  readonly spaces: readonly SpaceRecord[];
  readonly collections: readonly CollectionRecord[];
}

const byPosition = (a: { position: string; id: string }, b: { position: string; id: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Who grants name: a user or a team, by id. */
export type Grantees = readonly (readonly [Grantee, string])[];

/** A user and the teams they belong to in `organization`: whose grants give the user a role. */
export async function granteesOf(tx: ReadTransaction, organization: string, user: string): Promise<Grantees> {
  const teams = await teamsOf(tx, organization, user);
  return [["user", user], ...teams.map((team) => ["team", team] as const)];
}

/**
 * What a guest may view (see `viewsAllContent`): the spaces and collections granted to them or to
 * one of their teams, and everything inside a granted collection, at any depth.
 */
export async function visibleContent(tx: ReadTransaction, membership: Membership): Promise<VisibleContent> {
  const organization = membership.organization.id;
  return contentReachedBy(tx, organization, await granteesOf(tx, organization, membership.member.user));
}

/**
 * The live spaces and the collections of `organization` that grants to these grantees reach: those
 * granted directly, and everything inside a granted collection, at any depth. This is where a grant
 * gives a role, whatever the organization gives besides: a guest's whole view of the content, a
 * member's or a team's `spaces`.
 *
 * Built from the grants index by grantee and the collections' children, so it costs what was
 * granted, never a scan of the organization's content.
 */
export async function contentReachedBy(
  tx: ReadTransaction,
  organization: string,
  grantees: Grantees,
): Promise<VisibleContent> {
  const grants: GrantRecord[] = [];
  for (const [kind, id] of grantees) {
    grants.push(...(await tx.list(grantsTable, { index: "byGrantee", where: [organization, kind, id] })));
  }
  const spaces = new Map<string, SpaceRecord>();
  const collections = new Map<string, CollectionRecord>();
  const pending: CollectionRecord[] = [];
  // Collections nest; each is walked once, which also guards against a corrupt cycle.
  const addCollection = (collection: CollectionRecord | undefined) => {
    if (!collection || collection.organization !== organization || collections.has(collection.id)) return;
    collections.set(collection.id, collection);
    pending.push(collection);
  };
  const addSpace = (space: SpaceRecord | undefined) => {
    if (space?.organization === organization && space.state === "live") spaces.set(space.id, space);
  };
  for (const grant of grants) {
    if (grant.target === "space") addSpace(await tx.get(spacesTable, grant.object));
    else addCollection(await tx.get(collectionsTable, grant.object));
  }
  for (let collection = pending.pop(); collection; collection = pending.pop()) {
    const parent = [organization, collection.id];
    for (const child of await tx.list(collectionsTable, { index: "byParent", where: parent }))
      addCollection(child);
    for (const space of await tx.list(spacesTable, { index: "byParent", where: [...parent, "live"] }))
      addSpace(space);
  }
  return {
    spaces: [...spaces.values()].sort(byPosition),
    collections: [...collections.values()].sort(byPosition),
  };
}

/**
 * One page of a visible set, presented: the guests' side of a list whose members' side pages an
 * index. `scope` binds the page tokens to the list; `maxChars`, as `paginate`'s, ends the page
 * before the item that would take its JSON past it.
 */
export async function pageOfVisible<R extends { position: string; id: string }, T>(
  records: readonly R[],
  request: PageRequest,
  scope: string,
  present: (record: R) => Promise<T>,
  maxChars?: number,
): Promise<Page<T>> {
  const options = { scope, position: (record: R) => [record.position, record.id] };
  const page = paginateSorted(records, request, options);
  if (maxChars === undefined) return { ...page, items: await Promise.all(page.items.map(present)) };
  const { items, kept } = await mapWithin(page.items, present, maxChars);
  // Ended early: the page of the records kept gives the `next` that resumes after them.
  const ended =
    kept.length < page.items.length
      ? paginateSorted(records, { ...request, limit: kept.length }, options)
      : page;
  return { ...ended, items };
}
