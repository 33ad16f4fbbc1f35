import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startServe, stopServe as stop } from "./support/serve-process.js";

const root = join(import.meta.dirname, "..");
const FIXTURE = join(root, "examples", "curl", "fixture.json");
const TOKEN = "dbt_cli_test_double_operator_token";

/** `docsbase serve` with the operator token the tests use, unless `env` says otherwise. */
const startCli = (args: string[], env: Record<string, string> = {}) =>
  startServe(args, { DOCSBASE_ADMIN_TOKEN: TOKEN, ...env });

describe("docsbase serve --test-double", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-double-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("is driven by examples/curl/test-double.sh, curl only", async () => {
    const server = startCli(["--test-double", "--fixture", FIXTURE, "--now", "2030-01-01T00:00:00Z"]);
    const { url, output } = await server.ready;
    expect(output()).toContain("(test double, in memory)");
    const run = await promisify(execFile)("bash", [join(root, "examples", "curl", "test-double.sh")], {
      env: { ...process.env, DOCSBASE_URL: url, DOCSBASE_ADMIN_TOKEN: TOKEN },
    });
    expect(run.stdout).toContain("ok: the faulted call answers 503\n");
    expect(run.stdout).toContain("ok: the old title is back\n");
    expect(run.stdout).toContain("now: 2030-01-08T00:00:00.000Z\n");
    expect(run.stdout.trimEnd().endsWith("all checks passed")).toBe(true);
    expect(await stop(server.child)).toBe(0);
  });

  it("drops the connection of a call a networkError fault hits; prints a token when none is set", async () => {
    const server = startCli(["--test-double"], { DOCSBASE_ADMIN_TOKEN: "" });
    const { url, output } = await server.ready;
    const token = /Operator token: (\S+)/.exec(output())?.[1];
    expect(token).toMatch(/^dbt_.{16,}/);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const added = await fetch(`${url}/_docsbase/faults`, {
      method: "POST",
      headers,
      body: JSON.stringify({ operationId: "getAuthenticatedUser", networkError: true, times: 1 }),
    });
    expect(added.status).toBe(201);
    await expect(fetch(`${url}/v1/user`, { headers })).rejects.toThrow(TypeError);
    expect((await fetch(`${url}/v1/user`, { headers })).status).toBe(200);
    expect(await stop(server.child)).toBe(0);
  });

  it("refuses a bad fixture with its path before listening, and storage flags", async () => {
    const bad = join(directory, "bad.json");
    writeFileSync(bad, JSON.stringify({ spaces: [{ organization: "org-x", title: "T", pages: [{}] }] }));
    const unknown = join(directory, "unknown.json");
    writeFileSync(unknown, JSON.stringify({ spaces: [{ organization: "org-x", title: "T" }] }));
    // Each refusal is a process of its own: started together, they take the time of one.
    await Promise.all([
      expect(startCli(["--test-double", "--fixture", bad]).ready).rejects.toThrow(
        /exited with 1 before listening:\n--fixture .*bad\.json: spaces\[0\]\.pages\[0\]\.title: /,
      ),
      expect(startCli(["--test-double", "--fixture", unknown]).ready).rejects.toThrow(
        /exited with 1 before listening:\n.*spaces\[0\]\.organization: /,
      ),
      expect(startCli(["--test-double", "--memory"]).ready).rejects.toThrow(
        /--test-double cannot be used with --memory: the test double is always in memory/,
      ),
      expect(startCli(["--test-double", "--db", "x.sqlite"]).ready).rejects.toThrow(/with --db/),
      expect(startCli(["--fixture", FIXTURE, "--memory"]).ready).rejects.toThrow(/need --test-double/),
    ]);
  });

  it("has no admin API in plain serve: 404 under /_docsbase/", async () => {
    const server = startCli(["--memory"]);
    const { url } = await server.ready;
    const reset = await fetch(`${url}/_docsbase/reset`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(reset.status).toBe(404);
    expect(await stop(server.child)).toBe(0);
  });
});
