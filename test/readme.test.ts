import { readFile } from "node:fs/promises";
import { transform } from "esbuild";
import { AutoRouter, type RouteEntry } from "itty-router";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createDocsbase, type Docsbase, mountDocsbase } from "../src/index.js";
import { createTestDocsbase } from "../src/testing/double.js";

/**
 * The README's embedding example, run as written: its imports are left out (the test passes the
 * functions, SQLite replaced by memory storage and `process.env` by the test's), and its
 * `export default` becomes a value the test reads.
 */
async function embeddingExample() {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## Embedding")))?.[1];
  if (!block) throw new Error("README has no embedding example");
  const code = block.replace(/^import .*\n/gm, "").replace(/^export default /m, "const served = ");
  const { code: js } = await transform(
    `async function example(createDocsbase, sqliteStorage, process, console) {\n${code}\nreturn { docsbase, served, api, org, space };\n}`,
    { loader: "ts" },
  );
  const run = new Function(`${js}\nreturn example;`)() as (...values: unknown[]) => Promise<{
    docsbase: Docsbase;
    served: { fetch: (request: Request) => Promise<Response> };
    org: { id: string };
    space: { title: string; organization: string };
  }>;
  return async (env: Record<string, string>) => {
    const printed: string[] = [];
    const console = { log: (line: string) => printed.push(line) };
    const result = await run(createDocsbase, () => memoryStorage(), { env }, console);
    return { ...result, printed };
  };
}

describe("README embedding example", () => {
  const userStatus = async (served: { fetch: (request: Request) => Promise<Response> }, token: string) =>
    (
      await served.fetch(
        new Request("https://docs.example.com/v1/user", { headers: { authorization: `Bearer ${token}` } }),
      )
    ).status;

  it("bootstraps with DOCSBASE_ADMIN_TOKEN, serves fetch and runs typed operations in process", async () => {
    const token = "dbt_readme_example_token";
    const { served, space, org, printed } = await (await embeddingExample())({ DOCSBASE_ADMIN_TOKEN: token });
    expect(await userStatus(served, token)).toBe(200);
    expect(space).toMatchObject({ title: "Handbook", organization: org.id });
    expect(printed).toEqual([]);
  });

  it("works with DOCSBASE_ADMIN_TOKEN unset: the token bootstrap created is printed and valid", async () => {
    const { served, space, org, printed } = await (await embeddingExample())({});
    expect(space).toMatchObject({ title: "Handbook", organization: org.id });
    const token = /^Operator token: (\S+)$/.exec(printed[0] ?? "")?.[1];
    expect(token).toBeDefined();
    expect(await userStatus(served, token!)).toBe(200);
  });
});

