import { memoryStorage } from "../../src/adapters/memory/index.js";
import type { ClientInput } from "../../src/core/client.js";
import { storageSchema, type Operations } from "../../src/core/operations.js";
import type { Role } from "../../src/core/shared/roles.js";
import type { Storage, Table } from "../../src/core/storage/port.js";
import { createTestDocsbase, type TestClient, type TestDocsbase } from "../../src/testing/double.js";

/** An untyped HTTP request as one user, as `TestDocsbase.request` answers it. */
export type Requester = <T = any>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: T; headers: Headers }>;

/** A user of the workspace: their HTTP requests, their id and their typed client. */
export type WorkspaceUser = Requester & { userId: string; client: TestClient };

/** What {@link createWorkspace} returns (written out: the typed clients are too large to infer). */
export interface Workspace {
  readonly test: TestDocsbase;
  readonly storage: Storage;
  readonly owner: { readonly id: string; readonly token: string };
  /** The owner's HTTP requests. */
  readonly api: Requester;
  /** The owner's typed client. */
  readonly client: TestClient;
  as(token: string): Requester;
  /** The owner's organization. */
  readonly org: string;
  /** Creates another organization of the owner's; its id. */
  organization(title?: string): Promise<string>;
  join(user: string, role: Role | null, inOrganization?: string): Promise<void>;
  member(role: Role | null, inOrganization?: string): Promise<WorkspaceUser>;
  /** A user who is a member of no organization of the workspace. */
  readonly outsider: WorkspaceUser;
  collection(body?: object, inOrganization?: string): Promise<string>;
  space(body?: object, inOrganization?: string): Promise<string>;
  titles(path: string): Promise<any[]>;
  advance(ms: number): void;
  stored<R extends object = Record<string, any>>(
    table: Table<R> | string,
    id: string,
  ): Promise<R | undefined>;
}

/**
 * A test workspace: an in-memory docsbase with a movable clock, an organization owned by `api`'s
 * user, and helpers to add members with a role and to create content. Members are added through
 * the API (`inviteUsersToOrganization`, then `acceptUserInvite` as the user), so fixtures exercise
 * the same code as users do.
 *
 * `client` is the owner's typed client (`test.as`); each `member(role)` and `outsider` carries
 * its own as `.client`. `api` and the members' request functions send untyped HTTP requests, for
 * what only HTTP shows.
 */
export async function createWorkspace(): Promise<Workspace> {
  let now = new Date("2025-01-01T00:00:00.000Z");
  const storage = memoryStorage();
  const test = await createTestDocsbase({ storage, clock: () => now });
  const as =
    (token: string) =>
    <T = any>(method: string, path: string, body?: unknown) =>
      test.request<T>(method, path, { token, ...(body !== undefined ? { body } : {}) });
  const owner = await test.createUser("Owner");
  const api = as(owner.token);
  const client = test.as(owner);
  const organization = async (title = "Acme") => (await api("POST", "/orgs", { title })).body.id as string;
  const org = await organization();

  /** Adds an existing user to an organization of the owner's, with a role (`null`: guest). */
  async function join(user: string, role: Role | null, inOrganization = org) {
    const { email } = (await test.request("GET", `/users/${user}`)).body as { email: string };
    const added = await api("POST", `/orgs/${inOrganization}/invites`, { emails: [{ email, role }] });
    if (added.status !== 200) throw new Error(`could not add member: ${JSON.stringify(added.body)}`);
    // The invitation is pending until the user accepts it (docs/api.md, "Email invitations").
    const { token } = (await test.request("POST", `/users/${user}/tokens`)).body as { token: string };
    const invites = (await test.request("GET", "/user/invites", { token })).body.items as any[];
    const invite = invites.find((item) => item.organization.id === inOrganization);
    const accepted = await test.request("POST", `/user/invites/${invite?.id}/accept`, { token });
    if (accepted.status !== 200) throw new Error(`could not accept: ${JSON.stringify(accepted.body)}`);
    // An existing member keeps their role on invite: set it explicitly.
    const updated = await api("PATCH", `/orgs/${inOrganization}/members/${user}`, { role });
    if (updated.status !== 200) throw new Error(`could not set role: ${JSON.stringify(updated.body)}`);
  }
  /** A new user who is a member with `role`, as a request function carrying `userId`. */
  async function member(role: Role | null, inOrganization = org): Promise<WorkspaceUser> {
    const user = await test.createUser(`Member (${role})`);
    await join(user.id, role, inOrganization);
    return Object.assign(as(user.token), { userId: user.id, client: test.as(user) });
  }
  const outsiderUser = await test.createUser("Outsider");
  const outsider = Object.assign(as(outsiderUser.token), {
    userId: outsiderUser.id,
    client: test.as(outsiderUser),
  });
  const collection = async (body: object = {}, inOrganization = org) =>
    (await api("POST", `/orgs/${inOrganization}/collections`, body)).body.id as string;
  const space = async (body: object = {}, inOrganization = org) =>
    (await api("POST", `/orgs/${inOrganization}/spaces`, body)).body.id as string;
  const titles = async (path: string) => (await api("GET", path)).body.items.map((item: any) => item.title);
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  /** A stored record by table handle, or by table name (then loosely typed). */
  const stored = <R extends object = Record<string, any>>(table: Table<R> | string, id: string) =>
    storage.read((tx) => tx.get(typeof table === "string" ? tableNamed<R>(table) : table, id));
  return {
    test,
    storage,
    owner,
    api,
    client,
    as,
    org,
    organization,
    join,
    member,
    outsider,
    collection,
    space,
    titles,
    advance,
    stored,
  };
}

/** The table of the schema with this name. */
function tableNamed<R extends object>(name: string): Table<R> {
  const table = storageSchema.tables.find((candidate) => candidate.name === name);
  if (!table) throw new Error(`No table "${name}"`);
  return table as Table<R>;
}

/** A body of `createCollection` as the typed client takes it. */
export type CollectionBody = NonNullable<ClientInput<Operations["createCollection"]>["body"]>;
/** A body of `createSpace` as the typed client takes it. */
export type SpaceBody = NonNullable<ClientInput<Operations["createSpace"]>["body"]>;

/** A {@link Workspace} whose content fixtures are typed: see {@link createTypedWorkspace}. */
export interface TypedWorkspace extends Omit<Workspace, "collection" | "space" | "titles"> {
  collection(body?: CollectionBody, inOrganization?: string): Promise<string>;
  space(body?: SpaceBody, inOrganization?: string): Promise<string>;
  /** The titles of a list's items, as a typed client call answers it. */
  titles(list: Promise<{ readonly items: readonly { readonly title: string }[] }>): Promise<string[]>;
}

/**
 * {@link createWorkspace}, with `collection` and `space` creating through the owner's typed client
 * (so that a renamed body field fails to compile) and `titles` reading a typed list call's items.
 */
export async function createTypedWorkspace(): Promise<TypedWorkspace> {
  const workspace = await createWorkspace();
  const { client, org } = workspace;
  return {
    ...workspace,
    collection: async (body = {}, organizationId = org) =>
      (await client.createCollection({ organizationId, body })).id,
    space: async (body = {}, organizationId = org) => (await client.createSpace({ organizationId, body })).id,
    titles: async (list) => (await list).items.map((item) => item.title),
  };
}
