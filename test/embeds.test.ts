import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * `getEmbedByUrlInSpace` against pages served by a real HTTP server on 127.0.0.1, which the
 * guarded outbound fetch reaches with `allowPrivateNetwork` only (docs/api.md, "Embeds").
 */

const PAGE = `<!doctype html><html><head>
  <title>Guide &amp; reference</title>
  <meta property="og:site_name" content="Example Docs">
  <link rel="icon" href="/static/icon.png">
</head><body>Hello</body></html>`;

/** Memory storage that counts the transactions open at each moment. */
function watchedStorage(): { storage: Storage; open(): number } {
  const inner = memoryStorage();
  let open = 0;
  async function counted<T>(body: () => Promise<T>): Promise<T> {
    open++;
    try {
      return await body();
    } finally {
      open--;
    }
  }
  const storage: Storage = {
    init: (schema) => inner.init(schema),
    read: (fn) => inner.read((tx) => counted(() => fn(tx))),
    write: (fn) => inner.write((tx) => counted(() => fn(tx))),
    close: () => inner.close(),
  };
  return { storage, open: () => open };
}

describe("getEmbedByUrlInSpace", () => {
  let server: Server;
  let origin: string;
  const requests: { path: string; openTransactions: number }[] = [];
  const watched = watchedStorage();
  let test: TestDocsbase;
  let owner: { id: string; token: string };
  let spaceId: string;
  let organizationId: string;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const path = request.url ?? "/";
      requests.push({ path, openTransactions: watched.open() });
      if (path === "/guide")
        return response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      if (path === "/moved") return response.writeHead(302, { location: "/docs/deep/page" }).end();
      if (path === "/docs/deep/page")
        return response
          .writeHead(200, { "content-type": "application/xhtml+xml" })
          .end(`<html><head><title>Deep</title><link rel=icon href=favicon.ico></head></html>`);
      if (path === "/data.json")
        return response.writeHead(200, { "content-type": "application/json" }).end(`{"title":"x"}`);
      if (path === "/plain")
        return response.writeHead(200, { "content-type": "text/html" }).end("no head at all");
      response.writeHead(404, { "content-type": "text/html" }).end("<title>Not found</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    test = await createTestDocsbase({ storage: watched.storage, allowPrivateNetwork: true });
    owner = await test.createUser("Owner");
    organizationId = (await test.as(owner).createOrganization({ body: { title: "Acme" } })).id;
    spaceId = (await test.as(owner).createSpace({ organizationId, body: { title: "Docs" } })).id;
  });
  afterAll(async () => {
    await test.docsbase.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the page's title, site name and icon, fetched once no transaction is open", async () => {
    const embed = await test.as(owner).getEmbedByUrlInSpace({ spaceId, url: `${origin}/guide` });
    expect(embed).toEqual({
      type: "link",
      title: "Guide & reference",
      site: "Example Docs",
      icon: `${origin}/static/icon.png`,
    });
    expect(requests.at(-1)).toEqual({ path: "/guide", openTransactions: 0 });
  });

  it("follows redirects, resolving the icon against the page it ended on", async () => {
    expect(await test.as(owner).getEmbedByUrlInSpace({ spaceId, url: `${origin}/moved` })).toEqual({
      type: "link",
      title: "Deep",
      site: "127.0.0.1",
      icon: `${origin}/docs/deep/favicon.ico`,
    });
  });

  it("answers a link-only embed for what is not an HTML page, or not found", async () => {
    const linkOnly = (url: string) => ({ type: "link", title: url, site: "127.0.0.1" });
    for (const path of ["/data.json", "/missing", "/plain"]) {
      const url = `${origin}${path}`;
      expect(await test.as(owner).getEmbedByUrlInSpace({ spaceId, url }), path).toEqual(linkOnly(url));
    }
  });

  it("answers a link-only embed for an address the guard refuses, which it never reaches", async () => {
    const guarded = await createTestDocsbase();
    const user = await guarded.createUser("Owner");
    const org = (await guarded.as(user).createOrganization({ body: { title: "Acme" } })).id;
    const space = (await guarded.as(user).createSpace({ organizationId: org, body: { title: "Docs" } })).id;
    const before = requests.length;
    const url = `${origin}/guide`;
    expect(await guarded.as(user).getEmbedByUrlInSpace({ spaceId: space, url })).toEqual({
      type: "link",
      title: url,
      site: "127.0.0.1",
    });
    expect(requests).toHaveLength(before);
    await guarded.docsbase.close();
  });

  it("refuses a URL that is not an absolute http(s) URL with 400 naming query.url", async () => {
    for (const url of [
      "not a url",
      "ftp://example.com/x",
      "javascript:alert(1)",
      `https://e.com/${"a".repeat(3000)}`,
    ]) {
      const answer = await test.request("GET", `/spaces/${spaceId}/embed?url=${encodeURIComponent(url)}`, {
        token: owner.token,
      });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message).toContain("query.url");
    }
    const missing = await test.request("GET", `/spaces/${spaceId}/embed`, { token: owner.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain("query.url");
  });

  it("is for those who read the space: 404 to others, and nothing fetched for them", async () => {
    const stranger = await test.createUser("Stranger");
    const before = requests.length;
    await expect(
      test.as(stranger).getEmbedByUrlInSpace({ spaceId, url: `${origin}/guide` }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      test.as(owner).getEmbedByUrlInSpace({ spaceId: "no-such-space", url: `${origin}/guide` }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(requests).toHaveLength(before);
  });

  it("answers a published site's reader token for its own space, and refuses it elsewhere", async () => {
    const client = test.as(owner);
    const siteId = (
      await client.createSite({ organizationId, body: { title: "Handbook", spaces: [spaceId] } })
    ).id;
    await client.publishSite({ organizationId, siteId });
    const other = (await client.createSpace({ organizationId, body: { title: "Other" } })).id;
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const lookup = (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body;
    const reader = test.docsbase.as({ token: lookup.apiToken });
    expect(await reader.getEmbedByUrlInSpace({ spaceId, url: `${origin}/guide` })).toMatchObject({
      title: "Guide & reference",
    });
    await expect(
      reader.getEmbedByUrlInSpace({ spaceId: other, url: `${origin}/guide` }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});
