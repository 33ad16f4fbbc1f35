import * as z from "zod";
import { MEMBER_ROLES } from "../core/shared/roles.js";
import { siteType, siteVisibility } from "../core/sites/tables.js";

/**
 * The fixture a test double starts from (`createTestDocsbase({ fixture })`) or adds
 * (`test.seed(fixture)`): plain data, the same as JSON. Every object may be given its `id`, which
 * other objects refer to; what is left out is generated. A reference may name an object of the
 * same fixture or, for `seed`, one already in the double. Every object is created by the API's
 * own operations, in the order of this type's fields, so that what is stored is what the API
 * would have stored.
 *
 * @example
 * ```ts
 * const fixture: Fixture = {
 *   users: [{ id: "u-ada", displayName: "Ada", token: "tok-ada-0123456789abcdef" }],
 *   organizations: [{ id: "org-acme", title: "Acme", members: [{ user: "u-ada", role: "admin" }] }],
 *   spaces: [{ id: "space-handbook", organization: "org-acme", title: "Handbook" }],
 * };
 * ```
 */
export interface Fixture {
  readonly users?: readonly FixtureUser[];
  readonly organizations?: readonly FixtureOrganization[];
  readonly collections?: readonly FixtureCollection[];
  readonly spaces?: readonly FixtureSpace[];
  readonly sites?: readonly FixtureSite[];
}

/** A user (`createUser`), with the tokens the test calls as. */
export interface FixtureUser {
  readonly id?: string;
  readonly displayName: string;
  /** Default: a unique address under `example.com`. */
  readonly email?: string;
  /**
   * A token of this user, exactly this string, so that a test can hard-code it: 16 to 256
   * printable ASCII characters without spaces, held by no other user.
   */
  readonly token?: string;
  /** More tokens of this user, as `token`. */
  readonly tokens?: readonly string[];
}

/** A role in an organization, as the API names it. */
export type FixtureRole = (typeof MEMBER_ROLES)[number];

/**
 * An organization (`createOrganization`). Its first `admin` member creates it; with none, the
 * operator does (and is then its admin, as the API makes an organization's creator).
 */
export interface FixtureOrganization {
  readonly id?: string;
  readonly title: string;
  /** Its members, each a user's id and role; they join through an invite link of that role. */
  readonly members?: readonly { readonly user: string; readonly role: FixtureRole }[];
  /** Teams (`createOrganizationTeam`), whose members are user ids of members of the organization. */
  readonly teams?: readonly {
    readonly id?: string;
    readonly title: string;
    readonly members?: readonly string[];
  }[];
}

/** A collection (`createCollection`) of an organization, optionally inside another one. */
export interface FixtureCollection {
  readonly id?: string;
  readonly organization: string;
  readonly title: string;
  /** The id of the collection it is in. */
  readonly parent?: string;
}

/** A space (`createSpace`), its pages and files, change requests and comments. */
export interface FixtureSpace {
  readonly id?: string;
  readonly organization: string;
  readonly title: string;
  /** The id of the collection it is in. */
  readonly collection?: string;
  /** The pages at its root, in order, each with its own `pages`. */
  readonly pages?: readonly FixturePage[];
  readonly files?: readonly FixtureFile[];
  readonly changeRequests?: readonly FixtureChangeRequest[];
  /** Comments on the space's content. */
  readonly comments?: readonly FixtureComment[];
  /** Who creates the space and its content: a user id, member of its organization. Default: the organization's creator. */
  readonly author?: string;
}

/** A page (`createPage`), written as markdown, with its child pages. */
export interface FixturePage {
  readonly id?: string;
  readonly title: string;
  readonly markdown?: string;
  readonly pages?: readonly FixturePage[];
}

/** A file (`uploadFile`): its content as text (stored as UTF-8) or as base64 (`data`). */
export interface FixtureFile {
  readonly id?: string;
  readonly name: string;
  /** Default `text/plain`. */
  readonly contentType?: string;
  readonly text?: string;
  readonly data?: string;
}

/** A change request of a space (`createChangeRequest`), the pages it adds, and its status. */
export interface FixtureChangeRequest {
  readonly id?: string;
  readonly subject: string;
  /** `merged` merges it once its pages are written (`mergeChangeRequest`). Default `open`. */
  readonly status?: "draft" | "open" | "merged";
  /** Pages it adds at the root of its content. */
  readonly pages?: readonly FixturePage[];
  readonly comments?: readonly FixtureComment[];
}

