import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { startServer } from "../src/cli/serve.js";
import type { DocsbaseOptions } from "../src/docsbase.js";
import { createTestDocsbase } from "../src/testing/double.js";

/** A docsbase with an organization, a live space and an open change request, as the operator. */
async function setup(options: Partial<DocsbaseOptions> = {}) {
  const test = await createTestDocsbase(options);
  const api = (method: string, path: string, body?: unknown) =>
    test.request(method, path, body === undefined ? {} : { body });
  const client = test.as(test.operatorToken);
  const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
  const space = (await client.createSpace({ organizationId: org, body: { title: "Docs" } })).id;
  const cr = (await client.createChangeRequest({ spaceId: space, body: { subject: "Edits" } })).id;
  const changeRequest = { spaceId: space, changeRequestId: cr };
  /** Uploads a file to the space, or to the change request `inChangeRequest`. */
  const upload = async (name: string, contentType: string, text: string, inChangeRequest = false) => {
    const body = { name, contentType, data: btoa(text) };
    return inChangeRequest
      ? client.uploadFileInChangeRequest({ ...changeRequest, body })
      : client.uploadFile({ spaceId: space, body });
  };
  /** The URL of the change request's PDF export. */
  const pdf = async () => (await client.getChangeRequestPDF(changeRequest)).url;
  /** Fetches a URL with no token, as a browser opening a link would. */
  const open = (url: string) => test.docsbase.fetch(new Request(url));
  return { test, api, client, org, space, cr, changeRequest, upload, pdf, open };
}

const CSP = "sandbox; default-src 'none'";
const BAD_SEGMENTS = ["%zz", "%", "%E0%A4%A", "%ED%A0%80", "%C0%AF"];

async function expectBadRequest(response: Response, what: string) {
  expect(response.status, what).toBe(400);
  const body = await response.json();
  expect(body, what).toEqual({ error: { code: 400, message: expect.any(String) } });
  return body.error.message as string;
}

