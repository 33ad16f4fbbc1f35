import type { OrganizationRecord } from "../organizations/tables.js";
import { revisionMentions } from "../content/mentions.js";
import { loadRevision } from "../content-tree/revisions.js";
import { forbidden, notFound } from "../shared/errors.js";
import type { CallerScope, Context, World } from "../shared/world.js";
import { memberKey, type Membership } from "./membership.js";
import type { AccessRule, ReaderTokenAccess } from "./rule.js";

/**
 * Reader tokens. A published-content lookup (`getPublishedContentByUrl` and friends) hands out an
 * `apiToken` that stands for no user (`Caller.scope`): for 15 minutes it reads one space's current
 * content and the one revision it was issued with. Which operations it may call is access data:
 * an operation opens itself to such a token by wrapping its rule in {@link readableWithReaderToken},
 * and {@link requireReaderTokenAccess}, which `invoke` calls for every such caller, refuses
 * everything else with 403, so a new operation stays closed to reader tokens unless it says
 * otherwise. The OpenAPI document shows the declaration (`x-docsbase-reader-token`).
 */

/** The path parameters every reader-token operation names its space and revision by. */
const IN_PATH: ReaderTokenAccess = { space: "spaceId", revision: "revisionId" };

/** For the reads of a site: the token's own site, in `path.siteId`. */
export const SITE_IN_PATH: ReaderTokenAccess = { site: "siteId" };

/** For the reads of a user: one that the token's revision mentions, in `path.userId`. */
export const MENTIONED_USER_IN_PATH: ReaderTokenAccess = { user: "userId" };

/**
 * `rule`, also open to a reader token for the space in `path.spaceId` and, where the path has one,
 * the revision in `path.revisionId`. The rule still resolves as for anyone: the object rule of the
 * space makes the token a reader of that space (see `OwnedObject.readerToken`).
 *
 * @example
 * ```ts
 * access: readableWithReaderToken(onSpace("view")),
 * ```
 */
export function readableWithReaderToken<L extends object, P>(
  rule: AccessRule<L, P>,
  where: ReaderTokenAccess = IN_PATH,
): AccessRule<L, P> {
  return { ...rule, readerToken: where };
}

/**
 * Fails with 403 unless the operation's rule is open to reader tokens and its path names the space,
 * and any revision, that the token was issued for (or its site). The one check of reader tokens.
 * The `{user}` form reads the users the token's revision mentions (`revisionMentions`, memoized per
 * revision) and answers any other user with the 404 of a user the caller cannot see.
 */
export async function requireReaderTokenAccess(
  rule: Pick<AccessRule, "readerToken">,
  scope: CallerScope,
  params: unknown,
  world: World,
): Promise<void> {
  const where = rule.readerToken;
  const named = params as Readonly<Record<string, unknown>>;
  if (where !== undefined && "user" in where) {
    const user = String(named[where.user]);
    if (!(await mentionedIn(world, scope.revision, user))) throw notFound(`User "${user}" not found`);
    return;
  }
  const allowed =
    where !== undefined &&
    ("site" in where
      ? scope.site !== undefined && named[where.site] === scope.site
      : named[where.space] === scope.space &&
        (named[where.revision] === undefined || named[where.revision] === scope.revision));
  if (!allowed) {
    throw forbidden(
      `This token only reads the published content of space "${scope.space}" (its pages, files and revision "${scope.revision}")`,
    );
  }
}

/** Whether the content of `revision` mentions `user`; false for a revision since deleted. */
async function mentionedIn(world: World, revision: string, user: string): Promise<boolean> {
  return world.storage.read(async (tx) => {
    const loaded = await loadRevision(tx, world, revision);
    return loaded !== undefined && (await revisionMentions(loaded)).has(user);
  });
}

/**
 * The declaration as the OpenAPI document of the operation at `path` shows it: the path parameters
 * the token is held to (`x-docsbase-reader-token`), and a sentence for its description.
 */
export function documentReaderTokenAccess(
  where: ReaderTokenAccess,
  path: string,
): { readonly params: Readonly<Record<string, string>>; readonly sentence: string } {
  if ("user" in where) {
    return {
      params: { user: where.user },
      sentence: `a reader token (the apiToken of a published-content lookup) may call it for a user that the content of the revision it was issued with mentions, in path.${where.user}`,
    };
  }
  if ("site" in where) {
    return {
      params: { site: where.site },
      sentence: `a reader token (the apiToken of a published-content lookup) may call it for the site whose lookup issued it, in path.${where.site}`,
    };
  }
  const revision = path.includes(`{${where.revision}}`);
  return {
    params: { space: where.space, ...(revision ? { revision: where.revision } : {}) },
    sentence:
      `a reader token (the apiToken of a published-content lookup) may call it for the space it ` +
      `was issued for, in path.${where.space}` +
      (revision ? `, and the revision it was issued with, in path.${where.revision}` : ""),
  };
}

/**
 * The stand-in membership of a reader token in the organization of its space: a guest (no role of
 * its own) that no member list holds. Only the object rule of that space hands it out, with the
 * `read` role on that space alone.
 */
export function readerTokenMembership(organization: OrganizationRecord, context: Context): Membership {
  const user = context.caller?.userId ?? "";
  const at = context.clock().toISOString();
  return {
    organization,
    member: {
      key: memberKey(organization.id, user),
      organization: organization.id,
      user,
      seq: 0,
      role: null,
      joinedAt: at,
      seenAt: at,
      disabled: false,
      sso: false,
    },
    role: null,
  };
}
