import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ServeProcess, ServeProcesses } from "./support/serve-process.js";

/** Each test starts the server twice through tsx, which takes seconds on a loaded machine. */
const STARTS_TIMEOUT = 120_000;

/** The operator token follows `DOCSBASE_ADMIN_TOKEN` across restarts (issue 9, defect 5). */
describe("docsbase serve: DOCSBASE_ADMIN_TOKEN", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-admin-token-"));
  const servers = new ServeProcesses();
  afterAll(async () => {
    await servers.killAll();
    rmSync(directory, { recursive: true, force: true });
  });

  const status = async (server: ServeProcess, token: string) =>
    (await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status;
  const stop = async (server: ServeProcess) => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  };

  it(
    "revokes the previous operator token when the variable changes at restart",
    async () => {
      const db = join(directory, "data.sqlite");
      const first = await servers.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: "dbt_first_operator_token" });
      expect(await status(first, "dbt_first_operator_token")).toBe(200);
      await stop(first);

      const second = await servers.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: "dbt_second_operator_token" });
      expect(await status(second, "dbt_first_operator_token")).toBe(401);
      expect(await status(second, "dbt_second_operator_token")).toBe(200);
      expect(second.output()).not.toContain("Operator token");
      await stop(second);
    },
    STARTS_TIMEOUT,
  );

  it(
    "revokes the token printed on the first start once the variable is set",
    async () => {
      const db = join(directory, "printed.sqlite");
      const first = await servers.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: "" });
      const printed = /Operator token \(shown once, keep it safe\): (\S+)/.exec(first.output())?.[1];
      expect(printed).toMatch(/^dbt_/);
      expect(await status(first, printed!)).toBe(200);
      await stop(first);

      const second = await servers.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: "dbt_chosen_operator_token" });
      expect(await status(second, printed!)).toBe(401);
      expect(await status(second, "dbt_chosen_operator_token")).toBe(200);
      await stop(second);
    },
    STARTS_TIMEOUT,
  );
});
