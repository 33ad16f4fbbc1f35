import { build } from "esbuild";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { ApiClient, buildCli, ServeProcesses, type BuiltScript, type ServeProcess } from "./serve-process.js";

/**
 * The harness of the issue-26 browser tests (test/browser-sync-*.test.ts): a real `docsbase serve`
 * (the remote), a site on 127.0.0.1 that serves the test's pages and passes `/v1` through to the
 * remote (so the pages reach it from their own origin: `docsbase serve` answers no CORS preflight),
 * and Debian's Chromium through playwright-core.
 */

export { chromiumMissing, launch, profileDirectory } from "./chromium.js";

/** Bundles a script of test/browser for the browser; `worker` for a service worker's. */
export async function bundle(file: string, kind: "page" | "worker"): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, "..", "browser", file)],
    bundle: true,
    platform: "browser",
    format: "esm",
    // A worker has no DOM: the `worker` condition picks DOM-free builds of dependencies.
    ...(kind === "worker" ? { conditions: ["worker"] } : {}),
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** A user of the remote and their API client. */
export interface RemoteUser {
  readonly id: string;
  readonly token: string;
  readonly api: ApiClient;
}

/** The remote server with two users and a space of four pages that alice replicates. */
export interface Remote {
  readonly url: string;
  readonly server: ServeProcess;
  /** Replicates the space (its admin). */
  readonly alice: RemoteUser;
  /** Edits the space on the server meanwhile (an admin of the organization too). */
  readonly bob: RemoteUser;
  readonly space: string;
  /** Page ids by title: "Install", "Configure", "Upgrade", "Old notes". */
  readonly pages: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

const OPERATOR = "dbt_sync_browser_operator_token";

/** Starts `docsbase serve --memory` (the built CLI: a start under tsx takes several times longer). */
export async function startRemote(flags: readonly string[] = []): Promise<Remote> {
  const cli: BuiltScript = await buildCli();
  const processes = new ServeProcesses([cli.script]);
  try {
    const server = await processes.start(["--memory", ...flags], { DOCSBASE_ADMIN_TOKEN: OPERATOR });
    const operator = new ApiClient(server.url, OPERATOR);
    const user = async (name: string): Promise<RemoteUser> => {
      const created = await must(operator, "POST", "/users", {
        displayName: name,
        email: `${name.toLowerCase()}@example.com`,
      });
      const token = await must(operator, "POST", `/users/${created.id}/tokens`, {});
      return { id: created.id, token: token.token, api: new ApiClient(server.url, token.token) };
    };
    const alice = await user("Alice");
    const bob = await user("Bob");
    const org = await must(alice.api, "POST", "/orgs", { title: "Docs team" });
    const space = await must(alice.api, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" });
    const invite = await must(alice.api, "POST", `/orgs/${org.id}/link-invites`, { role: "admin" });
    await must(bob.api, "POST", `/orgs/${org.id}/invites/${invite.id}`);
    const pages: Record<string, string> = {};
    for (const title of ["Install", "Configure", "Upgrade", "Old notes"]) {
      const page = await must(alice.api, "POST", `/spaces/${space.id}/content/pages`, {
        title,
        markdown: `# ${title}\n\nAs first written.`,
      });
      pages[title] = page.id;
    }
    return {
      url: server.url,
      server,
      alice,
      bob,
      space: space.id,
      pages,
      close: async () => {
        await processes.killAll();
        cli.remove();
      },
    };
  } catch (error) {
    await processes.killAll();
    cli.remove();
    throw error;
  }
}

/** Sends a request and returns its body; throws unless the status is 2xx. */
export async function must(api: ApiClient, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await api.send(method, path, body);
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/** Another user's edit of one page on the server, through a change request they merge. */
export async function editAndMerge(user: RemoteUser, space: string, page: string, markdown: string) {
  const cr = await must(user.api, "POST", `/spaces/${space}/change-requests`, { subject: "Server edit" });
  await must(user.api, "PATCH", `/spaces/${space}/change-requests/${cr.id}/content/page/${page}`, {
    markdown,
  });
  const merged = await must(user.api, "POST", `/spaces/${space}/change-requests/${cr.id}/merge`);
  if (merged.result !== "merge") throw new Error(`the server edit did not merge: ${JSON.stringify(merged)}`);
  return merged.revision as string;
}

/** The site: `files` by path (`/` included), and `/v1/...` passed through to `remote` when given. */
export interface Site {
  readonly origin: string;
  /** Every `/v1` request the site passed on, as `METHOD /v1/path`. */
  readonly passed: string[];
  close(): Promise<void>;
}

export async function startSite(
  remote: string | undefined,
  files: Readonly<Record<string, { type: string; body: string }>>,
): Promise<Site> {
  const passed: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site").pathname;
    if (remote !== undefined && path.startsWith("/v1/")) {
      passed.push(`${request.method} ${path}`);
      void pass(remote, request).then(
        ({ status, headers, body }) => response.writeHead(status, headers).end(body),
        () => response.writeHead(502).end(),
      );
      return;
    }
    const file = files[path];
    if (!file) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One request passed to the remote as a reverse proxy would (hop-by-hop headers dropped). */
async function pass(remote: string, request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && !HOP.has(name)) headers.set(name, value);
  }
  const answer = await fetch(new URL(request.url!, remote), {
    method: request.method!,
    headers,
    ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP.has(name) && name !== "content-encoding" && name !== "content-length") out[name] = value;
  });
  return { status: answer.status, headers: out, body: Buffer.from(await answer.arrayBuffer()) };
}

const HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "content-length"]);

/** A Chromium profile directory, kept across the launches of one test ("restarting the browser"). */

/**
 * Serves the site's files to `context` from the test itself, as an offline-first app's cached
 * shell would be: a page opened while the context is offline still loads (the `/v1` requests still
 * go to the network, and fail).
 */
export async function serveShellOffline(
  context: BrowserContext,
  origin: string,
  files: Readonly<Record<string, { type: string; body: string }>>,
) {
  for (const [path, file] of Object.entries(files)) {
    await context.route(`${origin}${path}`, (route) =>
      route.fulfill({ status: 200, contentType: file.type, body: file.body }),
    );
  }
}

/** Opens the site in a new page and waits until its script set `name` on `globalThis`. */
export async function openPage(context: BrowserContext, origin: string, name: string): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(origin);
  await page.waitForFunction((key) => key in globalThis, name);
  if (errors.length > 0) throw new Error(`the page failed: ${errors.join("; ")}`);
  return page;
}

/** The site of test/browser/sync-page.ts (`globalThis.syncScenario`), passing `/v1` to `remote` when given. */
export async function startScenarioSite(remote: string | undefined): Promise<Site> {
  return startSite(remote, {
    "/": { type: "text/html", body: '<!doctype html><script type="module" src="/page.js"></script>' },
    "/page.js": { type: "text/javascript", body: await bundle("sync-page.ts", "page") },
  });
}

/**
 * Calls `syncScenario[name](...args)` in the page (test/browser/sync-page.ts): `{ value }`, or
 * `{ error }` with what it threw, as text.
 */
export function runScenario<T = any>(
  page: Page,
  name: string,
  ...args: unknown[]
): Promise<{ value?: T; error?: string }> {
  return page.evaluate(
    async ([script, values]) => {
      try {
        return { value: await (globalThis as any).syncScenario[script](...values) };
      } catch (error) {
        return { error: String(error) };
      }
    },
    [name, args] as const,
  );
}
