import { LRUCache } from "lru-cache";
import { createClient, type Client } from "./core/client.js";
import { runDueJobs } from "./core/jobs.js";
import { jobHandlers, operations, type Operations } from "./core/operations.js";
import { DocsbaseError } from "./core/shared/errors.js";
import { randomId, type Caller, type Context, type World } from "./core/shared/world.js";
import type { Storage } from "./core/storage/port.js";
import { storageSchema, tables, type UserRecord } from "./core/tables.js";
import { bootstrapOperator, type BootstrapResult } from "./core/users/bootstrap.js";
import { callerForToken } from "./core/users/tokens.js";
import { readDownload } from "./core/content/download.js";
import { readExport } from "./core/exports/pdf.js";
import { createFetchHandler } from "./http/handler.js";
import { errorResponse } from "./http/status.js";
import { openApiDocument } from "./http/openapi.js";

export interface DocsbaseOptions {
  /** Where data lives: `memoryStorage()`, `sqliteStorage({ filename })`... */
  readonly storage: Storage;
  /** Absolute base of API URLs in responses, without `/v1`. Default `http://localhost`. */
  readonly baseUrl?: string;
  /** Absolute base of application URLs (`urls.app`). Default: `baseUrl`. */
  readonly appUrl?: string;
  /** Current time. Default: the system clock. */
  readonly clock?: () => Date;
  /** Identifier generator. Default: 20 random base62 characters. */
  readonly ids?: () => string;
  /** Largest accepted request body, in bytes. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** How many derived values (materialized revisions, search indexes...) to keep. Default 500. */
  readonly cacheEntries?: number;
  /** Where unexpected errors go. Default: `console.error`. */
  readonly onError?: (error: unknown, request: Request) => void;
}

/** Who an in-process client acts as. */
export type ClientAuth = { readonly token: string } | { readonly userId: string };

export interface Docsbase {
  /** Serves the `/v1` API: usable as a fetch handler on any runtime. */
  fetch(request: Request): Promise<Response>;
  /** A typed in-process client acting as the given caller, with HTTP's validation and errors. */
  as(auth: ClientAuth): Client<Operations>;
  /** Ensures the operator user exists; see {@link BootstrapResult}. */
  bootstrap(options?: { token?: string }): Promise<BootstrapResult>;
  /** Runs the background jobs due now (permanent deletions...). Returns how many ran. */
  runJobs(): Promise<number>;
  /** The OpenAPI 3.1 document of the API. */
  openApi(): Record<string, unknown>;
  /** Closes the storage. */
  close(): Promise<void>;
}

/** Default request-body limit: large enough for base64 file uploads of a few MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Creates a docsbase instance over a storage adapter.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 *
 * const docsbase = createDocsbase({ storage: memoryStorage(), baseUrl: "http://localhost:8787" });
 * const { token } = await docsbase.bootstrap();
 * const response = await docsbase.fetch(
 *   new Request("http://localhost:8787/v1/user", { headers: { authorization: `Bearer ${token}` } }),
 * );
 * ```
 */
export function createDocsbase(options: DocsbaseOptions): Docsbase {
  const baseUrl = (options.baseUrl ?? "http://localhost").replace(/\/+$/, "");
  const world: World = {
    storage: options.storage,
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? (() => randomId()),
    baseUrl,
    appUrl: (options.appUrl ?? baseUrl).replace(/\/+$/, ""),
    cache: new LRUCache<string, object>({ max: options.cacheEntries ?? 500 }),
  };
  let initialized: Promise<void> | undefined;
  const ready = () => (initialized ??= options.storage.init(storageSchema));
  const context = async (caller: Caller | null): Promise<Context> => {
    await ready();
    return { ...world, caller };
  };
  const authenticate = async (token: string) => {
    await ready();
    return world.storage.read((tx) => callerForToken(tx, token));
  };
  let document: Record<string, unknown> | undefined;
  const openApi = () =>
    (document ??= openApiDocument(operations, {
      title: "docsbase",
      version: "1",
      serverUrl: `${baseUrl}/v1`,
    }));

  const fetch = createFetchHandler({
    operations,
    authenticate,
    context,
    openApi,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    extraRoutes: (router) => {
      router.get("/files/:versionId/:name", async ({ params }) => {
        await ready();
        const download = await readDownload(world, decodeURIComponent(params["versionId"] ?? ""));
        if (!download) return errorResponse(404, "File not found");
        return new Response(download.bytes, {
          headers: {
            "content-type": download.version.contentType,
            "content-length": String(download.bytes.byteLength),
            "cache-control": "private, max-age=31536000, immutable",
            "x-content-type-options": "nosniff",
          },
        });
      });
      router.get("/exports/:file", async ({ params }) => {
        await ready();
        const id = (params["file"] ?? "").replace(/\.pdf$/, "");
        const pdf = await readExport(world, id);
        if (!pdf) return errorResponse(404, "Export not found or expired");
        return new Response(pdf.bytes as Uint8Array<ArrayBuffer>, {
          headers: {
            "content-type": "application/pdf",
            "content-disposition": `inline; filename="${pdf.name}"`,
            "content-length": String(pdf.bytes.byteLength),
          },
        });
      });
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });

  return {
    fetch,
    as(auth) {
      return createClient(operations, async () => {
        if ("userId" in auth) {
          const user = await world.storage.read((tx) => tx.get<UserRecord>(tables.users.name, auth.userId));
          if (!user) throw new DocsbaseError("unauthorized", `No user "${auth.userId}"`);
          return context({ userId: auth.userId, operator: user.kind === "operator" });
        }
        const caller = await authenticate(auth.token);
        if (!caller) throw new DocsbaseError("unauthorized", "The token is not valid");
        return context(caller);
      });
    },
    async bootstrap(bootstrapOptions = {}) {
      await ready();
      return bootstrapOperator(world, bootstrapOptions.token);
    },
    async runJobs() {
      await ready();
      return runDueJobs(world, jobHandlers);
    },
    openApi,
    close: () => options.storage.close(),
  };
}
