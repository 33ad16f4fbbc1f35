import { AutoRouter, IttyRouter, Router } from "itty-router";
import { describe, expect, it } from "vitest";
import { mountDocsbase, type DocsbaseOptions } from "../src/docsbase.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { gate, jobsDocsbase } from "./support/jobs.js";

/** Two identical instances see the same requests in the same order: same clock, same ids. */
function options(): Partial<DocsbaseOptions> {
  let id = 0;
  return {
    clock: () => new Date("2026-01-01T00:00:00Z"),
    ids: () => `id${String(++id).padStart(6, "0")}`,
    maxBodyBytes: 2048,
  };
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const ORIGIN = "http://localhost";
const auth = { authorization: "Bearer dbt_operator_test_token" };
const json = { ...auth, "content-type": "application/json" };

async function seen(response: Response) {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()).toString("base64"),
  };
}

describe("mountDocsbase", () => {
  it("answers through the host's router exactly as docsbase.fetch does", async () => {
    const viaRouter = await createTestDocsbase(options());
    const viaFetch = await createTestDocsbase(options());
    const router = IttyRouter();
    mountDocsbase(router, viaRouter.docsbase);
    const request = ({ method, path, headers = {}, body }: Sent) =>
      new Request(`${ORIGIN}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    /** Sends the same request both ways; expects the same status, headers and bytes; returns it. */
    const same = async (sent: Sent) => {
      const routed = await seen((await router.fetch(request(sent))) as Response);
      const fetched = await seen(await viaFetch.docsbase.fetch(request(sent)));
      expect(routed, `${sent.method} ${sent.path}`).toEqual(fetched);
      return { ...fetched, json: () => JSON.parse(Buffer.from(fetched.body, "base64").toString()) };
    };

    expect((await same({ method: "GET", path: "/v1/user", headers: auth })).status).toBe(200);
    expect((await same({ method: "GET", path: "/v1/openapi.json" })).status).toBe(200);
    const org = await same({ method: "POST", path: "/v1/orgs", headers: json, body: '{"title":"Acme"}' });
    expect(org.status).toBe(201);
    const orgId = org.json().id as string;
    const space = await same({
      method: "POST",
      path: `/v1/orgs/${orgId}/spaces`,
      headers: json,
      body: '{"title":"Docs"}',
    });
    const spaceId = space.json().id as string;
    const page = await same({
      method: "POST",
      path: `/v1/spaces/${spaceId}/content/pages`,
      headers: json,
      body: '{"title":"Intro","markdown":"Hello"}',
    });
    expect(page.status).toBe(201);
    // The rest parameter, a query string, a trailing slash.
    expect(
      (await same({ method: "GET", path: `/v1/spaces/${spaceId}/content/path/intro`, headers: auth })).status,
    ).toBe(200);
    expect(
      (await same({ method: "GET", path: `/v1/orgs/${orgId}/spaces/?limit=1&x=a%20b&x=c`, headers: auth }))
        .status,
    ).toBe(200);
    // A file download, an extra route of the handler's.
    const file = await same({
      method: "POST",
      path: `/v1/spaces/${spaceId}/content/files`,
      headers: json,
      body: JSON.stringify({ name: "a.png", contentType: "image/png", data: btoa("\u0089PNG bytes") }),
    });
    const download = new URL(file.json().downloadURL as string);
    expect((await same({ method: "GET", path: download.pathname })).status).toBe(200);
    // docsbase's own answers: 404, 405 (HEAD too), 400, 401, 413, 415, a malformed escape.
    for (const sent of [
      { method: "GET", path: "/v1/nowhere", headers: auth },
      { method: "GET", path: "/v1", headers: auth },
      { method: "GET", path: "/v1/", headers: auth },
      { method: "DELETE", path: "/v1/openapi.json" },
      { method: "HEAD", path: "/v1/user", headers: auth },
      { method: "POST", path: "/v1/orgs", headers: json, body: "{oops" },
      { method: "GET", path: "/v1/user" },
      { method: "POST", path: "/v1/orgs", headers: json, body: `{"title":"${"x".repeat(4096)}"}` },
      { method: "POST", path: "/v1/orgs", headers: { ...auth, "content-type": "text/plain" }, body: "hi" },
      { method: "GET", path: "/v1/orgs/%zz", headers: auth },
      { method: "GET", path: "/v1/orgs/%C3%A9t%C3%A9", headers: auth },
    ]) {
      expect((await same(sent)).status, `${sent.method} ${sent.path}`).toBeGreaterThanOrEqual(400);
    }
    await viaRouter.docsbase.close();
    await viaFetch.docsbase.close();
  });

  it("leaves the host's routes be, under the router's base and a prefix", async () => {
    const test = await createTestDocsbase();
    const router = Router({ base: "/api" });
    router.get("/docs/v1/status", () => new Response("host status"));
    mountDocsbase(router, test.docsbase, { prefix: "/docs/" });
    router.get("/docs/v1/late", () => new Response("never reached"));
    router.get("/elsewhere", () => new Response("host elsewhere"));
    const send = async (path: string, headers: Record<string, string> = auth) =>
      (await router.fetch(new Request(`${ORIGIN}${path}`, { headers }))) as Response | undefined;

    expect(await (await send("/api/elsewhere"))?.text()).toBe("host elsewhere");
    // A host route under /v1 added first wins; one added after the mount is never reached.
    expect(await (await send("/api/docs/v1/status"))?.text()).toBe("host status");
    const late = await send("/api/docs/v1/late");
    expect([late?.status, await late?.json()]).toEqual([
      404,
      { error: { code: 404, message: "No route for GET /api/docs/v1/late" } },
    ]);
    expect(await (await send("/api/docs/v1/user"))?.json()).toMatchObject({ object: "user" });
    // Outside the prefix, nothing of docsbase's: the router's own "no answer".
    expect(await send("/v1/user")).toBeUndefined();
    expect(await send("/api/v1/user")).toBeUndefined();
    await test.docsbase.close();
  });

  it("refuses a prefix that is not a path", async () => {
    const test = await createTestDocsbase();
    expect(() => mountDocsbase(AutoRouter(), test.docsbase, { prefix: "docs" })).toThrow(/prefix/);
    expect(() => mountDocsbase(AutoRouter(), {} as never)).toThrow(/Not a docsbase instance/);
    await test.docsbase.close();
  });

  it("hands a drain of the jobs a request queued to a waitUntil among the router's arguments", async () => {
    const ran = gate<string>();
    const { docsbase, queueRequest } = await jobsDocsbase({
      note: async (_world, payload) => ran.open(String(payload["n"])),
    });
    const router = AutoRouter();
    mountDocsbase(router, docsbase);
    const handedOver: Promise<unknown>[] = [];
    const env = {};
    const context = { waitUntil: (promise: Promise<unknown>) => void handedOver.push(promise) };
    const response = (await router.fetch(queueRequest("note", 0, { n: 1 }), env, context)) as Response;
    expect(response.status).toBe(201);
    expect(handedOver).toHaveLength(1);
    await Promise.all(handedOver);
    expect(await ran.promise).toBe("1");
    await docsbase.close();
  });
});
