import type { Client } from "../core/client.js";
import type { Operations } from "../core/operations.js";
import { changeRequestsTable } from "../core/change-requests/tables.js";
import { collectionsTable } from "../core/collections/tables.js";
import { membersTable } from "../core/members/tables.js";
import { organizationsTable } from "../core/organizations/tables.js";
import { isDocsbaseError } from "../core/shared/errors.js";
import { randomId } from "../core/shared/world.js";
import { sitesTable } from "../core/sites/tables.js";
import { spacesTable } from "../core/spaces/tables.js";
import type { Storage, Table } from "../core/storage/port.js";
import { teamsTable } from "../core/teams/tables.js";
import { givenTokenProblem, storeGivenToken } from "../core/users/given-token.js";
import { tokensTable, usersTable } from "../core/users/tables.js";
import { hashToken } from "../core/users/tokens.js";
import type { Docsbase } from "../docsbase.js";
import { checkReferences, type Kind } from "./fixture-references.js";
import {
  type Fixture,
  type FixtureComment,
  type FixturePage,
  FixtureError,
  parseFixture,
} from "./fixture.js";
import type { RequestedIds } from "./fixture-ids.js";

/** What the loader needs of the double. */
export interface FixtureHost {
  readonly docsbase: Docsbase;
  /** The storage under the double, read to resolve references and written only for given tokens. */
  readonly storage: Storage;
  readonly operatorId: string;
  readonly operatorToken: string;
  readonly ids: RequestedIds;
  readonly clock: () => Date;
  /** Marks a body as the double's own, so that its call stays out of the journal. */
  own<T extends object>(body: T): T;
}

/** The tables an id of each referenced kind is looked up in, when the fixture does not declare it. */
const TABLES = {
  user: usersTable,
  organization: organizationsTable,
  collection: collectionsTable,
  space: spacesTable,
  team: teamsTable,
  site: sitesTable,
  "change request": changeRequestsTable,
} satisfies Record<Kind, Table<{ id: string }>>;

/**
 * Loads a fixture into a double: checks its shape and references whole (nothing is created when
 * they are wrong), then creates every object through the operations, in order, each with the id
 * the fixture gives (checked). A refusal of an operation names the fixture's path it came from.
 */
export async function loadFixture(host: FixtureHost, input: unknown): Promise<void> {
  const fixture = parseFixture(input);
  const inDouble = (kind: Kind, id: string) =>
    host.storage.read(async (tx) => (await tx.get(TABLES[kind] as Table<{ id: string }>, id)) !== undefined);
  await checkReferences(fixture, inDouble);
  await checkTokens(host, fixture);
  await new Loader(host).load(fixture);
}

async function checkTokens(host: FixtureHost, fixture: Fixture) {
  const seen = new Map<string, string>();
  for (const [index, user] of (fixture.users ?? []).entries()) {
    const tokens = [
      ...(user.token === undefined ? [] : [[`users[${index}].token`, user.token] as const]),
      ...(user.tokens ?? []).map((token, at) => [`users[${index}].tokens[${at}]`, token] as const),
    ];
    for (const [path, token] of tokens) {
      const problem = givenTokenProblem(token);
      if (problem) throw new FixtureError(path, problem);
      const earlier = seen.get(token);
      if (earlier) throw new FixtureError(path, `the same token as ${earlier}`);
      seen.set(token, path);
      const held = await host.storage.read((tx) => tx.get(tokensTable, hashToken(token)));
      if (held) throw new FixtureError(path, "a token already held in the double");
    }
  }
}

class Loader {
  private readonly operator: Client<Operations>;
  /** Who creates what is inside each organization: its first admin. */
  private readonly actors = new Map<string, string>();

  constructor(private readonly host: FixtureHost) {
    this.operator = host.docsbase.as({ token: host.operatorToken });
  }

  private as(userId: string): Client<Operations> {
    return userId === this.host.operatorId ? this.operator : this.host.docsbase.as({ userId });
  }

