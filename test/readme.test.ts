import { readFile } from "node:fs/promises";
import { transform } from "esbuild";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createDocsbase, type Docsbase } from "../src/index.js";

/** The README's embedding example, on memory storage, so the documented calls stay true. */
describe("README embedding example", () => {
  it("bootstraps, serves fetch and runs typed operations in process", async () => {
    const token = "dbt_readme_example_token";
    const docsbase = createDocsbase({ storage: memoryStorage(), baseUrl: "https://docs.example.com" });
    await docsbase.bootstrap({ token });
    const served = await docsbase.fetch(
      new Request("https://docs.example.com/v1/user", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(served.status).toBe(200);
    const api = docsbase.as({ token });
    const org = await api.createOrganization({ body: { title: "Acme" } });
    const space = await api.createSpace({ organizationId: org.id, body: { title: "Handbook" } });
    expect(space).toMatchObject({ title: "Handbook", organization: org.id });
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

describe("README host-authentication example", () => {
  /** The README's code block, run as written: only its import is replaced by the real function. */
  async function readmeExample() {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Host authentication"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    if (!block) throw new Error("README has no host-authentication example");
    const code = block.replace(/^import .*\n/m, "");
    const { code: js } = await transform(`${code}\nreturn docsbase;`, { loader: "ts" });
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<Docsbase>;
    return new AsyncFunction("createDocsbase", "storage", "sessions", js);
  }

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
