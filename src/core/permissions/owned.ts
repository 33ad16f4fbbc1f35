import { membersTable } from "../members/tables.js";
import { organizationsTable } from "../organizations/tables.js";
import { notFound, type DocsbaseError } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction, Table } from "../storage/port.js";
import { findMembership, requireCaller, type Membership } from "./membership.js";
import { readerTokenMembership } from "./reader-token.js";
import { requirePermission, type PermissionFlag } from "./refuse.js";
import { defineAccess, type AccessRule } from "./rule.js";

/**
 * The access rules of what an organization owns (spaces, collections, sites, translations, OpenAPI
 * specs, integrations, conversations), written once. A kind declares only what is its own: how the
 * caller stands in the organization, the permissions object that follows (the one its responses
 * report), its table, its refusal messages, and where they differ from the defaults, how one object
 * is found and its names. Every rule then refuses the same way (docs/api.md, "Deletes"):
 *
 * - a caller who sees nothing of the kind in the organization (a non-member, a guest where guests
 *   see nothing) gets 404, whether or not the object exists;
 * - a missing object answers 404, except for the rules of deletes (and of PUTs that create), which
 *   judge it with the permissions the organization alone grants: 403 without the flag, else `run`
 *   gets the object as undefined (a delete answers 204);
 * - a caller without the flag gets 403.
 */

/** The organization path parameter of the kinds whose path names their organization. */
const ORGANIZATION_PARAM = "organizationId";

/** A permissions object: `view` says whether the caller sees the kind at all. */
export interface Viewable {
  readonly view: boolean;
}

/** How a caller stands in an organization toward one kind of its objects, and what that permits. */
export interface OwnedKind<R extends object, S extends object, P extends Viewable> {
  /** The organization's objects of this kind, in summaries: `translations`. */
  readonly plural: string;
  /**
   * The caller's standing in `organization`: their membership and whatever the permissions need
   * beyond it (their role on `record`, when there is one). Undefined for a non-member.
   */
  standing(
    tx: ReadTransaction,
    context: Context,
    organization: string,
    record: R | undefined,
  ): Promise<S | undefined>;
  /**
   * The caller's permissions, as responses report them: on `record`, or what the organization
   * alone grants when there is none.
   */
  permissions(standing: S, record: R | undefined): P;
  /** How a refusal of each flag starts ("Managing the site"). */
  readonly actions: Readonly<Partial<Record<PermissionFlag<P>, string>>>;
}

/** What every object an organization owns records: its organization. */
export interface Owned {
  readonly organization: string;
}

/**
 * One object an organization owns: its kind, and how one is named and found. Names follow the key
 * unless said otherwise: `key: "site"` is the `site` in messages, `sites` in summaries, and is
 * named by `path.siteId`.
 */
export interface OwnedObject<
  K extends string,
  R extends Owned,
  S extends object,
  P extends Viewable,
> extends Omit<OwnedKind<R, S, P>, "plural"> {
  /** The key `run` receives it under: `space`. */
  readonly key: K;
  /** Its name in summaries and messages, where it is not the key: `OpenAPI spec`. */
  readonly noun?: string;
  /** The organization's objects of this kind, where it is not the noun and an `s`. */
  readonly plural?: string;
  /** The path parameter naming it, where it is not the key and `Id`: `specSlug`. */
  readonly param?: string;
  /**
   * Which names its organization: the path (`path.organizationId`), where the object is then
   * looked up, or the object, found by its id alone (`/spaces/{spaceId}`).
   */
  readonly organizationIn: "path" | "object";
  /** Where it is stored: found by its key, and in the path's organization where the path names one. */
  readonly table: Table<R>;
  /** How it is found where not by its key (a slug); undefined when there is none. */
  find?(tx: ReadTransaction, id: string, organization: string | undefined): Promise<R | undefined>;
  /** Whether a stored object counts as missing (a deleted space); `includeDeleted` is the rule's. */
  gone?(record: R, context: Context, includeDeleted: boolean): boolean;
  /** The 404 of a missing or hidden object; `Space "x" not found` by default. */
  notFound?(id: string): DocsbaseError;
  /**
   * The standing of a reader token (`./reader-token.ts`) on the object it was issued for, from its
   * stand-in membership. A kind without it shows reader tokens nothing.
   */
  readerToken?(membership: Membership, record: R): S;
}