/** A comment (`postCommentInSpace`, `postCommentInChangeRequest`) and its replies, as markdown. */
export interface FixtureComment {
  readonly id?: string;
  /** Its author's user id. */
  readonly user: string;
  readonly body: string;
  /** The id of the page it is on. */
  readonly page?: string;
  readonly replies?: readonly { readonly id?: string; readonly user: string; readonly body: string }[];
}

/** A site (`createSite`) of an organization, its site spaces and share links. */
export interface FixtureSite {
  readonly id?: string;
  readonly organization: string;
  readonly title: string;
  readonly type?: z.infer<typeof siteType>;
  readonly visibility?: z.infer<typeof siteVisibility>;
  /** Its site spaces (`addSpaceToSite`): each a space's id, or the site space's id and its space. */
  readonly spaces?: readonly (string | { readonly id?: string; readonly space: string })[];
  /** Its share links (`createSiteShareLink`). */
  readonly shareLinks?: readonly { readonly id?: string; readonly name: string }[];
}

/** A fixture refused: `path` is where in the fixture (`spaces[1].pages[0].title`), and starts the message. */
export class FixtureError extends Error {
  override readonly name = "FixtureError";
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** An id a fixture gives: what a path parameter of the API accepts. */
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an id is 1 to 64 letters, digits, '-' or '_'");
const text = z.string().min(1);
const given = { id: id.optional() };

const page: z.ZodType<FixturePage> = z.lazy(() =>
  z.strictObject({ ...given, title: text, markdown: z.string().optional(), pages: z.array(page).optional() }),
);
const comment = z.strictObject({
  ...given,
  user: id,
  body: text,
  page: id.optional(),
  replies: z.array(z.strictObject({ ...given, user: id, body: text })).optional(),
});

const fixtureSchema = z.strictObject({
  users: z
    .array(
      z.strictObject({
        ...given,
        displayName: text,
        email: z.string().optional(),
        token: z.string().optional(),
        tokens: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  organizations: z
    .array(
      z.strictObject({
        ...given,
        title: text,
        members: z.array(z.strictObject({ user: id, role: z.enum(MEMBER_ROLES) })).optional(),
        teams: z.array(z.strictObject({ ...given, title: text, members: z.array(id).optional() })).optional(),
      }),
    )
    .optional(),
  collections: z
    .array(z.strictObject({ ...given, organization: id, title: text, parent: id.optional() }))
    .optional(),
  spaces: z
    .array(
      z.strictObject({
        ...given,
        organization: id,
        title: text,
        collection: id.optional(),
        author: id.optional(),
        pages: z.array(page).optional(),
        files: z
          .array(
            z.strictObject({
              ...given,
              name: text,
              contentType: z.string().optional(),
              text: z.string().optional(),
              data: z.string().optional(),
            }),
          )
          .optional(),
        changeRequests: z
          .array(
            z.strictObject({
              ...given,
              subject: text,
              status: z.enum(["draft", "open", "merged"]).optional(),
              pages: z.array(page).optional(),
              comments: z.array(comment).optional(),
            }),
          )
          .optional(),
        comments: z.array(comment).optional(),
      }),
    )
    .optional(),
  sites: z
    .array(
      z.strictObject({
        ...given,
        organization: id,
        title: text,
        type: siteType.optional(),
        visibility: siteVisibility.optional(),
        spaces: z.array(z.union([id, z.strictObject({ ...given, space: id })])).optional(),
        shareLinks: z.array(z.strictObject({ ...given, name: text })).optional(),
      }),
    )
    .optional(),
});

/**
 * Checks that `value` (a fixture read from JSON, say) has a fixture's shape, and returns it; throws a
 * {@link FixtureError} naming the first wrong field otherwise. References are checked when the
 * fixture is loaded, against the fixture and the double.
 *
 * @example
 * ```ts
 * const fixture = parseFixture(JSON.parse(await readFile("fixture.json", "utf8")));
 * ```
 */
export function parseFixture(value: unknown): Fixture {
  const result = fixtureSchema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new FixtureError(pathText(issue?.path ?? []), issue?.message ?? "invalid");
}

/** `spaces[1].pages[0].title` from `["spaces", 1, "pages", 0, "title"]`; `fixture` for the root. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) text += typeof key === "number" ? `[${key}]` : `${text ? "." : ""}${String(key)}`;
  return text || "fixture";
}