describe("downloads", () => {
  it("serve script- and document-capable uploads as sandboxed attachments, raster images inline", async () => {
    const { upload, open } = await setup();
    const cases: [name: string, type: string, text: string, served: string, disposition: string][] = [
      [
        "x.svg",
        "image/svg+xml",
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        "image/svg+xml",
        "attachment",
      ],
      ["x.html", "text/html", "<script>alert(1)</script>", "text/html", "attachment"],
      [
        "x.xhtml",
        "application/xhtml+xml",
        '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
        "application/xhtml+xml",
        "attachment",
      ],
      ["x.xml", "application/xml", '<?xml-stylesheet href="x.xsl"?><a/>', "application/xml", "attachment"],
      ["x.js", "text/javascript", "alert(1)", "application/octet-stream", "attachment"],
      ["x.mjs", "application/javascript", "alert(1)", "application/octet-stream", "attachment"],
      ["x.css", "text/css", "body{}", "application/octet-stream", "attachment"],
      ["x.txt", "text/plain", "hello", "text/plain", "attachment"],
      ["x.pdf", "application/pdf", "%PDF-1.4", "application/pdf", "attachment"],
      ["x.bin", "application/x-unknown-thing", "?", "application/x-unknown-thing", "attachment"],
      // The declared type is what a browser acts on (nosniff), whatever the name says.
      ["x.png", "text/html", "<script>alert(1)</script>", "text/html", "attachment"],
      ["x.html", "image/png", "<script>alert(1)</script>", "image/png", "inline"],
      ["x.png", "image/png", "\x89PNG\r\n\x1a\n", "image/png", "inline"],
      ["x.jpg", "image/jpeg", "\xff\xd8\xff", "image/jpeg", "inline"],
      ["x.webp", "image/webp", "RIFF", "image/webp", "inline"],
    ];
    for (const [name, type, text, served, disposition] of cases) {
      const file = await upload(name, type, text);
      const response = await open(file.downloadURL);
      const what = `${name} as ${type}`;
      expect(response.status, what).toBe(200);
      expect(response.headers.get("content-type"), what).toBe(served);
      expect(response.headers.get("content-disposition"), what).toBe(`${disposition}; filename="${name}"`);
      expect(response.headers.get("content-security-policy"), what).toBe(CSP);
      expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
      expect(new TextDecoder("latin1").decode(await response.arrayBuffer()), what).toBe(text);
    }
  });

  it("name a non-ASCII file with filename* (RFC 6266) beside an ASCII stand-in", async () => {
    const { upload, open } = await setup();
    const file = await upload('résumé "final" 100%.txt', "text/plain", "cv");
    expect((await open(file.downloadURL)).headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ _final_ 100_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%20100%25.txt`,
    );
  });

  it("serve PDF exports as sandboxed attachments, inline only with inlinePdf", async () => {
    for (const inlinePdf of [false, true]) {
      const { client, changeRequest, upload, pdf, open } = await setup({ inlinePdf });
      await client.createPageInChangeRequest({ ...changeRequest, body: { title: "Intro" } });
      const response = await open(await pdf());
      expect(response.status).toBe(200);
      const disposition = inlinePdf ? "inline" : "attachment";
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toMatch(
        new RegExp(`^${disposition}; filename="\\w+\\.pdf"$`),
      );
      expect(response.headers.get("content-security-policy")).toBe(CSP);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const pdfFile = await open((await upload("a.pdf", "application/pdf", "%PDF-1.4")).downloadURL);
      expect(pdfFile.headers.get("content-disposition")).toBe(`${disposition}; filename="a.pdf"`);
    }
  });

  it("use downloadBaseUrl in every download URL, served by the same handler", async () => {
    const downloads = "https://files.docs.example";
    const { api, space, upload, pdf, open } = await setup({ downloadBaseUrl: `${downloads}/` });
    const file = await upload("a.png", "image/png", "png");
    expect(file.downloadURL).toBe(
      `${downloads}/v1/files/${new URL(file.downloadURL).pathname.split("/")[3]}/a.png`,
    );
    expect((await api("GET", `/spaces/${space}/content/files/${file.id}`)).body.downloadURL).toBe(
      file.downloadURL,
    );
    const listed = (await api("GET", `/spaces/${space}/content/files`)).body.items;
    expect(listed.map((item: { downloadURL: string }) => item.downloadURL)).toEqual([file.downloadURL]);
    const inRequest = await upload("b.png", "image/png", "png", true);
    expect(inRequest.downloadURL.startsWith(`${downloads}/v1/files/`)).toBe(true);
    const url = await pdf();
    expect(url).toMatch(new RegExp(`^${downloads}/v1/exports/\\w+\\.pdf$`));
    expect((await open(file.downloadURL)).status).toBe(200);
    expect((await open(url)).status).toBe(200);
    // Other URLs stay on the API's base.
    expect((await api("GET", `/spaces/${space}`)).body.urls.location).toBe(
      `http://docsbase.test/v1/spaces/${space}`,
    );
  });
});

