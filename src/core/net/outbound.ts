import { readCapped } from "../shared/bytes.js";
import { classifyAddress } from "./ip.js";
import { OutboundError } from "./outbound-error.js";
import { NoResolverError, runtimeResolver, type ResolveHost } from "./resolve.js";

/** The shape of the standard `fetch`, which `World.fetch` and the guard's transport share. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface SafeFetchOptions {
  /**
   * Sends one HTTP exchange. The guard calls it once per hop with `redirect: "manual"` and its own
   * abort signal, and follows redirects itself. Default: the runtime's `fetch`.
   */
  readonly transport?: FetchFunction;
  /**
   * Every address a host name resolves to; each must be public. Default: the runtime's resolver
   * (see `runtimeResolver`). `null` checks names by name only (`localhost`, `*.localhost`).
   */
  readonly resolveHost?: ResolveHost | null;
  /** Lifts the address rule (local development): any host may be reached. Default `false`. */
  readonly allowPrivateNetwork?: boolean;
  /** Deadline of the whole call: resolution, every hop and reading the body. Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest response body accepted, after content decoding. Default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** Redirects followed before giving up. Default 5. */
  readonly maxRedirects?: number;
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];
/** Credentials not forwarded to another origin, as the Fetch standard and browsers do. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Builds the guarded `fetch` that core uses to reach the network (docs/security.md).
 *
 * It refuses, with an {@link OutboundError}: URLs other than http: and https:; hosts that are, or
 * resolve to, a non-public address (see `classifyAddress`), and `localhost` or `*.localhost`;
 * more than `maxRedirects` redirects, each hop being checked again; a call lasting longer than
 * `timeoutMs`, body included; a body larger than `maxResponseBytes`. The response it returns has
 * its body already read into memory, so no caller can read past the cap.
 *
 * Known limit (DNS rebinding): a name is resolved once by the guard and once more by the
 * transport when it connects. A name whose answers change between the two could slip through; a
 * host that needs to close that gap passes a `transport` that connects to the checked addresses.
 *
 * @example
 * ```ts
 * const fetch = createSafeFetch({ timeoutMs: 5_000 });
 * await fetch("http://169.254.169.254/latest/meta-data/"); // throws OutboundError "address_refused"
 * const response = await fetch("https://example.com/openapi.json");
 * ```
 */
