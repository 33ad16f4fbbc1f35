import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { memoryStorage } from "../adapters/memory/index.js";
import { postgresStorage } from "../adapters/postgres/index.js";
import { sqliteStorage } from "../adapters/sqlite/index.js";
import type { ResourceModule } from "../core/module.js";
import { libreTranslate } from "../core/translations/libretranslate.js";
import { createDocsbase, type Docsbase, requestHandlerOf, type RequestHandler } from "../docsbase.js";
import { DOT_SEGMENT_MESSAGE, hasDotSegment } from "../http/paths.js";
import type { RateLimitOptions } from "../http/rate-limit.js";
import { errorAnswer } from "../http/status.js";
import { AnswerWriter, NodeRequest } from "./node-http.js";
import { DroppedConnection, serveTestDouble, type TestDoubleOptions } from "./test-double.js";

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** SQLite file; ignored with `memory` or `postgres`. */
  readonly db: string;
  readonly memory: boolean;
  /**
   * PostgreSQL connection URL (`--postgres`, `DOCSBASE_DATABASE_URL`): several servers may share
   * one database (docs/scaling.md). Takes precedence over `db` and `memory`.
   */
  readonly postgres?: string;
  /** Connections in the PostgreSQL pool (`--pool-size`). Default 10. */
  readonly poolSize?: number;
  /** How long a server holds a claimed background job before another may take it over. Default 5 min. */
  readonly jobLeaseMs?: number;
  /** Resource modules of the host's own, mounted beside docsbase's (see `createDocsbase`). */
  readonly modules?: readonly ResourceModule[];
  /** Public base URL used in `urls`; defaults to `http://<host>:<port>`. */
  readonly baseUrl?: string;
  /** Base of application URLs (`urls.app`), `--app-url`; defaults to `baseUrl`. */
  readonly appUrl?: string;
  /** Where a renderer serves the sites (`--published-url`; see `createDocsbase`). Default: none. */
  readonly publishedUrl?: string;
  /** Origins allowed to call the API across origins (`--cors-origins`; see `createDocsbase`). Default: none. */
  readonly corsOrigins?: readonly string[];
  /** Base of download URLs (`--download-url`); defaults to `baseUrl` (see `createDocsbase`). */
  readonly downloadBaseUrl?: string;
  /** Operator token to register (from `DOCSBASE_ADMIN_TOKEN`). */
  readonly adminToken?: string;
  /** Lets outbound HTTP reach non-public addresses (`--allow-private-network`). Default `false`. */
  readonly allowPrivateNetwork?: boolean;
  /**
   * A LibreTranslate-compatible server for translation runs (`DOCSBASE_TRANSLATOR_URL`), with its
   * API key (`DOCSBASE_TRANSLATOR_API_KEY`). Without it, creating or running a translation answers 503.
   */
  readonly translator?: { readonly url: string; readonly apiKey?: string };
  /** How often the server looks for due background jobs. Default 1000 ms. */
  readonly jobIntervalMs?: number;
  /**
   * Rate limits (docs/server.md): on by default with `DEFAULT_RATE_LIMIT`; an object changes some
   * limits, `false` turns them off.
   */
  readonly rateLimit?: boolean | RateLimitOptions;
  /** Proxies in front that append to `X-Forwarded-For` (`true`: one). Default: none, the socket's peer. */
  readonly trustProxy?: boolean | number;
  /** Connection timeouts; see {@link DEFAULT_TIMEOUTS}. */
  readonly timeouts?: Partial<ServerTimeouts>;
  /** Largest accepted request head (request line and headers), in bytes; larger answers 431. Default 16 KiB. */
  readonly maxHeaderBytes?: number;
  readonly log?: (line: string) => void;
  /**
   * Serves a test double instead (`--test-double`): memory storage, `/v1` plus the admin API under
   * `/_docsbase/`; `db`, `memory` and `postgres` are ignored. See docs/testing.md, "Server mode".
   */
  readonly testDouble?: TestDoubleOptions;
}

/** How long a connection may take, in milliseconds (0 turns one off). */
export interface ServerTimeouts {
  /** To receive the request line and headers (`server.headersTimeout`); answered 408. */
  readonly headersMs: number;
  /** To receive the whole request, body included (`server.requestTimeout`); answered 408. */
  readonly requestMs: number;
  /**
   * Of silence on a connection (no byte read or written), in or between requests, before it is
   * closed: checked every tenth of it, so closed at most a tenth later.
   */
  readonly idleMs: number;
  /** Between requests on a kept-alive connection before it is closed (`server.keepAliveTimeout`). */
  readonly keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 20_000,
  requestMs: 60_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
};

