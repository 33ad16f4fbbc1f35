import type { ChangeRequestRecord } from "../change-requests/tables.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { onSpace, type SpaceScope } from "../spaces/access.js";
import type { SpacePermissions } from "../spaces/schemas.js";
import type { Revision } from "../content-tree/revisions.js";
import {
  changeRequestContent,
  requireChangeRequest,
  requireOpenChangeRequest,
  revisionContent,
  spaceContent,
} from "./target.js";

/**
 * Access to content, named by a space (`path.spaceId`), a change request (`path.spaceId` and
 * `path.changeRequestId`, its id or number) or a revision (`path.spaceId` and `path.revisionId`).
 * Each rule first resolves the space as `onSpace` does (404 when hidden or missing, 403 without the
 * flag), then the change request or revision (404), then loads the content.
 */

/** What {@link onChangeRequest} hands `run`: the space rule's scope and the change request. */
export interface ChangeRequestScope extends SpaceScope {
  readonly changeRequest: ChangeRequestRecord;
}

/** What {@link onContent} and `onDraft` hand `run`: the space, and the content named. */
export interface ContentScope extends SpaceScope {
  readonly content: Revision;
  /** The change request whose content this is; absent for a space's or a revision's content. */
  readonly changeRequest?: ChangeRequestRecord | undefined;
}

/** {@link ContentScope} of a change request's content. */
export interface ChangeRequestContentScope extends ContentScope {
  readonly changeRequest: ChangeRequestRecord;
}

/** Which content an operation names: see the path parameters above. */
export type ContentAt = "space" | "changeRequest" | "revision";

/** A space permission an operation on content may require (`edit`, `comment`...). */
export type SpaceFlag = PermissionFlag<SpacePermissions>;

/**
 * A path parameter that a family's operation adds after those naming the content (`pageId`,
 * `fileId`, `pagePath`), already validated by the operation's schema. Families are functions
 * generic in their path parameters, and zod cannot type the output of an object whose shape is a
 * type parameter, so their `run` reads the added parameter through this.
 */
export const pathParamOf = (
  params: object,
  name: "pageId" | "fileId" | "pagePath" | "reusableContentId",
): string => String((params as Record<string, unknown>)[name]);

const changeRequestParam = "changeRequestId";
const revisionParam = "revisionId";

/**
 * The change request in `params[param]` (its id or number) of the space in `params.spaceId`; the
 * caller holds `flag` on the space (see `onSpace`).
 *
 * @example
 * ```ts
 * access: onChangeRequest("view"), // run({ tx, space, membership, role, permissions, changeRequest })
 * ```
 */
export function onChangeRequest(
  flag: SpaceFlag,
  options: { readonly param?: string } = {},
): AccessRule<ChangeRequestScope> {
  const param = options.param ?? changeRequestParam;
  const space = onSpace(flag);
  return defineAccess({
    summary: `${space.summary}, for the change request in path.${param}`,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await space.resolve(tx, context, params);
      const changeRequest = await requireChangeRequest(tx, loaded.space.id, String(params[param]));
      return { ...loaded, changeRequest };
    },
  });
}

/**
 * The content a read names: the space's current revision, the change request's head or the
 * revision by id (see {@link ContentAt}); the caller holds `flag` on the space.
 *
 * @example
 * ```ts
 * access: onContent("changeRequest", "view"), // run({ tx, space, changeRequest, content, ... })
 * ```
 */
export function onContent(at: "changeRequest", flag: SpaceFlag): AccessRule<ChangeRequestContentScope>;
export function onContent(at: ContentAt, flag: SpaceFlag): AccessRule<ContentScope>;
export function onContent(at: ContentAt, flag: SpaceFlag): AccessRule<ContentScope> {
  const space = onSpace(flag);
  return defineAccess({
    summary: `${space.summary}${where(at)}`,
    authenticated: true,
    async resolve(tx, context, params): Promise<ContentScope> {
      const loaded = await space.resolve(tx, context, params);
      if (at === "changeRequest") {
        const changeRequest = await requireChangeRequest(
          tx,
          loaded.space.id,
          String(params[changeRequestParam]),
        );
        return { ...loaded, changeRequest, content: await changeRequestContent(tx, context, changeRequest) };
      }
      if (at === "revision") {
        const revision = String(params[revisionParam]);
        return { ...loaded, content: await revisionContent(tx, context, loaded.space, revision) };
      }
      return { ...loaded, content: await spaceContent(tx, context, loaded.space) };
    },
  });
}

/**
 * Content to edit: the space's live content or a change request's content, with the `edit`
 * permission on the space (which a `locked` space, by its `editMode`, denies to everyone).
 * A merged or archived change request takes no more edits (409). Write with `commitDraft`
 * (content/target.ts).
 */
export function onDraft(at: "changeRequest"): AccessRule<ChangeRequestContentScope>;
export function onDraft(at: "space" | "changeRequest"): AccessRule<ContentScope>;
export function onDraft(at: "space" | "changeRequest"): AccessRule<ContentScope> {
  const content = onContent(at, "edit");
  return defineAccess({
    summary: at === "changeRequest" ? `${content.summary}, while it is open` : content.summary,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await content.resolve(tx, context, params);
      if (loaded.changeRequest) requireOpenChangeRequest(loaded.changeRequest);
      return loaded;
    },
  });
}

function where(at: ContentAt): string {
  if (at === "changeRequest") return `, for the change request in path.${changeRequestParam}`;
  if (at === "revision") return `, for the revision in path.${revisionParam}`;
  return "";
}
