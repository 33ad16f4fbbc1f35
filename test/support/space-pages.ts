import type { Workspace } from "./workspace.js";

/** A 1x1 transparent PNG, base64. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * A new space of the workspace's organization, with `logo.png` uploaded (at
 * `.gitbook/assets/logo.png`) and a writer of pages through the owner's typed client.
 */
export async function spaceWithLogo(w: Workspace, title = "Docs") {
  const { client } = w;
  const space = await w.space({ title });
  /** A path of the space's content, for what only HTTP shows (a delete's 205). */
  const content = (path: string) => `/spaces/${space}/content${path}`;
  /** Creates a page (under `parent` when given) and answers its id. */
  const page = async (title: string, markdown: string, parent?: string) =>
    (await client.createPage({ spaceId: space, body: { title, markdown, ...(parent ? { parent } : {}) } }))
      .id;
  const logo = (
    await client.uploadFile({
      spaceId: space,
      body: { name: "logo.png", contentType: "image/png", data: PNG },
    })
  ).id;
  return { space, content, page, logo };
}