export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

export interface RunningServer {
  readonly url: string;
  readonly docsbase: Docsbase;
  /** Stops accepting connections, lets in-flight requests finish, then closes storage. */
  close(): Promise<void>;
}

/**
 * Starts the standalone server: docsbase's runtime-neutral handler (the one behind its fetch
 * handler) on Node's HTTP server, with no fetch `Request` or `Response` built on the way.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const storage = options.testDouble
    ? memoryStorage()
    : options.postgres
      ? postgresStorage({
          connectionString: options.postgres,
          ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
        })
      : options.memory
        ? memoryStorage()
        : sqliteStorage({ filename: options.db });
  // The base URL is only known once the port is bound (port 0 picks a free one), so the handler
  // is created lazily, before the first request can arrive.
  let handler: RequestHandler | undefined;
  // In-flight requests are counted so that shutdown closes storage only after the last one ends;
  // keep-alive connections can still carry requests after `server.close()`, and those get a 503.
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  // docsbase tracks the drain it hands over and waits for it on close: nothing to keep here.
  const background = { waitUntil: () => {} };
  const answers = new AnswerWriter();
  // A request counts until its answer is written: the writer holds answers to the end of the turn.
  const written = () => {
    if (--inFlight === 0) drained?.();
  };
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    inFlight++;
    let request: NodeRequest;
    try {
      request = new NodeRequest(incoming);
    } catch {
      answers.answer(incoming, outgoing, errorAnswer(400, "Malformed request target"), written);
      return;
    }
    // The handler judges the target as sent too, but one the URL parser rewrote reaches it resolved.
    const refusal = hasDotSegment(incoming.url ?? "")
      ? errorAnswer(400, DOT_SEGMENT_MESSAGE)
      : closing
        ? errorAnswer(503, "The server is shutting down", { connection: "close" })
        : undefined;
    if (refusal) {
      answers.answer(incoming, outgoing, refusal, written);
      return;
    }
    handler!(request, background).then(
      (answer) => answers.answer(incoming, outgoing, answer, written),
      (error: unknown) => {
        if (!(error instanceof DroppedConnection)) return answers.fail(outgoing, error, written);
        incoming.socket.destroy();
        written();
      },
    );
  };
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  const server = createServer(
    {
      maxHeaderSize: maxHeaderBytes,
      requestTimeout: timeouts.requestMs,
      // Node refuses a header timeout longer than the request timeout.
      headersTimeout: timeouts.requestMs
        ? Math.min(timeouts.headersMs, timeouts.requestMs)
        : timeouts.headersMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // Header and request timeouts are enforced by a sweep this often (Node's default is 30 s).
      connectionsCheckingInterval: sweepInterval(timeouts),
    },
    listener,
  );
  guardConnections(server, timeouts, maxHeaderBytes);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  let docsbase: Docsbase;
  let jobs: { stop(): void };
  if (options.testDouble) {
    const double = await serveTestDouble({
      ...options.testDouble,
      storage,
      baseUrl: options.baseUrl ?? url,
      ...(options.appUrl ? { appUrl: options.appUrl } : {}),
      ...(options.publishedUrl ? { publishedUrl: options.publishedUrl } : {}),
      ...(options.downloadBaseUrl ? { downloadBaseUrl: options.downloadBaseUrl } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      ...(options.translator ? { translator: libreTranslate(options.translator) } : {}),
      ...(options.adminToken ? { operatorToken: options.adminToken } : {}),
      trustProxy: options.trustProxy ?? false,
      ...(options.modules ? { modules: options.modules } : {}),
    }).catch(async (error: unknown) => {
      // A fixture refused while loading: nothing was announced, nothing keeps listening.
      await new Promise((resolve) => server.close(resolve));
      throw error;
    });
    docsbase = double.test.docsbase;
    handler = double.handler;
    if (double.printToken) log(`Operator token: ${double.printToken}`);
    // Jobs due by the clock, which follows the system's unless frozen by `--now`.
    jobs = pollJobs(
      { runJobs: () => double.test.jobs.drain() },
      { intervalMs: options.jobIntervalMs ?? 1000 },
    );
  } else {
    docsbase = createDocsbase({
      storage,
      baseUrl: options.baseUrl ?? url,
      ...(options.appUrl ? { appUrl: options.appUrl } : {}),
      ...(options.publishedUrl ? { publishedUrl: options.publishedUrl } : {}),
      ...(options.downloadBaseUrl ? { downloadBaseUrl: options.downloadBaseUrl } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      ...(options.translator ? { translator: libreTranslate(options.translator) } : {}),
      rateLimit: options.rateLimit ?? true,
      trustProxy: options.trustProxy ?? false,
      ...(options.modules ? { modules: options.modules } : {}),
      jobs: {
        ...(options.jobLeaseMs !== undefined ? { leaseMs: options.jobLeaseMs } : {}),
        onFailure(job, error) {
          const next = job.state === "dead" ? "kept as dead" : `retried at ${job.runAt}`;
          console.error(
            `docsbase: job ${job.type} ${job.id} failed (attempt ${job.attempts}), ${next}`,
            error,
          );
        },
      },
    });
    handler = requestHandlerOf(docsbase);

    const { token } = await docsbase.bootstrap(options.adminToken ? { token: options.adminToken } : {});
    if (token) log(`Operator token (shown once, keep it safe): ${token}`);
    jobs = pollJobs(docsbase, { intervalMs: options.jobIntervalMs ?? 1000 });
  }
  if (options.allowPrivateNetwork)
    log("Outbound HTTP may reach loopback and private addresses (allow-private-network)");
  if (options.translator) log(`Translations use the LibreTranslate server at ${options.translator.url}`);
  log(`docsbase listening on ${url} (${describeStorage(options)})`);
  let shutdown: Promise<void> | undefined;
  return {
    url,
    docsbase,
    close() {
      shutdown ??= (async () => {
        closing = true;
        jobs.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        server.closeAllConnections();
        await closed;
        await docsbase.close();
      })();
      return shutdown;
    },
  };
}

/** Where the data lives, for the start line; a PostgreSQL URL without its password. */
function describeStorage(options: ServeOptions): string {
  if (options.testDouble) return "test double, in memory";
  if (options.postgres) {
    try {
      const url = new URL(options.postgres);
      if (url.password) url.password = "***";
      return `PostgreSQL ${url.toString()}`;
    } catch {
      return "PostgreSQL";
    }
  }
  return options.memory ? "in memory" : options.db;
}

