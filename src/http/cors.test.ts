import { afterEach, describe, expect, it } from "vitest";
import { memoryStorage } from "../adapters/memory/index.js";
import { createDocsbase, type Docsbase } from "../docsbase.js";

/** CORS through the fetch handler: preflights, the headers of answers, the option's checks. */
describe("corsOrigins", () => {
  const APP = "https://app.example.com";
  let docsbase: Docsbase | undefined;
  let token: string;
  afterEach(async () => {
    await docsbase?.close();
    docsbase = undefined;
  });

  async function start(corsOrigins?: readonly string[]) {
    docsbase = createDocsbase({ storage: memoryStorage(), ...(corsOrigins ? { corsOrigins } : {}) });
    token = (await docsbase.bootstrap()).token!;
    return docsbase;
  }
  const preflight = (origin: string, path = "/v1/user") =>
    docsbase!.fetch(
      new Request(`http://localhost${path}`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "PUT",
          "access-control-request-headers": "authorization, content-type",
        },
      }),
    );
  const get = (headers: Record<string, string>, path = "/v1/user") =>
    docsbase!.fetch(new Request(`http://localhost${path}`, { headers }));

  it("without the option: no CORS header, and a preflight is any OPTIONS (405)", async () => {
    await start();
    const answer = await preflight(APP);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const read = await get({ origin: APP, authorization: `Bearer ${token}` });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers an allowed origin's preflight, and marks every answer to it, errors included", async () => {
    await start([APP, "http://127.0.0.1:5173"]);
    const answer = await preflight(APP, "/v1/spaces/any/pushes/push_0123456789");
    expect(answer.status).toBe(204);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600",
      vary: "origin",
    });
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();

    const read = await get({ origin: "http://127.0.0.1:5173", authorization: `Bearer ${token}` });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
    expect(read.headers.get("access-control-expose-headers")).toContain("x-ratelimit-remaining");
    const refused = await get({ origin: APP });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(APP);
    const missing = await get({ origin: APP, authorization: `Bearer ${token}` }, "/v1/no-such-route");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("says nothing to another origin or to a request without one", async () => {
    await start([APP]);
    const other = await preflight("https://evil.example.com");
    expect(other.status).toBe(405);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const read = await get({ origin: "https://evil.example.com", authorization: `Bearer ${token}` });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    const sameOrigin = await get({ authorization: `Bearer ${token}` });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get("access-control-allow-origin")).toBeNull();
  });

  it('"*" allows any origin, without Vary', async () => {
    await start(["*"]);
    const answer = await preflight("https://anywhere.example.org");
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("vary")).toBeNull();
    const read = await get({ origin: "https://anywhere.example.org", authorization: `Bearer ${token}` });
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each(["app.example.com", "https://app.example.com/", "https://app.example.com/docs", "", "null"])(
    "refuses %j as an origin, naming the option",
    (origin) => {
      expect(() => createDocsbase({ storage: memoryStorage(), corsOrigins: [origin] })).toThrow(
        /^corsOrigins must list origins/,
      );
    },
  );
});