export function createSafeFetch(options: SafeFetchOptions = {}): FetchFunction {
  const transport: FetchFunction = options.transport ?? ((input, init) => globalThis.fetch(input, init));
  const resolveHost = options.resolveHost === undefined ? runtimeResolver() : options.resolveHost;
  const timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  async function check(url: URL): Promise<void> {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new OutboundError(
        "invalid_url",
        `Only http: and https: URLs are fetched, not ${url.href}`,
        url.href,
      );
    }
    if (options.allowPrivateNetwork) return;
    const refuse = (why: string, cause?: Error) =>
      new OutboundError("address_refused", `Refused ${url.href}: ${why}`, url.href, cause && { cause });
    const host = url.hostname.replace(/\.$/, "");
    const literal = classifyAddress(host);
    if (literal !== undefined) {
      if (literal !== "public") throw refuse(`${host} is not a public address (${literal})`);
      return;
    }
    if (host === "localhost" || host.endsWith(".localhost"))
      throw refuse(`${host} names the loopback interface`);
    if (resolveHost === null) return;
    let addresses: readonly string[];
    try {
      addresses = await resolveHost(host);
    } catch (error) {
      if (error instanceof NoResolverError) throw refuse(error.message);
      throw couldNotConnect(url, error);
    }
    if (addresses.length === 0) throw couldNotConnect(url, new Error(`${host} resolves to no address`));
    for (const address of addresses) {
      const kind = classifyAddress(address) ?? "not an IP address";
      if (kind !== "public") {
        // The message is shown to users; the address it resolved to stays in the cause.
        throw refuse(
          "address refused",
          new Error(`${host} resolves to ${address}, not a public address (${kind})`),
        );
      }
    }
  }

  /** Reads the body up to the cap and answers a new Response holding it. */
  async function capped(
    response: Response,
    url: URL,
    redirected: boolean,
    head: boolean,
    signal: AbortSignal,
  ): Promise<Response> {
    const tooLarge = () =>
      new OutboundError(
        "too_large",
        `The response of ${url.href} is larger than ${maxBytes} bytes`,
        url.href,
      );
    const declared = Number(response.headers.get("content-length"));
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    const body = head || NULL_BODY_STATUSES.has(response.status) ? null : response.body;
    const bytes = body ? await readCapped(body, maxBytes, { tooLarge, signal }) : null;
    const headers = new Headers(response.headers);
    // The body is decoded now, and its length is what was read.
    headers.delete("content-encoding");
    headers.delete("content-length");
    if (bytes) headers.set("content-length", String(bytes.byteLength));
    const result = new Response(bytes, { status: response.status, statusText: response.statusText, headers });
    Object.defineProperty(result, "url", { value: url.href });
    Object.defineProperty(result, "redirected", { value: redirected });
    return result;
  }

  return async function safeFetch(input, init) {
    let request: Request;
    try {
      request = new Request(input, init);
    } catch (error) {
      const shown = input instanceof Request ? input.url : String(input);
      throw new OutboundError(
        "invalid_url",
        `Cannot send a request to ${shown}: ${messageOf(error)}`,
        shown,
        {
          cause: error,
        },
      );
    }
    const callerSignal = request.signal;
    if (callerSignal.aborted) throw callerSignal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal.reason);
    callerSignal.addEventListener("abort", onCallerAbort, { once: true });
    // Every await below races this, so a transport or resolver that ignores the signal cannot
    // outlive the deadline.
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true }),
    );
    aborted.catch(() => {});
    const within = <T>(promise: Promise<T>) => Promise.race([promise, aborted]);

    let url = new URL(request.url);
    try {
      let method = request.method;
      const headers = new Headers(request.headers);
      let body = request.body ? await within(request.arrayBuffer()) : null;
      for (let redirects = 0; ; redirects++) {
        await within(check(url));
        const response = await within(
          transport(url.href, { method, headers, body, redirect: "manual", signal: controller.signal }),
        );
        if (response.type === "opaqueredirect") {
          // Browsers answer `redirect: "manual"` without the target, so the hop cannot be checked.
          throw new OutboundError(
            "network_error",
            `${url.href} redirects to a URL this runtime hides`,
            url.href,
          );
        }
        const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
        if (location === null || request.redirect === "manual") {
          return await within(capped(response, url, redirects > 0, method === "HEAD", controller.signal));
        }
        await response.body?.cancel().catch(() => {});
        if (request.redirect === "error") {
          throw new OutboundError(
            "network_error",
            `${url.href} redirects, and redirects were refused`,
            url.href,
          );
        }
        if (redirects >= maxRedirects) {
          throw new OutboundError(
            "too_many_redirects",
            `More than ${maxRedirects} redirects from ${request.url}`,
            url.href,
          );
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutboundError(
            "invalid_url",
            `${url.href} redirects to an invalid URL: ${location}`,
            url.href,
          );
        }
        // As browsers do (Fetch standard, "HTTP-redirect fetch"): 303 and a POST's 301 or 302 become
        // a GET without a body; 307 and 308 repeat the request as it was.
        const status = response.status;
        if (
          (status === 303 && method !== "GET" && method !== "HEAD") ||
          ((status === 301 || status === 302) && method === "POST")
        ) {
          method = "GET";
          body = null;
          for (const name of BODY_HEADERS) headers.delete(name);
        }
        if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
        url = next;
      }
    } catch (error) {
      if (timedOut) {
        throw new OutboundError("timeout", `${url.href} did not complete within ${timeoutMs} ms`, url.href, {
          cause: error,
        });
      }
      if (callerSignal.aborted) throw callerSignal.reason;
      if (error instanceof OutboundError) throw error;
      throw couldNotConnect(url, error);
    } finally {
      clearTimeout(timer);
      callerSignal.removeEventListener("abort", onCallerAbort);
    }
  };
}

/**
 * A failed resolution or connection. The message is what users read (an OpenAPI spec's
 * `lastProcessedErrors`, a delivery's trace), so it names the URL only: the resolver's or the
 * transport's detail (a DNS error code, an internal address) stays in `cause`, for the operator.
 */
function couldNotConnect(url: URL, cause: unknown): OutboundError {
  return new OutboundError("network_error", `Could not connect to ${url.href}`, url.href, { cause });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