function sweepInterval(timeouts: ServerTimeouts): number {
  const shortest = Math.min(...[timeouts.headersMs, timeouts.requestMs].filter((ms) => ms > 0));
  return Number.isFinite(shortest) ? Math.max(10, Math.min(1000, Math.floor(shortest / 4))) : 1000;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/**
 * Closes silent connections, and answers what Node refuses before docsbase sees a request (a head
 * past `maxHeaderBytes`, a timeout, malformed HTTP) with the standard error body instead of Node's
 * empty one.
 */
function guardConnections(server: Server, timeouts: ServerTimeouts, maxHeaderBytes: number) {
  closeSilentConnections(server, timeouts.idleMs);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // Errors after this one (a reset while answering) have nothing left to tell.
    socket.on("error", () => {});
    const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, `The request headers are larger than the limit of ${maxHeaderBytes} bytes`]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "The request was not received in time"]
          : [400, "Malformed HTTP request"];
    const body = JSON.stringify({ error: { code: status, message } });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}

/**
 * Closes connections silent for `idleMs`, in a request or between requests. `server.timeout` would
 * do it with a timer per connection, set again for every request and refreshed on every read and
 * write: several µs a request (docs/performance.md, "The request path"). Instead a sweep every
 * tenth of `idleMs` compares each connection's bytes read and written with what it saw last, and
 * closes a connection whose count has not moved for `idleMs`: after `idleMs` of silence, and at
 * most a tenth more. A client that stops reading its answer falls silent too: nothing moves.
 */
function closeSilentConnections(server: Server, idleMs: number): void {
  if (!(idleMs > 0)) return;
  const connections = new Map<Socket, { bytes: number; since: number }>();
  server.on("connection", (socket: Socket) => {
    connections.set(socket, { bytes: 0, since: performance.now() });
    socket.once("close", () => connections.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, seen] of connections) {
        const bytes = socket.bytesRead + socket.bytesWritten;
        if (bytes !== seen.bytes) {
          seen.bytes = bytes;
          seen.since = now;
        } else if (now - seen.since >= idleMs) {
          connections.delete(socket);
          socket.destroy();
        }
      }
    },
    Math.max(5, Math.floor(idleMs / 10)),
  );
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
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
