import * as z from "zod";
import { renderingFor } from "../link-references/markdown-links.js";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { defineOperation, keyed } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import { onContent } from "./access.js";
import { pageBodyQuery, pageDocument } from "./page-body.js";

/**
 * The reference `JSONDocument`: what the markdown converter produces (document/from-markdown.ts),
 * with nodes left open, as the reference's block list is wider than what markdown expresses.
 */
export const documentSchema = z.looseObject({
  object: z.literal("document"),
  data: z.record(z.string(), z.unknown()),
  nodes: z.array(z.record(z.string(), z.unknown())),
});

/**
 * `getPageDocumentInRevisionById`: the JSON document of one page of a revision, the body a
 * renderer shows. The same document as `getPageInRevisionById` with `format=document`, converted
 * once per page version and evaluation mode (content/page-body.ts); `evaluated` substitutes the
 * page's `{{ ... }}` expressions as it does there. Every page of docsbase is a document page, so
 * a page of the revision always has one. Readable by whoever reads the revision, a reader token
 * included (for its own revision).
 */
const getPageDocumentInRevisionById = defineOperation({
  id: "getPageDocumentInRevisionById",
  method: "get",
  path: "/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document",
  tag: "revisions",
  summary: "The JSON document of one page of a revision",
  access: readableWithReaderToken(onContent("revision", "view")),
  params: z.object({ spaceId: pathParam(), revisionId: pathParam(), pageId: pathParam() }),
  query: z.object({ evaluated: pageBodyQuery.evaluated }),
  response: documentSchema,
  async run(scope, { params, query }) {
    const node = await scope.content.node(params.pageId, { children: false });
    if (!node) throw notFound(`Page "${params.pageId}" not found in revision "${params.revisionId}"`);
    const links = await renderingFor(scope, scope.content, [node.version], { writtenLinks: true });
    return pageDocument(node.version, links, query.evaluated, scope.cache) as z.infer<typeof documentSchema>;
  },
});

export const pageDocumentOperations = keyed([getPageDocumentInRevisionById]);
