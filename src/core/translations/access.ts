import { requireMembership, type Membership } from "../permissions/membership.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { atLeast } from "../shared/roles.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { type TranslationRecord, translationsTable } from "./tables.js";

/**
 * Who may do what with an organization's translations (docs/translations.md, "Who does what"):
 * members with at least the `read` role see them (`view`); its admins create, change, run and
 * delete them (`edit`). Guests and non-members get 404.
 */
export interface TranslationPermissions {
  readonly view: boolean;
  readonly edit: boolean;
}

export function translationPermissions(membership: Membership): TranslationPermissions {
  return { view: atLeast(membership.role, "read"), edit: atLeast(membership.role, "admin") };
}

export interface TranslationsAccess {
  readonly membership: Membership;
  readonly permissions: TranslationPermissions;
}

export interface TranslationAccess extends TranslationsAccess {
  readonly translation: TranslationRecord;
}

const ACTIONS: Record<PermissionFlag<TranslationPermissions>, string> = {
  view: "Reading translations",
  edit: "Managing translations",
};

async function resolveOrganization(tx: ReadTransaction, context: Context, params: Record<string, unknown>) {
  const membership = await requireMembership(tx, context, String(params.organizationId));
  const permissions = translationPermissions(membership);
  if (!permissions.view) throw notFound(`Organization "${String(params.organizationId)}" not found`);
  return { membership, permissions };
}

/**
 * `flag` on the translations of the organization in `params.organizationId` (list, create).
 *
 * @example
 * ```ts
 * access: inTranslations("edit"), // run({ tx, membership, permissions })
 * ```
 */
export function inTranslations(flag: PermissionFlag<TranslationPermissions>): AccessRule<TranslationsAccess> {
  return defineAccess({
    summary: `the "${flag}" permission on the translations of the organization in path.organizationId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const access = await resolveOrganization(tx, context, params);
      requirePermission(access.permissions, flag, ACTIONS[flag]);
      return access;
    },
  });
}

/** `flag` on the translation `params.translationId` of the organization: 404 when there is none. */
export function onTranslation(flag: PermissionFlag<TranslationPermissions>): AccessRule<TranslationAccess> {
  return defineAccess({
    summary: `the "${flag}" permission on the translation in path.translationId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const access = await resolveOrganization(tx, context, params);
      const translation = await tx.get(translationsTable, String(params.translationId));
      if (!translation || translation.organization !== access.membership.organization.id) {
        throw notFound(`Translation "${String(params.translationId)}" not found`);
      }
      requirePermission(access.permissions, flag, ACTIONS[flag]);
      return { ...access, translation };
    },
  });
}

/** Like {@link onTranslation}, for DELETE, which answers 204 when there is no such translation. */
export function onTranslationIfPresent(
  flag: PermissionFlag<TranslationPermissions>,
): AccessRule<TranslationsAccess & { readonly translation: TranslationRecord | undefined }> {
  return defineAccess({
    summary: `the "${flag}" permission on the translations of the organization (path.translationId may not exist)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const access = await resolveOrganization(tx, context, params);
      requirePermission(access.permissions, flag, ACTIONS[flag]);
      const found = await tx.get(translationsTable, String(params.translationId));
      const translation = found?.organization === access.membership.organization.id ? found : undefined;
      return { ...access, translation };
    },
  });
}
