import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, postgresUrl } from "./support/postgres.js";
import { runCli } from "../src/cli/commands.js";
import { ApiClient, buildCli, ServeProcesses, type ServeProcess } from "./support/serve-process.js";

/**
 * `docsbase serve --postgres` as users run it: the real CLI (built once from the current source,
 * see `buildCli`) on the run's PostgreSQL server, each test on a database of its own.
 */

/** The variables the CLI reads, cleared so that the test's own environment cannot leak in. */
const CLEAN_ENV = { DOCSBASE_DATABASE_URL: "", DOCSBASE_POOL_SIZE: "", DOCSBASE_ADMIN_TOKEN: "" };
const TOKEN = "dbt_cli_postgres_operator_token";

/** Runs the PostgreSQL server's `postgres` database's SQL, as the test's own superuser. */
async function admin<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/** How many records of `database`'s docsbase tables hold `text` in their JSON. */
async function recordsHolding(url: string, text: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_name <> 'docsbase_meta'`,
    );
    let found = 0;
    for (const { name } of tables) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${name}" WHERE strpos(doc, $1) > 0`,
        [text],
      );
      found += Number(rows[0]!.n);
    }
    return found;
  } finally {
    await client.end();
  }
}

function stop(server: ServeProcess, signal: NodeJS.Signals) {
  server.child.kill(signal);
  return server.exited;
}

