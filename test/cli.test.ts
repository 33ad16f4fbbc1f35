import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServe as startCli, stopServe as stop } from "./support/serve-process.js";

describe("docsbase serve", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-cli-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("keeps data across a restart and shuts down gracefully on SIGTERM and SIGINT", async () => {
    const db = join(directory, "data.sqlite");
    const token = "dbt_cli_test_operator_token";
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

    const first = startCli(["--db", db], { DOCSBASE_ADMIN_TOKEN: token });
    const { url } = await first.ready;
    const created = await fetch(`${url}/v1/orgs`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ title: "Kept" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await stop(first.child, "SIGTERM")).toBe(0);

    const second = startCli(["--db", db], { DOCSBASE_ADMIN_TOKEN: token });
    const restarted = await second.ready;
    const read = await fetch(`${restarted.url}/v1/orgs/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe("Kept");
    expect(restarted.output()).not.toContain("Operator token");
    expect(await stop(second.child, "SIGINT")).toBe(0);
  });

  it("answers 501 naming an operation of the reference it does not serve, 404 for no operation", async () => {
    const token = "dbt_cli_unserved_operator_token";
    const server = startCli(["--db", join(directory, "unserved.sqlite")], { DOCSBASE_ADMIN_TOKEN: token });
    const { url } = await server.ready;
    const send = (method: string, path: string) =>
      fetch(`${url}/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const ask = await send("POST", "/orgs/acme/ask");
    expect(ask.status).toBe(501);
    expect(await ask.json()).toEqual({
      error: {
        code: 501,
        message: "docsbase does not implement askInOrganization (POST /orgs/{organizationId}/ask)",
      },
    });
    const fonts = await send("GET", "/orgs/acme/fonts");
    expect(fonts.status).toBe(501);
    expect(((await fonts.json()) as { error: { message: string } }).error.message).toBe(
      "docsbase does not implement listCustomFonts (GET /orgs/{organizationId}/fonts)",
    );
    expect((await send("GET", "/user")).status).toBe(200);
    expect((await send("GET", "/nothing/here")).status).toBe(404);
    expect((await send("DELETE", "/user")).status).toBe(405);
    expect(await stop(server.child, "SIGTERM")).toBe(0);
  });

  it("prints an operator token once, on an empty database", async () => {
    const db = join(directory, "fresh.sqlite");
    const first = startCli(["--db", db], { DOCSBASE_ADMIN_TOKEN: "" });
    const started = await first.ready;
    const token = /Operator token \(shown once, keep it safe\): (\S+)/.exec(started.output())?.[1];
    expect(token).toMatch(/^dbt_/);
    const me = await fetch(`${started.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await stop(first.child, "SIGTERM")).toBe(0);

    const second = startCli(["--db", db], { DOCSBASE_ADMIN_TOKEN: "" });
    expect((await second.ready).output()).not.toContain("Operator token");
    expect(await stop(second.child, "SIGTERM")).toBe(0);
  });

  it("refuses bad arguments with a usage message", async () => {
    const { ready } = startCli(["--port", "99999", "--memory"]);
    await expect(ready).rejects.toThrow(/--port must be an integer/);
  });
});
