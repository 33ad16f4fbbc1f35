import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOn, type RuntimeName as Runtime } from "./support/runtimes.js";

/**
 * The same fetch handler served by Deno and by Bun: the runtime-neutral core, bundled once,
 * answers real HTTP on each runtime's own server, in memory and on a SQLite file through the
 * runtime's own driver (`bun:sqlite`, Deno's `node:sqlite`). The runtimes are not in the default
 * install: `npm run runtimes` puts the pinned versions in node_modules/.cache/runtimes, and
 * without them their suites are skipped, saying so (under CI they fail; test/support/runtimes.ts).
 * Last, Node without better-sqlite3: the CLI says what to install.
 */
const root = join(import.meta.dirname, "..");
const directory = mkdtempSync(join(tmpdir(), "docsbase-runtimes-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const TOKEN = "dbt_runtime_test_token";
const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

/** How each runtime's binary runs a script, with the file arguments it may read and write. */
const runtimes: Record<Runtime, (binary: string, script: string, args: string[]) => string[]> = {
  deno: (binary, script, args) => [
    binary,
    "run",
    "--allow-net=127.0.0.1",
    `--allow-read=${directory}`,
    `--allow-write=${directory}`,
    script,
    ...args,
  ],
  bun: (binary, script, args) => [binary, script, ...args],
};

/** Opens the storage: in memory, or on the SQLite file named by the first argument with the runtime's driver. */
const storages = {
  memory: {
    deno: `const storage = memoryStorage(); const database = undefined;`,
    bun: `const storage = memoryStorage(); const database = undefined;`,
  },
  sqlite: {
    deno: `import { DatabaseSync } from "node:sqlite";
const database = new DatabaseSync(Deno.args[0]);
const storage = sqliteStorage({ database });`,
    bun: `import { Database } from "bun:sqlite";
const database = new Database(Bun.argv[2]);
const storage = sqliteStorage({ database });`,
  },
};
type Store = keyof typeof storages;

const setup = `import { createDocsbase, memoryStorage, sqliteStorage } from "./docsbase.mjs";
const docsbase = createDocsbase({ storage });
await docsbase.bootstrap({ token: "${TOKEN}" });`;

/** Serves, prints the port, and on SIGTERM stops serving, closes docsbase and the connection, and exits 0. */
const serve: Record<Runtime, string> = {
  deno: `const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log("listening " + port) }, docsbase.fetch);
Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown();
  await docsbase.close();
  database?.close();
  Deno.exit(0);
});`,
  bun: `const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: docsbase.fetch });
console.log("listening " + server.port);
process.on("SIGTERM", async () => {
  await server.stop();
  await docsbase.close();
  database?.close();
  process.exit(0);
});`,
};

const script = (runtime: Runtime, store: Store) => join(directory, `${runtime}-${store}.mjs`);

/** Starts a child process and resolves once its output matches `ready`. */
function start(
  command: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const [program, ...args] = command;
  const child = spawn(program!, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const check = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("close", (code) => reject(new Error(`${program} exited with ${code}:\n${output}`)));
  });
}

async function serveOn(runtime: Runtime, binary: string, store: Store, file?: string) {
  const { child, match } = await start(
    runtimes[runtime](binary, script(runtime, store), file ? [file] : []),
    /listening (\d+)/,
  );
  return { child, url: `http://127.0.0.1:${match[1]}/v1` };
}

/** Sends SIGTERM and resolves with the exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

async function post(url: string, body: unknown): Promise<{ status: number; body: { id: string } }> {
  const response = await fetch(url, { method: "POST", headers: auth, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { id: string } };
}

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { headers: auth });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Bundles the core and writes each runtime's scripts, once for whichever runtime's suite runs first. */
let prepared: Promise<void> | undefined;
function prepare(): Promise<void> {
  return (prepared ??= (async () => {
    const bundle = await build({
      stdin: {
        contents: [
          'export { createDocsbase } from "./src/index.ts";',
          'export { memoryStorage } from "./src/adapters/memory/index.ts";',
          'export { sqliteStorage } from "./src/adapters/sqlite/index.ts";',
        ].join("\n"),
        resolveDir: root,
        loader: "ts",
      },
      bundle: true,
      // Neutral: the bundle must not need Node. The SQLite adapter only names better-sqlite3 in a
      // dynamic import that runs for `{ filename }`, which these scripts do not use.
      platform: "neutral",
      mainFields: ["module", "main"],
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    writeFileSync(join(directory, "docsbase.mjs"), bundle.outputFiles[0]!.text);
    for (const runtime of Object.keys(runtimes) as Runtime[])
      for (const store of Object.keys(storages) as Store[])
        writeFileSync(script(runtime, store), `${storages[store][runtime]}\n${setup}\n${serve[runtime]}\n`);
  })());
}

/** The SQLite driver each runtime brings. */
const drivers: Record<Runtime, string> = { bun: "bun:sqlite", deno: "node:sqlite" };

for (const runtime of Object.keys(runtimes) as Runtime[])
  describeOn(runtime, `docsbase on ${runtime}`, (binary) => {
    beforeAll(prepare);

    it(`serves /v1 on ${runtime}`, async () => {
      const { child, url } = await serveOn(runtime, binary, "memory");
      try {
        const created = await post(`${url}/orgs`, { title: runtime });
        expect(created.status).toBe(201);
        const read = await get(`${url}/orgs/${created.body.id}`);
        expect(read.body["title"]).toBe(runtime);
        expect((await fetch(`${url}/orgs/${created.body.id}`)).status).toBe(401);
      } finally {
        await stop(child);
      }
    });

    it(`serves on a SQLite file on ${runtime} with ${drivers[runtime]}, and reads its data back after a restart`, async () => {
      const file = join(directory, `${runtime}.sqlite`);
      const first = await serveOn(runtime, binary, "sqlite", file);
      let organization: string;
      let space: string;
      try {
        const org = await post(`${first.url}/orgs`, { title: `Kept by ${runtime}` });
        expect(org.status).toBe(201);
        organization = org.body.id;
        const created = await post(`${first.url}/orgs/${organization}/spaces`, { title: "Handbook" });
        expect(created.status).toBe(201);
        space = created.body.id;
      } finally {
        expect(await stop(first.child)).toBe(0);
      }

      // A new process on the same file: the operator token, the organization and the space are there.
      const second = await serveOn(runtime, binary, "sqlite", file);
      try {
        const org = await get(`${second.url}/orgs/${organization}`);
        expect(org).toMatchObject({ status: 200, body: { id: organization, title: `Kept by ${runtime}` } });
        const read = await get(`${second.url}/spaces/${space}`);
        expect(read).toMatchObject({ status: 200, body: { id: space, title: "Handbook", organization } });
      } finally {
        expect(await stop(second.child)).toBe(0);
      }
    });
  });

describeOn("deno", "the storage contract on node:sqlite", (binary) => {
  it("passes under Deno (Node 20 has no node:sqlite, so the suite skips it there)", async () => {
    // vitest itself, run by Deno on this checkout's node_modules, on the SQLite adapter's test file.
    const suite = "storage contract: sqlite on node:sqlite";
    const vitest = join(root, "node_modules/vitest/vitest.mjs");
    const deno = [binary, "run", "-A", "--node-modules-dir=manual", vitest];
    const { child, match } = await start(
      [...deno, "run", "src/adapters/sqlite/sqlite.test.ts", "-t", suite],
      /Tests\s+(?:(\d+) failed \| )?(\d+) passed/,
    );
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    expect(match[1]).toBeUndefined();
    expect(Number(match[2])).toBeGreaterThanOrEqual(30);
    expect(child.exitCode).toBe(0);
  });
});

describe("Node without better-sqlite3", () => {
  it("docsbase serve on a file says what to install, and exits", async () => {
    // A module hook that makes better-sqlite3 unresolvable, as when npm skipped its failed build.
    const hook = `export async function resolve(specifier, context, next) {
  if (specifier === "better-sqlite3") {
    throw Object.assign(new Error("Cannot find package 'better-sqlite3'"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}`;
    const register = join(directory, "hide-better-sqlite3.mjs");
    writeFileSync(
      register,
      `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`,
    );
    const command = [process.execPath, "--import", "tsx", "--import", register, "src/cli/main.ts", "serve"];
    const { child, match } = await start(
      [...command, "--port", "0", "--db", join(directory, "cli.sqlite")],
      /better-sqlite3 is not installed[^\n]*/,
      { DOCSBASE_ADMIN_TOKEN: "" },
    );
    expect(match[0]).toContain('"npm install better-sqlite3"');
    const code = await new Promise((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve),
    );
    expect(code).toBe(1);
  });
});
