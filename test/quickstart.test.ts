import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ContentType, GitBookAPI } from "@gitbook/api";
import { transform } from "esbuild";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcesses, type ServeProcess } from "./support/serve-process.js";

/**
 * docs/quickstart.md, run as written against a real `docsbase serve`: the `sh server` block says
 * how the server is started (its `DOCSBASE_ADMIN_TOKEN` and its flags, here on a free port), every
 * other `sh` block runs in order in one bash script (so variables pass between steps as they do in
 * the reader's terminal), and the `ts` block runs with the official client. `curl -f` makes a step
 * the server refuses fail the script.
 */
const markdown = readFileSync(join(import.meta.dirname, "..", "docs", "quickstart.md"), "utf8");
const blocks = [...markdown.matchAll(/^```(\w+)( [\w-]+)?\n([\s\S]*?)^```$/gm)].map(
  ([, language, info, code]) => ({
    language: language!,
    info: info?.trim(),
    code: code!,
  }),
);
const serverBlock = blocks.find((block) => block.language === "sh" && block.info === "server")?.code ?? "";
const adminToken = /^export DOCSBASE_ADMIN_TOKEN=(\S+)/m.exec(serverBlock)?.[1];
const serveFlags = /^npm start -- ([^#\n]*)/m.exec(serverBlock)?.[1]?.trim().split(/\s+/);
const MERGED = "Run `npm install docsbase`, then `npx docsbase serve`.";

describe("docs/quickstart.md", () => {
  const servers = new ServeProcesses();
  let server: ServeProcess;

  beforeAll(async () => {
    expect(adminToken, "the server block exports DOCSBASE_ADMIN_TOKEN").toBeDefined();
    expect(serveFlags, "the server block runs npm start -- <flags>").toBeDefined();
    server = await servers.start(serveFlags!, { DOCSBASE_ADMIN_TOKEN: adminToken! });
  });
  afterAll(() => servers.killAll());

  it("runs the curl steps as written, from a new user to the published page read back", async () => {
    const script = blocks
      .filter((block) => block.language === "sh" && block.info === undefined)
      .map((block) => block.code)
      .join("\n");
    expect(script).toContain("$API/urls/published");
    const { stdout } = await promisify(execFile)("bash", ["-c", `set -euo pipefail\n${script}`], {
      env: {
        PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`,
        HOME: process.env["HOME"] ?? "/tmp",
        DOCSBASE_URL: server.url,
      },
    });
    const lines = stdout.trim().split("\n");
    // The edit in the change request, the merge, the site space's path, the site's URL, the page read back.
    expect(lines).toEqual([MERGED, "merge", "handbook", expect.stringMatching(/\/sites\/[\w-]+\/$/), MERGED]);
    expect(lines[3]!.startsWith(`${server.url}/sites/`)).toBe(true);
  });

  it("runs the official client's flow as written", async () => {
    const block = blocks.find((candidate) => candidate.language === "ts")?.code;
    expect(block).toBeDefined();
    const { code: js } = await transform(
      `async function flow(ContentType, GitBookAPI, process, console) {\n${block!.replace(/^import .*\n/gm, "")}\n}`,
      { loader: "ts" },
    );
    const flow = new Function(`${js}\nreturn flow;`)() as (...values: unknown[]) => Promise<void>;
    const printed: unknown[] = [];
    await flow(
      ContentType,
      GitBookAPI,
      { env: { DOCSBASE_URL: server.url, DOCSBASE_ADMIN_TOKEN: adminToken } },
      { log: (value: unknown) => printed.push(value) },
    );
    expect(printed).toEqual(["merge", MERGED]);
  });

  it("has an official-client block that type-checks against the client's types", () => {
    const block = blocks.find((candidate) => candidate.language === "ts")!.code;
    // A module of the test folder, so that it resolves `@gitbook/api` and Node's types as the tests do.
    const file = join(import.meta.dirname, "quickstart-flow.ts");
    const { options } = ts.parseJsonConfigFileContent(
      ts.readConfigFile(join(import.meta.dirname, "tsconfig.json"), ts.sys.readFile).config,
      ts.sys,
      import.meta.dirname,
    );
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => (name === file ? `${block}\nexport {};\n` : readFile(name));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => name === file || fileExists(name);
    const program = ts.createProgram([file], { ...options, noEmit: true }, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(errors).toEqual([]);
  });
});