describe("docsbase serve --postgres", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-cli-postgres-"));
  // Passed to every start: were `--postgres` ignored, the server would write here, and tests check it did not.
  const unusedSqlite = join(directory, "unused.sqlite");
  let cli: Awaited<ReturnType<typeof buildCli>> | undefined;
  let processes = new ServeProcesses();
  beforeAll(async () => {
    cli = await buildCli();
    processes = new ServeProcesses([cli.script]);
  });
  afterAll(async () => {
    await processes.killAll();
    cli?.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Runs the CLI to its end (a start expected to fail); killed after 30 s if it does not end. */
  function run(args: string[], env: Record<string, string> = {}) {
    return new Promise<{ code: number | string | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli!.script, "serve", "--host", "127.0.0.1", "--port", "0", "--db", unusedSqlite, ...args],
        { env: { ...process.env, ...CLEAN_ENV, ...env }, timeout: 30_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (error.code ?? error.signal ?? null) : 0, output: stdout + stderr }),
      );
    });
  }

  it("stores in PostgreSQL across a restart, from --postgres and from DOCSBASE_DATABASE_URL", async () => {
    const url = await freshDatabase("cli");
    // The test server trusts local connections, so the password is never checked: only shown, or not.
    const withPassword = new URL(url);
    withPassword.password = "pw-never-printed";

    const first = await processes.start(["--db", unusedSqlite, "--postgres", withPassword.toString()], {
      ...CLEAN_ENV,
    });
    expect(first.output()).toContain(
      `(PostgreSQL postgres://docsbase:***@${withPassword.host}/${databaseName(url)})`,
    );
    expect(first.output()).not.toContain("pw-never-printed");
    const token = /Operator token \(shown once, keep it safe\): (\S+)/.exec(first.output())?.[1];
    expect(token).toMatch(/^dbt_/);
    const created = await new ApiClient(first.url, token!).send("POST", "/orgs", { title: "Kept" });
    expect(created.status).toBe(201);
    expect(await stop(first, "SIGTERM")).toBe(0);
    expect(await recordsHolding(url, created.body.id)).toBeGreaterThan(0);

    const second = await processes.start(["--db", unusedSqlite], {
      ...CLEAN_ENV,
      DOCSBASE_DATABASE_URL: url,
    });
    expect(second.output()).toContain(`(PostgreSQL ${url})`);
    expect(second.output()).not.toContain("Operator token");
    const read = await new ApiClient(second.url, token!).send("GET", `/orgs/${created.body.id}`);
    expect(read).toMatchObject({ status: 200, body: { title: "Kept" } });
    expect(await stop(second, "SIGINT")).toBe(0);
    expect(existsSync(unusedSqlite)).toBe(false);
  });

  it("opens at most --pool-size connections", async () => {
    const url = await freshDatabase("cli_pool");
    const server = await processes.start(
      ["--db", unusedSqlite, "--postgres", url, "--pool-size", "1", "--no-rate-limit"],
      { ...CLEAN_ENV, DOCSBASE_ADMIN_TOKEN: TOKEN },
    );
    const api = new ApiClient(server.url, TOKEN);
    const org = await api.send("POST", "/orgs", { title: "Pooled" });
    expect(org.status).toBe(201);
    // Read transactions run concurrently, each on a connection of its own when the pool has more.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => api.send("GET", i % 2 ? `/orgs/${org.body.id}` : "/orgs")),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const connections = await admin(async (client) => {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1",
        [databaseName(url)],
      );
      return Number(rows[0]!.n);
    });
    expect(connections).toBe(1);
    expect(await stop(server, "SIGTERM")).toBe(0);
  });

  it("refuses a bad --pool-size, --pool-size without PostgreSQL, and --memory with PostgreSQL", async () => {
    const url = "postgres://docsbase@127.0.0.1:1/never_opened";
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["--postgres", url, "--pool-size", "0"], {}, /--pool-size must be an integer from 1 to 1000, got "0"/],
      [["--postgres", url, "--pool-size", "x"], {}, /--pool-size must be an integer from 1 to 1000, got "x"/],
      [["--postgres", url, "--pool-size", "1001"], {}, /--pool-size must be an integer from 1 to 1000/],
      [["--postgres", url], { DOCSBASE_POOL_SIZE: "2.5" }, /--pool-size must be an integer/],
      [["--pool-size", "5"], {}, /--pool-size needs --postgres \(or DOCSBASE_DATABASE_URL\)/],
      [["--memory", "--postgres", url], {}, /--memory and --postgres .* cannot be used together/],
      [["--memory"], { DOCSBASE_DATABASE_URL: url }, /--memory and --postgres .* cannot be used together/],
      [
        ["--postgres", "mysql://127.0.0.1/db"],
        {},
        /--postgres must be a postgres:\/\/ or postgresql:\/\/ URL/,
      ],
    ];
    // Two processes at a time: each loads the whole server before it reads its arguments.
    for (let i = 0; i < cases.length; i += 2) {
      const batch = cases.slice(i, i + 2);
      const results = await Promise.all(batch.map(([args, env]) => run(args, env)));
      results.forEach(({ code, output }, j) => {
        expect(code, output).toBe(1);
        expect(output).toMatch(batch[j]![2]);
        expect(output).not.toContain("listening");
      });
    }
    expect(existsSync(unusedSqlite)).toBe(false);
  }, 120_000);

  it("does not start when the database cannot be reached, and says why without the password", async () => {
    const { code, output } = await run(["--postgres", "postgres://x:hunter2secret@127.0.0.1:1/db"]);
    expect(code, output).toBe(1);
    expect(output).toMatch(/docsbase: The database cannot be reached: connect ECONNREFUSED 127\.0\.0\.1:1/);
    expect(output).not.toContain("listening");
    expect(output, "no stack trace for an explained failure").not.toMatch(/\n\s+at /);
    expect(output).not.toContain("hunter2secret");
  });

  it("answers 503 with the standard error body while the database refuses connections, then recovers", async () => {
    const url = await freshDatabase("cli_down");
    const name = databaseName(url);
    const server = await processes.start(["--db", unusedSqlite, "--postgres", url], {
      ...CLEAN_ENV,
      DOCSBASE_ADMIN_TOKEN: TOKEN,
    });
    const api = new ApiClient(server.url, TOKEN);
    const org = await api.send("POST", "/orgs", { title: "Interrupted" });
    expect(org.status).toBe(201);

    // The server's open connections are ended and no new one is accepted.
    await admin(async (client) => {
      await client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name],
      );
    });
    const read = await fetch(`${server.url}/v1/orgs/${org.body.id}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(read.status).toBe(503);
    expect(read.headers.get("retry-after")).toBe("1");
    expect(await read.json()).toEqual({ error: { code: 503, message: expect.stringMatching(/database/i) } });
    const write = await api.send("POST", "/orgs", { title: "Refused" });
    expect(write.status).toBe(503);
    expect(write.body).toEqual({ error: { code: 503, message: expect.stringMatching(/database/i) } });

    await admin((client) => client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`));
    // New connections are opened as requests need them: the next request is served again.
    const deadline = Date.now() + 20_000;
    let again = await api.send("GET", `/orgs/${org.body.id}`);
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await api.send("GET", `/orgs/${org.body.id}`);
    }
    expect(again).toMatchObject({ status: 200, body: { title: "Interrupted" } });
    expect(await stop(server, "SIGTERM")).toBe(0);
  });

  it("makes users and tokens with docsbase users and tokens on the server's database", async () => {
    const url = await freshDatabase("cli_admin");
    const server = await processes.start(["--db", unusedSqlite, "--postgres", url], {
      ...CLEAN_ENV,
      DOCSBASE_ADMIN_TOKEN: TOKEN,
    });
    const outputs: string[] = [];
    const io = { out: (text: string) => outputs.push(text), err: () => {} };
    const env = { DOCSBASE_DATABASE_URL: url };
    expect(
      await runCli(["users", "create", "--display-name", "Ada", "--email", "ada@example.com"], io, env),
    ).toBe(0);
    const ada = JSON.parse(outputs.pop()!) as { id: string };
    expect(await runCli(["tokens", "create", "--user", ada.id, "--postgres", url], io, {})).toBe(0);
    const token = JSON.parse(outputs.pop()!) as { id: string; token: string };
    const api = new ApiClient(server.url, token.token);
    expect(await api.send("GET", "/user")).toMatchObject({ status: 200, body: { id: ada.id } });
    expect(await runCli(["tokens", "list", "--user", ada.id], io, env)).toBe(0);
    expect(JSON.parse(outputs.pop()!)).toEqual([expect.objectContaining({ id: token.id })]);
    expect(await runCli(["tokens", "revoke", "--user", ada.id, "--token-id", token.id], io, env)).toBe(0);
    // The server keeps a token it has seen for 5 s (docs/scaling.md, "Bearer tokens").
    await expect
      .poll(async () => (await api.send("GET", "/user")).status, { timeout: 20_000, interval: 250 })
      .toBe(401);
    expect(await stop(server, "SIGTERM")).toBe(0);
  });
});
