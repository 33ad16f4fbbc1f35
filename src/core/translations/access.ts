import type { Membership } from "../permissions/membership.js";
import {
  memberStanding,
  ownedObjectRules,
  type MemberStanding,
  type OnObject,
  type OrganizationWide,
} from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { atLeast } from "../shared/roles.js";
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

export type TranslationsAccess = OrganizationWide<MemberStanding, TranslationPermissions>;
export type TranslationAccess = OnObject<
  "translation",
  TranslationRecord,
  MemberStanding,
  TranslationPermissions
>;

const translationRules = ownedObjectRules({
  key: "translation",
  table: translationsTable,
  organizationIn: "path",
  standing: memberStanding,
  permissions: ({ membership }) => translationPermissions(membership),
  actions: { view: "Reading translations", edit: "Managing translations" },
});

/**
 * `flag` on the translations of the organization in `params.organizationId` (list, create).
 *
 * @example
 * ```ts
 * access: inTranslations("edit"), // run({ tx, membership, permissions })
 * ```
 */
export function inTranslations(flag: PermissionFlag<TranslationPermissions>): AccessRule<TranslationsAccess> {
  return translationRules.all(flag);
}

/** `flag` on the translation `params.translationId` of the organization: 404 when there is none. */
export function onTranslation(flag: PermissionFlag<TranslationPermissions>): AccessRule<TranslationAccess> {
  return translationRules.required(flag);
}

/** Like {@link onTranslation}, for DELETE, which answers 204 when there is no such translation. */
export function onTranslationIfPresent(
  flag: PermissionFlag<TranslationPermissions>,
): AccessRule<
  OnObject<"translation", TranslationRecord | undefined, MemberStanding, TranslationPermissions>
> {
  return translationRules.ifPresent(flag);
}