/** The standing of the kinds whose permissions follow from the membership alone. */
export interface MemberStanding {
  readonly membership: Membership;
}

/** {@link OwnedKind.standing} of those kinds: the caller's membership, if any. */
export async function memberStanding(
  tx: ReadTransaction,
  context: Context,
  organization: string,
): Promise<MemberStanding | undefined> {
  const membership = await findMembership(tx, context, organization);
  return membership && { membership };
}

/** What an organization-wide rule hands `run`: the caller's standing and permissions. */
export type OrganizationWide<S extends object, P extends Viewable> = S & { readonly permissions: P };

/** What an object rule hands `run`: the standing, the permissions and the object under its key. */
export type OnObject<K extends string, R, S extends object, P extends Viewable> = OrganizationWide<S, P> & {
  readonly [key in K]: R;
};

interface Judged<S, P> {
  readonly standing: S;
  readonly permissions: P;
}

/** The standing and permissions of a caller who sees the kind, else undefined. */
function judge<R extends object, S extends object, P extends Viewable>(
  kind: OwnedKind<R, S, P>,
  standing: S | undefined,
  record: R | undefined,
): Judged<S, P> | undefined {
  if (!standing) return undefined;
  const permissions = kind.permissions(standing, record);
  return permissions.view ? { standing, permissions } : undefined;
}

const holds = <P extends object>(permissions: P, flag: PermissionFlag<P>) => permissions[flag] === true;

const organizationNotFound = (id: string) => notFound(`Organization "${id}" not found`);

/**
 * The rule on the objects of a kind as a whole (list, create): the caller holds `flag` in the
 * organization in `path.organizationId`.
 *
 * @example
 * ```ts
 * const conversations = organizationRules({ plural: "conversations", standing, permissions, actions });
 * access: conversations.all("ingest"), // run({ tx, membership, permissions })
 * ```
 */
export function organizationRules<R extends object, S extends object, P extends Viewable>(
  kind: OwnedKind<R, S, P>,
) {
  return {
    all(flag: PermissionFlag<P>): AccessRule<OrganizationWide<S, P>> {
      return defineAccess({
        summary: `the "${flag}" permission on the ${kind.plural} of the organization in path.${ORGANIZATION_PARAM}`,
        authenticated: true,
        async resolve(tx, context, params) {
          const organization = String(params[ORGANIZATION_PARAM]);
          // A reader token is a member of no organization.
          const standing = context.caller?.scope
            ? undefined
            : await kind.standing(tx, context, organization, undefined);
          const judged = judge(kind, standing, undefined);
          if (!judged) throw organizationNotFound(organization);
          requirePermission(judged.permissions, flag, kind.actions[flag] ?? "This");
          return { ...judged.standing, permissions: judged.permissions };
        },
      });
    },
  };
}

/**
 * The rules of one kind of object an organization owns: `all` (see {@link organizationRules}),
 * `required` (the object must exist) and `ifPresent` (deletes: a missing object reaches `run` as
 * undefined, judged with the permissions the organization alone grants).
 *
 * @example
 * ```ts
 * const siteRules = ownedObjectRules({ key: "site", table: sitesTable, organizationIn: "path", ... });
 * access: siteRules.required("admin"), // run({ tx, site, membership, permissions })
 * ```
 */
