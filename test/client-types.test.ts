import type {
  Api,
  ChangeRequest,
  Collection,
  Comment,
  CommentReply,
  Organization,
  OrganizationMember,
  PostCommentSchema,
  Space,
  Team,
  User,
} from "@gitbook/api";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Client, ClientInput, ClientOutput } from "../src/core/client.js";
import { operations, type Operations } from "../src/core/operations.js";
import { createDocsbase } from "../src/docsbase.js";
import { memoryStorage } from "../src/adapters/memory/index.js";

/**
 * The typed in-process client, checked by the compiler (`npm run typecheck` compiles this file):
 * its keys are exactly the registry's literal ids, and per family one output and one input agree
 * with the reference client's types. A failing assertion is a type error, not a failing run.
 */

type Ours = Client<Operations>;
/**
 * A reference type with its TypeScript enums read as the string literals they stand for
 * (`ContentVisibility` → `"public" | "unlisted" | ...`): the wire format both sides agree on.
 */
type Plain<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Plain<U>[]
    : T extends object
      ? { [K in keyof T]: Plain<T[K]> }
      : T;
/** The body an in-process method takes. */
type OurBody<K extends keyof Operations> = ClientInput<Operations[K]> extends { body?: infer B } ? B : never;
type Sdk = Api<unknown>;
/** The body type the reference client sends for one of its methods. */
type SdkBody<F> = F extends (a: string, data: infer D, ...rest: never[]) => unknown
  ? D
  : F extends (a: string, b: string, data: infer D, ...rest: never[]) => unknown
    ? D
    : never;

describe("the typed client", () => {
  it("has exactly the registry's ids as keys, each literal", () => {
    expectTypeOf<keyof Ours>().toEqualTypeOf<Operations[keyof Operations]["id"]>();
    // Literal keys: a plain `string` would make every misspelt id type-check.
    expectTypeOf<string>().not.toExtend<keyof Ours>();
    expectTypeOf<Ours>().toHaveProperty("listCommentsInSpace");
    expectTypeOf<Ours>().toHaveProperty("listCommentRepliesInChangeRequest");
    expectTypeOf<Ours>().toHaveProperty("listPages");
    expectTypeOf<Ours>().toHaveProperty("getPageInChangeRequestById");
    // And at run time the client has a method per operation, under its id.
    const client = createDocsbase({ storage: memoryStorage() }).as({ token: "unused" });
    expect(Object.keys(client).sort()).toEqual(
      Object.values(operations)
        .map((o) => o.id)
        .sort(),
    );
  });

  it("answers what the reference says, one output per family", () => {
    expectTypeOf<ClientOutput<Operations["getSpaceById"]>>().toExtend<Plain<Space>>();
    expectTypeOf<ClientOutput<Operations["getOrganizationById"]>>().toExtend<Plain<Organization>>();
    expectTypeOf<ClientOutput<Operations["getCollectionById"]>>().toExtend<Plain<Collection>>();
    // `description` is a document whose node types zod and the reference spell differently.
    expectTypeOf<Omit<ClientOutput<Operations["getChangeRequestById"]>, "description">>().toExtend<
      Omit<Plain<ChangeRequest>, "description">
    >();
    expectTypeOf<ClientOutput<Operations["getCommentInSpace"]>>().toExtend<Plain<Comment>>();
    expectTypeOf<ClientOutput<Operations["getCommentReplyInChangeRequest"]>>().toExtend<
      Plain<CommentReply>
    >();
    expectTypeOf<ClientOutput<Operations["getTeamInOrganizationById"]>>().toExtend<Plain<Team>>();
    expectTypeOf<ClientOutput<Operations["getMemberInOrganizationById"]>>().toExtend<
      Plain<OrganizationMember>
    >();
    expectTypeOf<ClientOutput<Operations["getAuthenticatedUser"]>>().toExtend<Plain<User>>();
  });

  it("accepts what the reference client sends, one input per family", () => {
    expectTypeOf<Plain<PostCommentSchema>>().toExtend<OurBody<"postCommentInSpace">>();
    type CreateCollection = SdkBody<Sdk["orgs"]["createCollection"]>;
    expectTypeOf<Plain<CreateCollection>>().toExtend<OurBody<"createCollection">>();
    type CreateChangeRequest = SdkBody<Sdk["spaces"]["createChangeRequest"]>;
    expectTypeOf<Plain<CreateChangeRequest>>().toExtend<OurBody<"createChangeRequest">>();
    type CreateTeam = SdkBody<Sdk["orgs"]["createOrganizationTeam"]>;
    expectTypeOf<Plain<CreateTeam>>().toExtend<OurBody<"createOrganizationTeam">>();
  });
});