  /**
   * Runs one creation at `path`, with `id` requested for the `skip`-th next id drawn, and checks
   * that the object got it. `renames` maps a body field to the fixture's name for it, so that a
   * 400 names the fixture's field.
   */
  private async create<T>(
    path: string,
    id: string | undefined,
    run: () => Promise<T>,
    idOf: (result: T) => string | undefined,
    options: { skip?: number; renames?: Record<string, string> } = {},
  ): Promise<T> {
    if (id !== undefined) this.host.ids.request(id, options.skip ?? 0);
    let result: T;
    try {
      result = await this.step(path, run, options.renames);
    } finally {
      this.host.ids.clear();
    }
    if (id !== undefined && idOf(result) !== id) {
      throw new FixtureError(
        `${path}.id`,
        `docsbase gave the id "${String(idOf(result))}" instead of "${id}"`,
      );
    }
    return result;
  }

  private async step<T>(
    path: string,
    run: () => Promise<T>,
    renames: Record<string, string> = {},
  ): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!isDocsbaseError(error)) throw error;
      throw fixtureErrorOf(path, error.message, renames);
    }
  }

  async load(fixture: Fixture): Promise<void> {
    const { host } = this;
    for (const [index, user] of (fixture.users ?? []).entries()) {
      const path = `users[${index}]`;
      const body = {
        displayName: user.displayName,
        email: user.email ?? `fixture-${randomId()}@example.com`,
      };
      const created = await this.create(
        path,
        user.id,
        () => this.operator.createUser({ body: host.own(body) }),
        (result) => result.id,
      );
      const tokens = [...(user.token === undefined ? [] : [user.token]), ...(user.tokens ?? [])];
      for (const token of tokens) {
        await this.step(path, () =>
          host.storage.write((tx) =>
            storeGivenToken(tx, { ids: () => host.ids.next(), clock: host.clock }, created.id, token),
          ),
        );
      }
    }
    for (const [index, organization] of (fixture.organizations ?? []).entries()) {
      await this.organization(`organizations[${index}]`, organization);
    }
    for (const [index, collection] of (fixture.collections ?? []).entries()) {
      const actor = await this.actorOf(collection.organization);
      const body = { title: collection.title, ...(collection.parent ? { parent: collection.parent } : {}) };
      await this.create(
        `collections[${index}]`,
        collection.id,
        () =>
          this.as(actor).createCollection({ organizationId: collection.organization, body: host.own(body) }),
        (result) => result.id,
      );
    }
    for (const [index, space] of (fixture.spaces ?? []).entries())
      await this.space(`spaces[${index}]`, space);
    for (const [index, site] of (fixture.sites ?? []).entries()) await this.site(`sites[${index}]`, site);
  }

  private async organization(path: string, organization: NonNullable<Fixture["organizations"]>[number]) {
    const { host } = this;
    const members = organization.members ?? [];
    const creator = members.find((member) => member.role === "admin")?.user ?? host.operatorId;
    const created = await this.create(
      path,
      organization.id,
      () => this.as(creator).createOrganization({ body: host.own({ title: organization.title }) }),
      (result) => result.id,
    );
    this.actors.set(created.id, creator);
    const admin = this.as(creator);
    // Members join through one invite link per role, removed once they have joined.
    const roles = new Set(members.filter((member) => member.user !== creator).map((member) => member.role));
    for (const role of roles) {
      const invite = await this.step(path, () =>
        admin.createOrganizationInvite({ organizationId: created.id, body: host.own({ role }) }),
      );
      for (const [at, member] of members.entries()) {
        if (member.user === creator || member.role !== role) continue;
        await this.step(`${path}.members[${at}]`, () =>
          ownCall(this.as(member.user).joinOrganizationWithInvite, host.own({}), {
            organizationId: created.id,
            inviteId: invite.id,
          }),
        );
      }
      await this.step(path, () =>
        ownCall(admin.deleteOrganizationInviteById, host.own({}), {
          organizationId: created.id,
          inviteId: invite.id,
        }),
      );
    }
    for (const [at, team] of (organization.teams ?? []).entries()) {
      const body = { title: team.title, ...(team.members ? { members: [...team.members] } : {}) };
      await this.create(
        `${path}.teams[${at}]`,
        team.id,
        () => admin.createOrganizationTeam({ organizationId: created.id, body: host.own(body) }),
        (result) => result.id,
      );
    }
  }

  private async space(path: string, space: NonNullable<Fixture["spaces"]>[number]) {
    const { host } = this;
    const author = this.as(space.author ?? (await this.actorOf(space.organization)));
    const body = { title: space.title, ...(space.collection ? { parent: space.collection } : {}) };
    const created = await this.create(
      path,
      space.id,
      () => author.createSpace({ organizationId: space.organization, body: host.own(body) }),
      (result) => result.id,
      { renames: { parent: "collection" } },
    );
    const spaceId = created.id;
    await this.pages(`${path}.pages`, space.pages ?? [], undefined, (body) =>
      author.createPage({ spaceId, body }),
    );
    for (const [at, file] of (space.files ?? []).entries()) {
      const data = file.data ?? base64(file.text ?? "");
      const body = { name: file.name, contentType: file.contentType ?? "text/plain", data };
      await this.create(
        `${path}.files[${at}]`,
        file.id,
        () => author.uploadFile({ spaceId, body: host.own(body) }),
        (result) => result.id,
        { skip: 1, renames: { data: file.data === undefined ? "text" : "data" } },
      );
    }
    await this.comments(`${path}.comments`, space.comments ?? [], {
      post: (user, body) => this.as(user).postCommentInSpace({ spaceId, body }),
      reply: (user, commentId, body) => this.as(user).postCommentReplyInSpace({ spaceId, commentId, body }),
    });
    for (const [at, request] of (space.changeRequests ?? []).entries()) {
      const crPath = `${path}.changeRequests[${at}]`;
      const body = {
        subject: request.subject,
        status: request.status === "draft" ? "draft" : "open",
      } as const;
      const changeRequest = await this.create(
        crPath,
        request.id,
        () => author.createChangeRequest({ spaceId, body: host.own(body) }),
        (result) => result.id,
      );
      const changeRequestId = changeRequest.id;
      await this.pages(`${crPath}.pages`, request.pages ?? [], undefined, (pageBody) =>
        author.createPageInChangeRequest({ spaceId, changeRequestId, body: pageBody }),
      );
      await this.comments(`${crPath}.comments`, request.comments ?? [], {
        post: (user, commentBody) =>
          this.as(user).postCommentInChangeRequest({ spaceId, changeRequestId, body: commentBody }),
        reply: (user, commentId, replyBody) =>
          this.as(user).postCommentReplyInChangeRequest({
            spaceId,
            changeRequestId,
            commentId,
            body: replyBody,
          }),
      });
      if (request.status === "merged") {
        await this.step(crPath, () =>
          ownCall(author.mergeChangeRequest, host.own({}), { spaceId, changeRequestId }),
        );
      }
    }
  }

  /** Writes pages depth first, each right after its parent, so that a child names its parent's id. */
  private async pages(
    path: string,
    pages: readonly FixturePage[],
    parent: string | undefined,
    createPage: (body: { title: string; markdown?: string; parent?: string }) => Promise<{ id: string }>,
  ): Promise<void> {
    for (const [at, page] of pages.entries()) {
      const body = {
        title: page.title,
        ...(page.markdown !== undefined ? { markdown: page.markdown } : {}),
        ...(parent ? { parent } : {}),
      };
      const created = await this.create(
        `${path}[${at}]`,
        page.id,
        () => createPage(this.host.own(body)),
        (result) => result.id,
        { skip: 1 },
      );
      await this.pages(`${path}[${at}].pages`, page.pages ?? [], created.id, createPage);
    }
  }

  private async comments(
    path: string,
    comments: readonly FixtureComment[],
    post: {
      post(user: string, body: { body: { markdown: string }; page?: string }): Promise<{ id: string }>;
      reply(user: string, commentId: string, body: { body: { markdown: string } }): Promise<{ id: string }>;
    },
  ): Promise<void> {
    for (const [at, comment] of comments.entries()) {
      const body = { body: { markdown: comment.body }, ...(comment.page ? { page: comment.page } : {}) };
      const created = await this.create(
        `${path}[${at}]`,
        comment.id,
        () => post.post(comment.user, this.host.own(body)),
        (result) => result.id,
      );
      for (const [index, reply] of (comment.replies ?? []).entries()) {
        await this.create(
          `${path}[${at}].replies[${index}]`,
          reply.id,
          () => post.reply(reply.user, created.id, this.host.own({ body: { markdown: reply.body } })),
          (result) => result.id,
        );
      }
    }
  }

  private async site(path: string, site: NonNullable<Fixture["sites"]>[number]) {
    const { host } = this;
    const organizationId = site.organization;
    const admin = this.as(await this.actorOf(organizationId));
    const body = {
      title: site.title,
      ...(site.type ? { type: site.type } : {}),
      ...(site.visibility ? { visibility: site.visibility } : {}),
    };
    const created = await this.create(
      path,
      site.id,
      () => admin.createSite({ organizationId, body: host.own(body) }),
      (result) => result.id,
    );
    const siteId = created.id;
    for (const [at, entry] of (site.spaces ?? []).entries()) {
      const { id, space } = typeof entry === "string" ? { id: undefined, space: entry } : entry;
      await this.create(
        `${path}.spaces[${at}]`,
        id,
        () => admin.addSpaceToSite({ organizationId, siteId, body: host.own({ spaceId: space }) }),
        (result) => result.id,
        { renames: { spaceId: "space" } },
      );
    }
    for (const [at, link] of (site.shareLinks ?? []).entries()) {
      await this.create(
        `${path}.shareLinks[${at}]`,
        link.id,
        () => admin.createSiteShareLink({ organizationId, siteId, body: host.own({ name: link.name }) }),
        (result) => result.id,
      );
    }
  }

  /** Who acts in an organization: its fixture creator, else (one already in the double) an admin of it. */
  private async actorOf(organization: string): Promise<string> {
    const known = this.actors.get(organization);
    if (known) return known;
    const [admin] = await this.host.storage.read((tx) =>
      tx.list(membersTable, { index: "byRole", where: [organization, "admin"], limit: 1 }),
    );
    const actor = admin?.user ?? this.host.operatorId;
    this.actors.set(organization, actor);
    return actor;
  }
}

/**
 * Calls an operation that takes no body with a marked one: it is not read (an operation without a
 * body schema never parses one), and it keeps the call out of the journal like the others.
 */
function ownCall<I>(method: (input: I) => Promise<unknown>, marker: object, input: I): Promise<unknown> {
  return (method as (input: I & { body: object }) => Promise<unknown>)({ ...input, body: marker });
}

/** An operation's refusal as a fixture error: `body.title: ...` becomes `<path>.title: ...`. */
function fixtureErrorOf(path: string, message: string, renames: Record<string, string>): FixtureError {
  const field = /^body\.([A-Za-z]+)((?:\.\d+)*)(?:\.[^:]*)?: (.*)$/s.exec(message);
  if (!field) return new FixtureError(path, message);
  const [, name = "", indexes = "", problem = ""] = field;
  const at = indexes.replace(/\.(\d+)/g, "[$1]");
  return new FixtureError(`${path}.${renames[name] ?? name}${at}`, problem);
}

/** The base64 of a text's UTF-8 bytes, on any runtime. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
