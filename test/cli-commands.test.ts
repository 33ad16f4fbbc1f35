import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/commands.js";
import { ApiClient, buildCli, ServeProcesses } from "./support/serve-process.js";

/**
 * The `docsbase` command's help, version, and its users and tokens commands, run in process
 * (`runCli`, what bin/docsbase.js runs) against the SQLite file of a `docsbase serve` running in a
 * process of its own; and, as processes, the built command and bin/docsbase.js.
 */

const root = join(import.meta.dirname, "..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const COMMANDS = ["serve", "users create", "tokens create", "tokens list", "tokens revoke"];

/** Runs `docsbase ...argv` in process, with no environment variable set; what it printed, and its code. */
async function cli(argv: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const code = await runCli(
    argv,
    { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) },
    env,
  );
  return { code, out, err };
}

/** Runs `node script ...args` to its end. */
function node(script: string, args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docsbase --help and --version", () => {
  it("prints the help of every command, and of docsbase alone, with exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const main = await cli([flag]);
      expect(main).toMatchObject({ code: 0, err: "" });
      for (const command of [...COMMANDS, "version", "help"]) expect(main.out).toContain(`  ${command} `);
      for (const command of COMMANDS) {
        const help = await cli([...command.split(" "), flag]);
        expect(help, command).toMatchObject({ code: 0, err: "" });
        expect(help.out).toContain(`Usage: docsbase ${command} `);
        expect(help.out).toContain("-h, --help");
      }
    }
    expect((await cli(["help", "tokens", "revoke"])).out).toContain("Usage: docsbase tokens revoke ");
    expect(await cli(["tokens", "--help"])).toMatchObject({
      code: 0,
      out: expect.stringContaining("tokens list"),
    });
  });

  it("names every option of serve with its environment variable and default", async () => {
    const { out } = await cli(["serve", "--help"]);
    for (const option of ["--port PORT", "--db FILE", "--memory", "--postgres URL", "--pool-size N"])
      expect(out).toContain(option);
    expect(out).toMatch(/--port PORT\s+Port to listen on \(0: any free port\)\.\n\s+default 8787\n/);
    expect(out).toMatch(/--postgres URL[^]*env DOCSBASE_DATABASE_URL/);
    expect(out).toMatch(/--base-url URL[^]*env DOCSBASE_BASE_URL; default http:\/\/<host>:<port>/);
    expect(out).toMatch(/--app-url URL[^]*env DOCSBASE_APP_URL; default the base URL/);
    expect(out).toMatch(/--download-url URL[^]*env DOCSBASE_DOWNLOAD_URL; default the base URL/);
    expect(out).toContain("DOCSBASE_ADMIN_TOKEN");
  });

  it("prints the package's version for --version, -v and version", async () => {
    for (const argv of [["--version"], ["-v"], ["version"]]) {
      expect(await cli(argv)).toEqual({ code: 0, out: `${version}\n`, err: "" });
    }
  });

  it("refuses an unknown option or command with exit 1, pointing at --help", async () => {
    expect(await cli(["serve", "--bogus"])).toEqual({
      code: 1,
      out: "",
      err: "Unknown option '--bogus'\nTry 'docsbase serve --help'.\n",
    });
    expect(await cli(["tokens", "list", "--user"])).toMatchObject({
      code: 1,
      err: expect.stringContaining("Try 'docsbase tokens list --help'."),
    });
    expect(await cli(["tokens", "burn"])).toMatchObject({
      code: 1,
      err: `Unknown command "tokens burn".\nTry 'docsbase --help'.\n`,
    });
    expect(await cli(["serve", "--app-url", "ftp://app.example"])).toMatchObject({
      code: 1,
      err: `--app-url (or DOCSBASE_APP_URL) must be an http:// or https:// URL, got "ftp://app.example"\n`,
    });
    expect(await cli(["serve", "--published-url", "localhost:3000/url/"])).toMatchObject({
      code: 1,
      err: `--published-url (or DOCSBASE_PUBLISHED_URL) must be an http:// or https:// URL, got "localhost:3000/url/"\n`,
    });
    expect(await cli(["serve", "--cors-origins", "https://app.example,app.example"])).toMatchObject({
      code: 1,
      err: `--cors-origins (or DOCSBASE_CORS_ORIGINS) must list origins such as https://app.example.com, or *, got "https://app.example,app.example"\n`,
    });
  });
});

