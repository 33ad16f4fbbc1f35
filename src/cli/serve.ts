import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { memoryStorage } from "../adapters/memory/index.js";
import { sqliteStorage } from "../adapters/sqlite/index.js";
import { createDocsbase, type Docsbase } from "../docsbase.js";

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** SQLite file; ignored with `memory`. */
  readonly db: string;
  readonly memory: boolean;
  /** Public base URL used in `urls`; defaults to `http://<host>:<port>`. */
  readonly baseUrl?: string;
  /** Operator token to register (from `DOCSBASE_ADMIN_TOKEN`). */
  readonly adminToken?: string;
  /** Lets outbound HTTP reach non-public addresses (`--allow-private-network`). Default `false`. */
  readonly allowPrivateNetwork?: boolean;
  /** How often the server looks for due background jobs. Default 1000 ms. */
  readonly jobIntervalMs?: number;
  readonly log?: (line: string) => void;
}

export interface RunningServer {
  readonly url: string;
  readonly docsbase: Docsbase;
  /** Stops accepting connections, lets in-flight requests finish, then closes storage. */
  close(): Promise<void>;
}

/** Starts the standalone server: docsbase's fetch handler on Node's HTTP server. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const storage = options.memory ? memoryStorage() : sqliteStorage({ filename: options.db });
  // The base URL is only known once the port is bound (port 0 picks a free one), so the handler
  // is created lazily, before the first request can arrive. (`let`: assigned below, once the port is
  // bound, but declared here for the request handler to close over.)
  // eslint-disable-next-line prefer-const
  let docsbase: Docsbase | undefined;
  // In-flight requests are counted so that shutdown closes storage only after the last one ends;
  // keep-alive connections can still carry requests after `server.close()`, and those get a 503.
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const handle = async (request: Request): Promise<Response> => {
    if (closing) {
      return Response.json(
        { error: { code: 503, message: "The server is shutting down" } },
        { status: 503, headers: { connection: "close" } },
      );
    }
    inFlight++;
    try {
      // docsbase tracks the drain it hands over and waits for it on close: nothing to keep here.
      return await docsbase!.fetch(request, { waitUntil: () => {} });
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
  const serveNode = await loadNodeServer();
  const server: ServerType = await new Promise((resolve) => {
    const started = serveNode(
      {
        fetch: handle,
        port: options.port,
        hostname: options.host,
      },
      () => resolve(started),
    );
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  docsbase = createDocsbase({
    storage,
    baseUrl: options.baseUrl ?? url,
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    jobs: {
      onFailure(job, error) {
        const next = job.state === "dead" ? "kept as dead" : `retried at ${job.runAt}`;
        console.error(`docsbase: job ${job.type} ${job.id} failed (attempt ${job.attempts}), ${next}`, error);
      },
    },
  });

  const { token } = await docsbase.bootstrap(options.adminToken ? { token: options.adminToken } : {});
  if (token) log(`Operator token (shown once, keep it safe): ${token}`);
  const jobs = pollJobs(docsbase, { intervalMs: options.jobIntervalMs ?? 1000 });

  if (options.allowPrivateNetwork)
    log("Outbound HTTP may reach loopback and private addresses (allow-private-network)");
  log(`docsbase listening on ${url} (${options.memory ? "in memory" : options.db})`);
  let shutdown: Promise<void> | undefined;
  return {
    url,
    docsbase,
    close() {
      shutdown ??= (async () => {
        closing = true;
        jobs.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        if ("closeIdleConnections" in server) server.closeIdleConnections();
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        if ("closeAllConnections" in server) server.closeAllConnections();
        await closed;
        await docsbase!.close();
      })();
      return shutdown;
    },
  };
}

/**
 * Drains due jobs now and then every `intervalMs`, one drain at a time: a job queued by another
 * process sharing the storage, or due later (a purge 7 days on), starts within one interval. Jobs
 * this server's requests queue due now start at once, through `fetch`'s `waitUntil`.
 */
export function pollJobs(
  docsbase: Pick<Docsbase, "runJobs">,
  options: { readonly intervalMs: number; readonly onError?: (error: unknown) => void },
): { stop(): void } {
  const onError =
    options.onError ?? ((error: unknown) => console.error("docsbase: background jobs failed", error));
  let draining = false;
  const tick = () => {
    if (draining) return;
    draining = true;
    docsbase
      .runJobs()
      .catch(onError)
      .finally(() => (draining = false));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  // Waiting jobs do not keep the process alive; open connections and `close()` decide.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * `@hono/node-server` is an optional dependency (installing docsbase for a browser or Deno needs no
 * Node server); the CLI loads it on start and says what to install when it is missing.
 */
async function loadNodeServer(): Promise<typeof import("@hono/node-server").serve> {
  try {
    return (await import("@hono/node-server")).serve;
  } catch (error) {
    throw new Error(
      '@hono/node-server is not installed: run "npm install @hono/node-server" to use docsbase serve',
      {
        cause: error,
      },
    );
  }
}