export function ownedObjectRules<K extends string, R extends Owned, S extends object, P extends Viewable>(
  spec: OwnedObject<K, R, S, P>,
) {
  const noun = spec.noun ?? spec.key;
  const kind: OwnedKind<R, S, P> = { ...spec, plural: spec.plural ?? `${noun}s` };
  const param = spec.param ?? `${spec.key}Id`;
  const missing = (id: string) =>
    spec.notFound?.(id) ?? notFound(`${noun[0]?.toUpperCase()}${noun.slice(1)} "${id}" not found`);
  async function find(tx: ReadTransaction, id: string, organization: string | undefined) {
    if (spec.find) return spec.find(tx, id, organization);
    const record = await tx.get(spec.table, id);
    return record && (organization === undefined || record.organization === organization)
      ? record
      : undefined;
  }

  /** The caller's standing; a reader token stands only on the object it was issued for. */
  async function standingOf(
    tx: ReadTransaction,
    context: Context,
    organization: string,
    record: R | undefined,
    id: string,
  ): Promise<S | undefined> {
    const scope = context.caller?.scope;
    if (!scope) return spec.standing(tx, context, organization, record);
    if (!spec.readerToken || !record || scope.space !== id) return undefined;
    const stored = await tx.get(organizationsTable, organization);
    return stored && spec.readerToken(readerTokenMembership(stored, context), record);
  }

  /**
   * A missing object whose organization nothing names (`/spaces/{spaceId}` for a space that never
   * existed): judged by the caller's organizations, the first where they hold `flag`, else the
   * first where they see the kind (403 follows), else none (404).
   */
  async function judgeAnywhere(
    tx: ReadTransaction,
    context: Context,
    flag: PermissionFlag<P>,
  ): Promise<Judged<S, P> | undefined> {
    const caller = requireCaller(context);
    if (caller.scope) return undefined;
    let seen: Judged<S, P> | undefined;
    for (const { organization } of await tx.list(membersTable, { index: "byUser", where: [caller.userId] })) {
      const judged = judge(kind, await spec.standing(tx, context, organization, undefined), undefined);
      if (judged && holds(judged.permissions, flag)) return judged;
      seen ??= judged;
    }
    return seen;
  }

  async function resolveObject(
    tx: ReadTransaction,
    context: Context,
    params: Readonly<Record<string, unknown>>,
    flag: PermissionFlag<P>,
    options: { readonly param: string; readonly includeDeleted: boolean; readonly ifPresent: boolean },
  ): Promise<OnObject<K, R | undefined, S, P>> {
    const id = String(params[options.param]);
    const named = spec.organizationIn === "path" ? String(params[ORGANIZATION_PARAM]) : undefined;
    const stored = await find(tx, id, named);
    const record = stored && !spec.gone?.(stored, context, options.includeDeleted) ? stored : undefined;
    if (!record && !options.ifPresent && named === undefined) throw missing(id);
    const organization = named ?? stored?.organization;
    const judged =
      organization === undefined
        ? await judgeAnywhere(tx, context, flag)
        : judge(kind, await standingOf(tx, context, organization, stored, id), stored);
    if (!judged) throw named === undefined ? missing(id) : organizationNotFound(named);
    if (!record && !options.ifPresent) throw missing(id);
    requirePermission(judged.permissions, flag, spec.actions[flag] ?? "This");
    // Built by assignment: a literal spreading the standing beside a computed key was a tenth of a
    // request's CPU (docs/performance.md, "The request path (issue 29)").
    const resolved = Object.assign({}, judged.standing) as Record<string, unknown>;
    resolved.permissions = judged.permissions;
    resolved[spec.key] = record;
    return resolved as OnObject<K, R | undefined, S, P>;
  }

  const summary = (flag: string, at: string) => `the "${flag}" permission on the ${noun} in path.${at}`;

  return {
    ...organizationRules(kind),
    /**
     * The object in `params[param]`: 404 when it is missing or hidden from the caller, 403 without
     * `flag`. `includeDeleted` lets a gone object through (a deleted space, to restore it).
     */
    required(
      flag: PermissionFlag<P>,
      options: { readonly param?: string; readonly includeDeleted?: boolean } = {},
    ): AccessRule<OnObject<K, R, S, P>> {
      const at = options.param ?? param;
      return defineAccess({
        summary: summary(flag, at),
        authenticated: true,
        resolve: (tx, context, params) =>
          resolveObject(tx, context, params, flag, {
            param: at,
            includeDeleted: options.includeDeleted ?? false,
            ifPresent: false,
          }) as Promise<OnObject<K, R, S, P>>,
      });
    },
    /**
     * Like `required`, for deletes, which answer 204 when nothing exists: a missing object reaches
     * `run` as undefined, once the caller holds `flag` as the organization alone grants it (the
     * organization in the path, or else any of the caller's).
     */
    ifPresent(
      flag: PermissionFlag<P>,
      options: { readonly param?: string } = {},
    ): AccessRule<OnObject<K, R | undefined, S, P>> {
      const at = options.param ?? param;
      return defineAccess({
        summary:
          spec.organizationIn === "path"
            ? `the "${flag}" permission on the ${kind.plural} of the organization in path.${ORGANIZATION_PARAM} (path.${at} may not exist)`
            : `${summary(flag, at)} (where there is none, in one of the caller's organizations)`,
        authenticated: true,
        resolve: (tx, context, params) =>
          resolveObject(tx, context, params, flag, { param: at, includeDeleted: false, ifPresent: true }),
      });
    },
  };
}