describe("docsbase users and tokens, on a running server's database", () => {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-cli-commands-"));
  const db = join(directory, "data.sqlite");
  let built: Awaited<ReturnType<typeof buildCli>> | undefined;
  let processes = new ServeProcesses();
  beforeAll(async () => {
    built = await buildCli();
    processes = new ServeProcesses([built.script]);
  });
  afterAll(async () => {
    await processes.killAll();
    built?.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  it("creates a user and tokens the server accepts, lists them, and revokes them", async () => {
    const server = await processes.start(["--db", db], { DOCSBASE_ADMIN_TOKEN: "" });
    const storage = ["--db", db];

    const user = await cli([
      "users",
      "create",
      "--display-name",
      "Ada",
      "--email",
      "ada@example.com",
      ...storage,
    ]);
    expect(user).toMatchObject({ code: 0, err: "" });
    const ada = JSON.parse(user.out) as { id: string; displayName: string };
    expect(ada.displayName).toBe("Ada");

    const made = await cli(["tokens", "create", "--user", ada.id, "--label", "laptop", ...storage]);
    expect(made.code).toBe(0);
    expect(made.err).toContain("shown this once");
    const token = JSON.parse(made.out) as { id: string; token: string; label: string };
    expect(token).toMatchObject({
      object: "api-token",
      label: "laptop",
      token: expect.stringMatching(/^dbt_/),
    });
    const spare = JSON.parse(
      (await cli(["tokens", "create", "--user", ada.id, ...storage])).out,
    ) as typeof token;

    const api = new ApiClient(server.url, token.token);
    expect(await api.send("GET", "/user")).toMatchObject({ status: 200, body: { id: ada.id } });
    expect((await new ApiClient(server.url, spare.token).send("GET", "/user")).status).toBe(200);

    const listed = await cli(["tokens", "list", "--user", ada.id, ...storage]);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.out) as { id: string; label?: string; token?: string }[];
    expect(items.map((item) => item.id)).toEqual([token.id, spare.id]);
    expect(listed.out).not.toContain(token.token);

    // A token the server has not seen yet is refused from the next request on.
    const unseen = JSON.parse(
      (await cli(["tokens", "create", "--user", ada.id, ...storage])).out,
    ) as typeof token;
    const revokeUnseen = await cli([
      "tokens",
      "revoke",
      "--user",
      ada.id,
      "--token-id",
      unseen.id,
      ...storage,
    ]);
    expect(revokeUnseen).toMatchObject({ code: 0, err: `Token ${unseen.id} of user ${ada.id} revoked.\n` });
    expect((await new ApiClient(server.url, unseen.token).send("GET", "/user")).status).toBe(401);

    // One it has seen, once the server stops trusting what it remembers (docs/scaling.md: 5 s).
    expect((await cli(["tokens", "revoke", "--user", ada.id, "--token-id", token.id, ...storage])).code).toBe(
      0,
    );
    await expect
      .poll(async () => (await api.send("GET", "/user")).status, { timeout: 20_000, interval: 250 })
      .toBe(401);
    expect((await new ApiClient(server.url, spare.token).send("GET", "/user")).status).toBe(200);
    expect(JSON.parse((await cli(["tokens", "list", "--user", ada.id, ...storage])).out)).toEqual([
      expect.objectContaining({ id: spare.id }),
    ]);
    expect(
      await cli(["tokens", "revoke", "--user", ada.id, "--token-id", token.id, ...storage]),
    ).toMatchObject({
      code: 0,
      err: `Token ${token.id} of user ${ada.id} not found: nothing to revoke.\n`,
    });
  });

  it("refuses what the API refuses, naming the option, and stores nothing", async () => {
    const storage = ["--db", db];
    const before = (await cli(["tokens", "list", "--user", "nobody", ...storage])).err;
    expect(before).toBe(`docsbase: User "nobody" not found\n`);
    expect(
      await cli(["users", "create", "--display-name", "Bo", "--email", "not-an-email", ...storage]),
    ).toMatchObject({
      code: 1,
      out: "",
      err: expect.stringMatching(/^docsbase: --email: /),
    });
    expect(await cli(["users", "create", "--display-name", "Bo", ...storage])).toMatchObject({
      code: 1,
      err: "--email is required.\nTry 'docsbase users create --help'.\n",
    });
    const first = await cli([
      "users",
      "create",
      "--display-name",
      "Cy",
      "--email",
      "cy@example.com",
      ...storage,
    ]);
    expect(first.code).toBe(0);
    expect(
      await cli(["users", "create", "--display-name", "Cy", "--email", "cy@example.com", ...storage]),
    ).toMatchObject({
      code: 1,
      err: expect.stringContaining('--email: a user with email "cy@example.com" already exists'),
    });
    const cy = (JSON.parse(first.out) as { id: string }).id;
    expect(await cli(["tokens", "create", "--user", cy, "--expires-in", "soon", ...storage])).toMatchObject({
      code: 1,
      err: `--expires-in must be a whole number of seconds, got "soon"\n`,
    });
    expect(await cli(["tokens", "create", "--user", cy, "--expires-in", "5", ...storage])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^docsbase: --expires-in: /),
    });
    expect(JSON.parse((await cli(["tokens", "list", "--user", cy, ...storage])).out)).toEqual([]);
  });

  it("refuses --memory, and a database file that does not exist", async () => {
    expect(await cli(["tokens", "list", "--user", "u", "--memory"])).toEqual({
      code: 1,
      out: "",
      err: "--memory cannot be used here: an in-memory database would end with the command\n",
    });
    const missing = join(directory, "missing.sqlite");
    expect(
      await cli(["users", "create", "--display-name", "A", "--email", "a@example.com", "--db", missing]),
    ).toEqual({
      code: 1,
      out: "",
      err: `--db: no database at ${missing} (\`docsbase serve --db ${missing}\` creates it)\n`,
    });
  });

  it("serves URLs on --base-url, --app-url, --published-url and their variables", async () => {
    const operator = "dbt_cli_commands_operator_token";
    const flags = [
      "--memory",
      "--base-url",
      "https://api.example",
      "--app-url",
      "https://app.example/docs",
      "--published-url",
      "http://localhost:3000/url/",
    ];
    for (const [args, env] of [
      [flags, {}],
      [
        ["--memory", "--base-url", "https://api.example"],
        {
          DOCSBASE_APP_URL: "https://app.example/docs",
          DOCSBASE_PUBLISHED_URL: "http://localhost:3000/url/",
        },
      ],
    ] as const) {
      const server = await processes.start(args, { DOCSBASE_ADMIN_TOKEN: operator, ...env });
      const api = new ApiClient(server.url, operator);
      const org = await api.send("POST", "/orgs", { title: "Acme" });
      const space = await api.send("POST", `/orgs/${org.body.id}/spaces`, { title: "Handbook" });
      expect(space.status).toBe(201);
      expect(space.body.urls.app).toBe(`https://app.example/docs/s/${space.body.id}`);
      expect(space.body.urls.location).toBe(`https://api.example/v1/spaces/${space.body.id}`);
      const site = await api.send("POST", `/orgs/${org.body.id}/sites`, { title: "Docs" });
      const published = await api.send("POST", `/orgs/${org.body.id}/sites/${site.body.id}/publish`);
      expect(published.body.urls.published).toBe(
        `http://localhost:3000/url/api.example/sites/${site.body.id}/`,
      );
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });

  it("answers CORS for the origins of --cors-origins or DOCSBASE_CORS_ORIGINS, and no other", async () => {
    const operator = "dbt_cli_commands_operator_token";
    for (const [args, env] of [
      [["--memory", "--cors-origins", "https://app.example, http://localhost:5173"], {}],
      [["--memory"], { DOCSBASE_CORS_ORIGINS: "https://app.example,http://localhost:5173" }],
    ] as const) {
      const server = await processes.start(args, { DOCSBASE_ADMIN_TOKEN: operator, ...env });
      const preflight = (origin: string) =>
        fetch(`${server.url}/v1/user`, {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "GET",
            "access-control-request-headers": "authorization",
          },
        });
      const allowed = await preflight("http://localhost:5173");
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(allowed.headers.get("access-control-allow-headers")).toContain("authorization");
      const read = await fetch(`${server.url}/v1/user`, {
        headers: { origin: "https://app.example", authorization: `Bearer ${operator}` },
      });
      expect(read.status).toBe(200);
      expect(read.headers.get("access-control-allow-origin")).toBe("https://app.example");
      const other = await preflight("https://elsewhere.example");
      expect(other.status).toBe(405);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });

  it("runs as a process: --version, and serve --help", async () => {
    expect(await node(built!.script, ["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    const help = await node(built!.script, ["serve", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: docsbase serve ");
  });
});

describe("bin/docsbase.js in a checkout that was not built", () => {
  it("says to run npm run build, in one line, exit 1", async () => {
    const checkout = mkdtempSync(join(tmpdir(), "docsbase-unbuilt-"));
    try {
      mkdirSync(join(checkout, "bin"));
      copyFileSync(join(root, "bin", "docsbase.js"), join(checkout, "bin", "docsbase.js"));
      copyFileSync(join(root, "package.json"), join(checkout, "package.json"));
      const { code, stdout, stderr } = await node(join(checkout, "bin", "docsbase.js"), ["--help"]);
      expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
      expect(stderr).toBe(
        "docsbase: dist/cli/main.js is missing (this checkout is not built): run `npm run build` first, " +
          "or `npm start` to serve from the sources\n",
      );
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});
