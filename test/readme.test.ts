import { readFile } from "node:fs/promises";
import { transform } from "esbuild";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createDocsbase, type Docsbase } from "../src/index.js";
import { createTestDocsbase } from "../src/testing/double.js";

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
