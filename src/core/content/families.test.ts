import { describe, expectTypeOf, it } from "vitest";
import type { Client, ClientInput, ClientOutput } from "../client.js";
import type { Operations } from "../operations.js";
import type { File, Page } from "./present.js";

/**
 * The content families are built by functions; the compiler still sees each operation under its
 * literal id with its own family's path parameters (checked by `tsc`, which compiles this file).
 */
type Ours = Client<Operations>;
type Params<K extends keyof Operations> = Omit<ClientInput<Operations[K]>, "body">;

describe("content families in the typed client", () => {
  it("names the content by the family's own path parameters", () => {
    expectTypeOf<Params<"getPageById">>().toExtend<{ spaceId: string; pageId: string }>();
    expectTypeOf<Params<"getPageInChangeRequestById">>().toExtend<{
      spaceId: string;
      changeRequestId: string;
      pageId: string;
    }>();
    expectTypeOf<Params<"getPageInRevisionByPath">>().toExtend<{
      spaceId: string;
      revisionId: string;
      pagePath: string;
    }>();
    expectTypeOf<{ spaceId: string; pageId: string }>().not.toExtend<Params<"getPageInRevisionById">>();
    expectTypeOf<Params<"deleteFileInChangeRequest">>().toExtend<{
      spaceId: string;
      changeRequestId: string;
      fileId: string;
    }>();
    expectTypeOf<Params<"listChangeRequestFileBacklinks">>().toExtend<{
      spaceId: string;
      changeRequestId: string;
      fileId: string;
    }>();
  });

  it("answers each operation's own response", () => {
    expectTypeOf<ClientOutput<Operations["getPageInChangeRequestById"]>>().toEqualTypeOf<Page>();
    expectTypeOf<ClientOutput<Operations["uploadFileInChangeRequest"]>>().toEqualTypeOf<File>();
    expectTypeOf<Ours["listSpaceLinks"]>().toBeFunction();
    expectTypeOf<ReturnType<Ours["getRevisionById"]>>().resolves.toHaveProperty("pages");
  });
});
