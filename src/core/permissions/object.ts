import { notFound } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { requirePermission, type PermissionFlag } from "./refuse.js";
import { defineAccess, type AccessRule } from "./rule.js";

/** How a content object (space, collection) is found and what the caller may do on it. */
export interface ObjectSpec<Found extends object, P extends object, Missing extends object> {
  /** Its name in summaries and messages: `space`. */
  readonly noun: string;
  /** The path parameter naming it by default: `spaceId`. */
  readonly param: string;
  /**
   * The object with the caller's membership and role, or undefined when it does not exist; throws
   * 404 when it exists but is hidden from the caller.
   */
  find(
    tx: ReadTransaction,
    context: Context,
    id: string,
    options: { readonly includeDeleted: boolean },
  ): Promise<Found | undefined>;
  /** The caller's permissions on it, the object that responses report. */
  permissions(found: Found): P;
  /** How a refusal of each flag starts ("Managing the space"). */
  readonly actions: Partial<Record<PermissionFlag<P>, string>>;
  /** What `run` receives when a delete names an object that does not exist. */
  readonly missing: Missing;
}

/**
 * The two access rules of a content object: `required` (404 when missing or hidden, 403 without
 * the flag) and `ifPresent`, for deletes that answer 204 when nothing exists (a hidden object still
 * answers 404). Both hand `run` the found object with the caller's `permissions`.
 */
export function objectRules<Found extends object, P extends object, Missing extends object>(
  spec: ObjectSpec<Found, P, Missing>,
) {
  const refuseWithout = (flag: PermissionFlag<P>, found: Found) => {
    const permissions = spec.permissions(found);
    requirePermission(permissions, flag, spec.actions[flag] ?? "This");
    return { ...found, permissions };
  };
  const summary = (flag: string, param: string) =>
    `the "${flag}" permission on the ${spec.noun} in path.${param}`;
  return {
    required(
      flag: PermissionFlag<P>,
      options: { readonly param?: string; readonly includeDeleted?: boolean } = {},
    ): AccessRule<Found & { readonly permissions: P }> {
      const param = options.param ?? spec.param;
      return defineAccess({
        summary: summary(flag, param),
        authenticated: true,
        async resolve(tx, context, params) {
          const id = String(params[param]);
          const found = await spec.find(tx, context, id, { includeDeleted: options.includeDeleted ?? false });
          if (!found) throw notFound(`${spec.noun[0]?.toUpperCase()}${spec.noun.slice(1)} "${id}" not found`);
          return refuseWithout(flag, found);
        },
      });
    },
    ifPresent(
      flag: PermissionFlag<P>,
      param = spec.param,
    ): AccessRule<(Found & { readonly permissions: P }) | Missing> {
      return defineAccess({
        summary: summary(flag, param),
        authenticated: true,
        async resolve(tx, context, params) {
          const found = await spec.find(tx, context, String(params[param]), { includeDeleted: false });
          return found ? refuseWithout(flag, found) : spec.missing;
        },
      });
    },
  };
}