describe("undecodable paths", () => {
  it("answer 400 with the standard error body on download, export and registry routes", async () => {
    const { test, org, space, upload } = await setup();
    const file = await upload("x.txt", "text/plain", "x");
    const version = new URL(file.downloadURL).pathname.split("/")[3]!;
    const base = "http://docsbase.test/v1";
    for (const bad of BAD_SEGMENTS) {
      const anonymous = [
        `${base}/files/${bad}/x.txt`,
        `${base}/files/${version}/${bad}`,
        `${base}/files/${version}/${bad}.txt`,
        `${base}/exports/${bad}`,
        `${base}/exports/${bad}.pdf`,
      ];
      for (const url of anonymous) await expectBadRequest(await test.fetch(url), url);
      const registry = [
        `/spaces/${bad}`,
        `/orgs/${org}/members/${bad}`,
        `/spaces/${space}/content/files/${bad}`,
        `/spaces/${space}/content/path/${bad}`,
        `/spaces/${space}/content/path/intro/${bad}`,
      ];
      for (const path of registry) {
        const response = await test.fetch(`${base}${path}`, {
          headers: { authorization: `Bearer ${test.operatorToken}` },
        });
        const message = await expectBadRequest(response, path);
        expect(message, path).toMatch(/^path\.\w+: /);
      }
    }
  });

  it("refuse names, titles and slugs holding a lone surrogate with 400, storing nothing", async () => {
    const { api, org, space, cr } = await setup();
    const lone = "\ud800";
    for (const where of [`/spaces/${space}/content`, `/spaces/${space}/change-requests/${cr}/content`]) {
      for (const name of [`${lone}.txt`, `x${"\udc00"}.txt`, `${"\udc00\ud800"}.txt`]) {
        const response = await api("POST", `${where}/files`, {
          name,
          contentType: "text/plain",
          data: "eA==",
        });
        expect(response.status, where).toBe(400);
        expect(response.body.error.message).toMatch(/^body\.name: .*lone surrogate/);
      }
      const page = await api("POST", `${where}/pages`, { title: `A${lone}` });
      expect(page.status).toBe(400);
      expect(page.body.error.message).toMatch(/^body\.title: /);
      expect((await api("GET", `${where}/files`)).body.items).toEqual([]);
      expect((await api("GET", `${where}/pages`)).body.pages).toEqual([]);
    }
    const titled: [string, string][] = [
      ["POST", "/orgs"],
      ["POST", `/orgs/${org}/spaces`],
      ["POST", `/orgs/${org}/collections`],
      ["PUT", `/orgs/${org}/teams`],
      ["PATCH", `/spaces/${space}`],
    ];
    for (const [method, path] of titled) {
      const response = await api(method, path, { title: `Ti${lone}tle` });
      expect(response.status, path).toBe(400);
      expect(response.body.error.message, path).toMatch(/^body\.title: /);
    }
    expect((await api("GET", `/spaces/${space}`)).body.title).toBe("Docs");
    expect((await api("GET", "/orgs")).body.items.map((o: { title: string }) => o.title)).toEqual(["Acme"]);
    // A well-formed pair (an emoji) is fine.
    expect(
      (
        await api("POST", `/spaces/${space}/content/files`, {
          name: "😀.txt",
          contentType: "text/plain",
          data: "eA==",
        })
      ).status,
    ).toBe(201);
  });
});

describe("dot segments", () => {
  it("answer 400 when the runtime hands the handler the target as sent", async () => {
    const { test, org } = await setup();
    for (const segment of ["%2e%2e", "%2E%2E", ".%2e", "%2e.", "%2e", ".."]) {
      const request = new Request(`http://docsbase.test/v1/orgs/${org}/members/x`, {
        headers: { authorization: `Bearer ${test.operatorToken}` },
      });
      // What a runtime that does not resolve dot segments would pass (a WHATWG Request resolves them).
      Object.defineProperty(request, "url", {
        value: `http://docsbase.test/v1/orgs/${org}/members/${segment}`,
      });
      const message = await expectBadRequest(await test.docsbase.fetch(request), segment);
      expect(message).toMatch(/dot segments/);
    }
  });

  it("answer 400 on the standalone server, which reads the raw request target", async () => {
    const server = await startServer({
      port: 0,
      host: "127.0.0.1",
      db: "",
      memory: true,
      adminToken: "dbt_downloads_test_operator",
      log: () => {},
    });
    try {
      const { port } = new URL(server.url);
      const get = (path: string) =>
        new Promise<{ status: number; body: unknown }>((resolve, reject) => {
          const request = httpRequest(
            {
              host: "127.0.0.1",
              port,
              path,
              headers: { authorization: "Bearer dbt_downloads_test_operator" },
            },
            (response) => {
              let text = "";
              response.setEncoding("utf8");
              response.on("data", (chunk: string) => (text += chunk));
              response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
            },
          );
          request.on("error", reject);
          request.end();
        });
      const org = await server.docsbase.as({ token: "dbt_downloads_test_operator" }).createOrganization({
        body: { title: "Acme" },
      });
      expect((await get(`/v1/orgs/${org.id}`)).status).toBe(200);
      for (const segment of ["%2e%2e", "%2E%2E", ".%2e", "%2E.", "..", "%2e"]) {
        const answer = await get(`/v1/orgs/${org.id}/members/${segment}`);
        expect(answer, segment).toEqual({
          status: 400,
          body: { error: { code: 400, message: expect.stringMatching(/dot segments/) } },
        });
      }
      // Percent-encoded dots inside a longer segment are plain text, matching no id.
      expect((await get(`/v1/orgs/${org.id}/members/%2e%2ex`)).status).toBe(404);
      expect((await get(`/v1/files/%zz/x.txt`)).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
