import { type Fixture, type FixtureComment, type FixturePage, FixtureError } from "./fixture.js";

/** The kinds of object a reference names, looked up in the double when the fixture does not declare them. */
export type Kind = "user" | "organization" | "collection" | "space" | "team" | "site" | "change request";

/**
 * Checks a fixture's ids and references before anything is created: every given id is unique in
 * the fixture and new to the double (for the kinds the double can be asked about), and every
 * reference names an object declared before it in the fixture, or one in the double.
 */
export async function checkReferences(
  fixture: Fixture,
  inDouble: (kind: Kind, id: string) => Promise<boolean>,
): Promise<void> {
  const given = new Map<string, string>();
  const declared = new Map<Kind, Set<string>>();
  const declare = async (kind: Kind | undefined, path: string, id: string | undefined) => {
    if (id === undefined) return;
    const earlier = given.get(id);
    if (earlier) throw new FixtureError(`${path}.id`, `duplicate id "${id}" (also ${earlier}.id)`);
    given.set(id, path);
    if (!kind) return;
    if (await inDouble(kind, id))
      throw new FixtureError(`${path}.id`, `the double already has a ${kind} "${id}"`);
    let ids = declared.get(kind);
    if (!ids) declared.set(kind, (ids = new Set()));
    ids.add(id);
  };
  const refer = async (kind: Kind, path: string, id: string | undefined) => {
    if (id === undefined || declared.get(kind)?.has(id) || (await inDouble(kind, id))) return;
    throw new FixtureError(path, `no ${kind} "${id}" in the fixture or the double`);
  };
  const pages = new Set<string>();
  const declarePages = async (path: string, list: readonly FixturePage[] | undefined) => {
    for (const [at, page] of (list ?? []).entries()) {
      await declare(undefined, `${path}[${at}]`, page.id);
      if (page.id) pages.add(page.id);
      await declarePages(`${path}[${at}].pages`, page.pages);
    }
  };
  const comments = async (path: string, list: readonly FixtureComment[] | undefined) => {
    for (const [at, comment] of (list ?? []).entries()) {
      const here = `${path}[${at}]`;
      await declare(undefined, here, comment.id);
      await refer("user", `${here}.user`, comment.user);
      if (comment.page && !pages.has(comment.page)) {
        throw new FixtureError(`${here}.page`, `no page "${comment.page}" in this space of the fixture`);
      }
      for (const [index, reply] of (comment.replies ?? []).entries()) {
        await declare(undefined, `${here}.replies[${index}]`, reply.id);
        await refer("user", `${here}.replies[${index}].user`, reply.user);
      }
    }
  };

  for (const [index, user] of (fixture.users ?? []).entries())
    await declare("user", `users[${index}]`, user.id);
  for (const [index, organization] of (fixture.organizations ?? []).entries()) {
    const path = `organizations[${index}]`;
    await declare("organization", path, organization.id);
    for (const [at, member] of (organization.members ?? []).entries()) {
      await refer("user", `${path}.members[${at}].user`, member.user);
    }
    for (const [at, team] of (organization.teams ?? []).entries()) {
      await declare("team", `${path}.teams[${at}]`, team.id);
      for (const [position, user] of (team.members ?? []).entries()) {
        await refer("user", `${path}.teams[${at}].members[${position}]`, user);
      }
    }
  }
  for (const [index, collection] of (fixture.collections ?? []).entries()) {
    const path = `collections[${index}]`;
    await refer("organization", `${path}.organization`, collection.organization);
    await refer("collection", `${path}.parent`, collection.parent);
    await declare("collection", path, collection.id);
  }
  for (const [index, space] of (fixture.spaces ?? []).entries()) {
    const path = `spaces[${index}]`;
    await refer("organization", `${path}.organization`, space.organization);
    await refer("collection", `${path}.collection`, space.collection);
    await refer("user", `${path}.author`, space.author);
    await declare("space", path, space.id);
    pages.clear();
    await declarePages(`${path}.pages`, space.pages);
    for (const [at, file] of (space.files ?? []).entries()) {
      await declare(undefined, `${path}.files[${at}]`, file.id);
      if (file.text !== undefined && file.data !== undefined) {
        throw new FixtureError(`${path}.files[${at}]`, "give `text` or `data`, not both");
      }
    }
    await comments(`${path}.comments`, space.comments);
    for (const [at, request] of (space.changeRequests ?? []).entries()) {
      const here = `${path}.changeRequests[${at}]`;
      await declare("change request", here, request.id);
      await declarePages(`${here}.pages`, request.pages);
      await comments(`${here}.comments`, request.comments);
    }
  }
  for (const [index, site] of (fixture.sites ?? []).entries()) {
    const path = `sites[${index}]`;
    await refer("organization", `${path}.organization`, site.organization);
    await declare("site", path, site.id);
    for (const [at, entry] of (site.spaces ?? []).entries()) {
      const space = typeof entry === "string" ? entry : entry.space;
      if (typeof entry !== "string") await declare(undefined, `${path}.spaces[${at}]`, entry.id);
      await refer(
        "space",
        typeof entry === "string" ? `${path}.spaces[${at}]` : `${path}.spaces[${at}].space`,
        space,
      );
    }
    for (const [at, link] of (site.shareLinks ?? []).entries())
      await declare(undefined, `${path}.shareLinks[${at}]`, link.id);
  }
}
