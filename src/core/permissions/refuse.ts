import { forbidden } from "../shared/errors.js";

/**
 * The one refusal of docsbase: fails with 403 unless the flag (or one of the flags) of a
 * `permissions` object is set. Every resource computes its `permissions` object for the caller with
 * the same function that reports it in responses, so a flag is false exactly where the call is
 * refused. `action` starts the message ("Deleting a space").
 */
export function requirePermission<P extends object>(
  permissions: P,
  flag: PermissionFlag<P> | readonly PermissionFlag<P>[],
  action: string,
): void {
  const flags: readonly PermissionFlag<P>[] = typeof flag === "string" ? [flag] : flag;
  if (flags.some((name) => permissions[name] === true)) return;
  throw forbidden(`${action} needs the ${flags.map((name) => `"${name}"`).join(" or ")} permission`);
}

/** The boolean flags of a permissions object. */
export type PermissionFlag<P> = { [K in keyof P]: P[K] extends boolean ? K : never }[keyof P] & string;
