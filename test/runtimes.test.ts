import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The same fetch handler served by Deno and by Bun (their npm packages ship the binaries): the
 * runtime-neutral core, bundled once, answers real HTTP on each runtime's own server.
 */
const root = join(import.meta.dirname, "..");
const directory = mkdtempSync(join(tmpdir(), "docsbase-runtimes-"));
const TOKEN = "dbt_runtime_test_token";

const setup = `
import { createDocsbase, memoryStorage } from "./docsbase.mjs";
const docsbase = createDocsbase({ storage: memoryStorage() });
await docsbase.bootstrap({ token: "${TOKEN}" });
`;
const servers = {
  deno: {
    command: [join(root, "node_modules/.bin/deno"), "run", "--allow-net", join(directory, "deno.mjs")],
    script: `${setup}
Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log("listening " + port) }, docsbase.fetch);`,
  },
  bun: {
    command: [join(root, "node_modules/.bin/bun"), join(directory, "bun.mjs")],
    script: `${setup}
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: docsbase.fetch });
console.log("listening " + server.port);`,
  },
};

function start(runtime: keyof typeof servers): Promise<{ child: ChildProcess; url: string }> {
  const [command, ...args] = servers[runtime].command;
  const child = spawn(command!, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`${runtime} exited with ${code}:\n${output}`)));
  });
}

describe("other runtimes", () => {
  beforeAll(async () => {
    const bundle = await build({
      stdin: {
        contents:
          'export { createDocsbase } from "./src/index.ts"; export { memoryStorage } from "./src/adapters/memory/index.ts";',
        resolveDir: root,
        loader: "ts",
      },
      bundle: true,
      platform: "neutral",
      mainFields: ["module", "main"],
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    writeFileSync(join(directory, "docsbase.mjs"), bundle.outputFiles[0]!.text);
    for (const [name, { script }] of Object.entries(servers))
      writeFileSync(join(directory, `${name}.mjs`), script);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it.each(Object.keys(servers) as (keyof typeof servers)[])("serves /v1 on %s", async (runtime) => {
    const { child, url } = await start(runtime);
    try {
      const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
      const created = await fetch(`${url}/v1/orgs`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: runtime }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = await fetch(`${url}/v1/orgs/${id}`, { headers });
      expect(((await read.json()) as { title: string }).title).toBe(runtime);
      expect((await fetch(`${url}/v1/orgs/${id}`)).status).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
