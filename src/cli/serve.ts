import { serve as serveNode, type ServerType } from "@hono/node-server";
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
  /** How often due background jobs run. */
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
  // is created lazily, before the first request can arrive.
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
      return await docsbase!.fetch(request);
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
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
  docsbase = createDocsbase({ storage, baseUrl: options.baseUrl ?? url });

  const { token } = await docsbase.bootstrap(options.adminToken ? { token: options.adminToken } : {});
  if (token) log(`Operator token (shown once, keep it safe): ${token}`);
  const runJobs = () =>
    docsbase!.runJobs().catch((error: unknown) => console.error("docsbase: background job failed", error));
  await runJobs();
  const timer = setInterval(runJobs, options.jobIntervalMs ?? 60_000);
  timer.unref();

  log(`docsbase listening on ${url} (${options.memory ? "in memory" : options.db})`);
  let shutdown: Promise<void> | undefined;
  return {
    url,
    docsbase,
    close() {
      shutdown ??= (async () => {
        closing = true;
        clearInterval(timer);
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
