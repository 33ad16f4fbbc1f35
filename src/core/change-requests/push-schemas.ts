import * as z from "zod";
import { pageFieldSchemas, uploadFileBody } from "../content/write-bodies.js";
import { boundedId } from "../shared/schema.js";
import { changeRequestSubject } from "./schemas.js";

/**
 * The body of `pushChangeRequest` (pushes.ts): content changes made against a known revision,
 * each entry the whole new state of one page or file. Field limits are the content writes'.
 */

/** Most page entries one push takes. */
export const MAX_PUSH_PAGES = 10_000;
/** Most file entries one push takes. */
export const MAX_PUSH_FILES = 1_000;

/** A push id, chosen by the client: 8 to 64 characters of `[A-Za-z0-9_-]`. */
export const pushIdParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "8 to 64 characters of A-Z, a-z, 0-9, _ and -");

const { title, markdown, slug, emoji, description, variables } = pageFieldSchemas;

const deletion = z.object({ id: boundedId(), deleted: z.literal(true) });

/** A page's whole state: absent optional fields are removed (`hidden`: false). */
const pageState = z.object({
  id: boundedId(),
  deleted: z.literal(false).optional(),
  /** The parent page's id, or null at the root of the space. */
  parent: boundedId().nullable(),
  title,
  markdown,
  slug: slug.optional(),
  emoji: emoji.optional(),
  description: description.optional(),
  hidden: z.boolean().optional(),
  variables: variables.optional(),
});

const fileState = uploadFileBody.extend({ id: boundedId(), deleted: z.literal(false).optional() });

export const pagePush = z.discriminatedUnion("deleted", [deletion, pageState]);
export const filePush = z.discriminatedUnion("deleted", [deletion, fileState]);
export type PagePush = z.output<typeof pagePush>;
export type FilePush = z.output<typeof filePush>;

/** Flags the second entry of a list that names an id already named (each id once per list). */
function uniqueIds(entries: readonly { id: string }[] | undefined, field: string, context: z.RefinementCtx) {
  const seen = new Set<string>();
  entries?.forEach((entry, index) => {
    if (seen.has(entry.id)) {
      context.addIssue({
        code: "custom",
        path: [field, index, "id"],
        message: `"${entry.id}" is named by an earlier entry: each id once per push`,
      });
    }
    seen.add(entry.id);
  });
}

export const pushBody = z
  .object({
    /** The space revision the changes were made against: required when the push opens. */
    revision: boundedId().optional(),
    /** An open or draft change request opened by an earlier push of the caller, to extend. */
    changeRequest: boundedId().optional(),
    /** The subject of the change request the push opens. */
    subject: changeRequestSubject.optional(),
    pages: z.array(pagePush).max(MAX_PUSH_PAGES).optional(),
    files: z.array(filePush).max(MAX_PUSH_FILES).optional(),
  })
  .superRefine((body, context) => {
    uniqueIds(body.pages, "pages", context);
    uniqueIds(body.files, "files", context);
  });
export type PushBody = z.output<typeof pushBody>;