describe("in-process client", () => {
  it("acts as a user by id, validates like HTTP, and throws typed errors", async () => {
    const docsbase = createDocsbase({ storage: memoryStorage() });
    const { userId } = await docsbase.bootstrap({ token: "dbt_in_process_client_token" });
    const operator = docsbase.as({ userId });
    const user = await operator.createUser({ body: { displayName: "Ada", email: "ada@example.com" } });
    const ada = docsbase.as({ userId: user.id });
    expect(await ada.getAuthenticatedUser()).toMatchObject({ id: user.id, displayName: "Ada" });
    await expect(ada.createOrganization({ body: { title: "A" } })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^body\.title: /),
    });
    await expect(
      ada.createUser({ body: { displayName: "Eve", email: "eve@example.com" } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(docsbase.as({ userId: "nobody" }).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
    await expect(docsbase.as({ token: "dbt_wrong" }).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
  });
});

/**
 * A code block of the README, run as written: its imports are left out (the test passes the real
 * functions), and it returns `result`.
 */
async function readmeBlock<T>(heading: string, index: number, result: string, ...names: string[]) {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf(heading));
  const block = [...section.matchAll(/```ts\n([\s\S]*?)```/g)][index]?.[1];
  if (!block) throw new Error(`README has no example under ${heading}`);
  const code = block.replace(/^import .*\n/gm, "");
  const { code: js } = await transform(
    `async function example(${names.join(", ")}) {\n${code}\nreturn ${result};\n}`,
    { loader: "ts" },
  );
  return new Function(`${js}\nreturn example;`)() as (...values: unknown[]) => Promise<T>;
}

describe("README test-double example", () => {
  it("calls typed as a user, and a refusal carries the code and message of the HTTP answer", async () => {
    const run = await readmeBlock<{
      test: Awaited<ReturnType<typeof createTestDocsbase>>;
      space: { id: string; title: string };
      bob: { token: string };
      refused: unknown;
    }>("### Test double", 1, "{ test, space, bob, refused }", "createTestDocsbase");
    const { test, space, bob, refused } = await run(createTestDocsbase);
    expect(space.title).toBe("Handbook");
    const answered = await test.request("GET", `/spaces/${space.id}`, { token: bob.token });
    expect(answered.status).toBe(404);
    expect(refused).toMatchObject({ code: "not_found", message: answered.body.error.message });
  });
});

describe("README host-authentication example", () => {
  const readmeExample = () =>
    readmeBlock<Docsbase>("### Host authentication", 0, "docsbase", "createDocsbase", "storage", "sessions");

  it("maps the host's session cookie to a docsbase user, and tokens keep working", async () => {
    const sessions = new Map<string, { docsbaseUserId: string }>();
    const docsbase = await (await readmeExample())(createDocsbase, memoryStorage(), sessions);
    const token = "dbt_host_auth_operator_token";
    const { userId } = await docsbase.bootstrap({ token });
    const ada = await docsbase
      .as({ userId })
      .createUser({ body: { displayName: "Ada", email: "ada@example.com" } });
    sessions.set("s3cr3t", { docsbaseUserId: ada.id });
    const get = (headers: Record<string, string>) =>
      docsbase.fetch(new Request("http://localhost/v1/user", { headers }));

    const bySession = await get({ cookie: "theme=dark; sid=s3cr3t" });
    expect(bySession.status).toBe(200);
    expect(await bySession.json()).toMatchObject({ id: ada.id, displayName: "Ada" });
    // No session: the bearer token is used, as without the hook.
    const byToken = await get({ authorization: `Bearer ${token}` });
    expect(await byToken.json()).toMatchObject({ id: userId });
    // An unknown session and no token: unauthenticated.
    expect((await get({ cookie: "sid=unknown" })).status).toBe(401);
    // A session naming a user docsbase does not know is refused, not trusted.
    sessions.set("stale", { docsbaseUserId: "deleted-user" });
    expect((await get({ cookie: "sid=stale" })).status).toBe(401);
  });
});

describe("README itty-router mounting example", () => {
  /**
   * The README's code block, run as written: its imports are replaced by the real functions, its
   * `export default` by a return of what it built.
   */
  async function readmeExample() {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Mounting on an itty-router router"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    if (!block) throw new Error("README has no itty-router mounting example");
    const code = block
      .replace(/^import .*\n/gm, "")
      .replace(/^export default (.*);.*$/m, "return { docsbase, router, worker: $1 };");
    const { code: js } = await transform(code, { loader: "ts" });
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (
      ...values: unknown[]
    ) => Promise<{
      docsbase: Docsbase;
      router: { routes: RouteEntry[] };
      worker: { fetch: (request: Request, ...args: unknown[]) => Promise<Response> };
    }>;
    return new AsyncFunction("AutoRouter", "createDocsbase", "mountDocsbase", "storage", js);
  }

  it("serves /v1 through the host's router, beside the host's routes, with docsbase's answers", async () => {
    const { docsbase, router, worker } = await (
      await readmeExample()
    )(AutoRouter, createDocsbase, mountDocsbase, memoryStorage());
    const token = "dbt_readme_itty_operator_token";
    await docsbase.bootstrap({ token });
    const send = (method: string, path: string, init: RequestInit = {}) =>
      worker.fetch(
        new Request(`https://example.com${path}`, {
          method,
          ...init,
          headers: { authorization: `Bearer ${token}`, ...init.headers },
        }),
      );

    // The host's own route, and its router's own 404 outside the prefix.
    expect(await (await send("GET", "/health")).json()).toEqual({ ok: true });
    expect((await send("GET", "/v1/user")).status).toBe(404);
    // docsbase's routes are routes of the host's router, matched by it.
    expect(router.routes.map(([method, , , path]) => `${method} ${path}`)).toContain(
      "GET /docs/v1/spaces/:spaceId",
    );

    const user = await send("GET", "/docs/v1/user");
    expect(user.status).toBe(200);
    const direct = await docsbase.fetch(
      new Request("https://example.com/v1/user", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(await user.text()).toBe(await direct.text());

    const created = await send("POST", "/docs/v1/orgs", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Acme" }),
    });
    expect(created.status).toBe(201);
    const org = (await created.json()) as { id: string };
    expect(created.headers.get("location")).toBe(`https://example.com/docs/v1/orgs/${org.id}`);
    // Parameters as the host's router extracted them; a trailing slash, as docsbase reads paths.
    expect(await (await send("GET", `/docs/v1/orgs/${org.id}/`)).json()).toMatchObject({ id: org.id });

    // docsbase's own answers keep their shapes: 404, 405 with Allow, 400, 401.
    const missing = await send("GET", "/docs/v1/nothing/here");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 404, message: "No route for GET /docs/v1/nothing/here" },
    });
    // `GET /v1/` is the reference's getApiInformation, which docsbase does not serve.
    expect((await send("GET", "/docs/v1")).status).toBe(501);
    const wrongMethod = await send("DELETE", "/docs/v1/user");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    expect(await wrongMethod.json()).toEqual({
      error: { code: 405, message: "Method DELETE is not allowed on /docs/v1/user" },
    });
    const malformed = await send("POST", "/docs/v1/orgs", {
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(
      /^body: malformed JSON/,
    );
    const anonymous = await worker.fetch(new Request("https://example.com/docs/v1/user"));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401 } });
  });
});
