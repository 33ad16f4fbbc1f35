import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSafeFetch, type FetchFunction, type SafeFetchOptions } from "./outbound.js";
import { OutboundError } from "./outbound-error.js";
import { runtimeResolver } from "./resolve.js";

/**
 * The guard against a real HTTP server on 127.0.0.1. Nothing leaves the machine: URLs naming
 * other hosts go through `toLocal`, a transport that connects to the local server whatever the
 * URL says, so a refusal is proved by the server never seeing the request.
 */
let server: Server;
let origin: string;
let port: number;
const seen: {
  method: string;
  path: string;
  host: string;
  headers: IncomingMessage["headers"];
  body: string;
}[] = [];

function route(request: IncomingMessage, response: ServerResponse, body: string) {
  const url = new URL(request.url ?? "/", "http://local");
  const redirect = (status: number, location: string) => {
    response.writeHead(status, { location });
    response.end();
  };
  const path = url.pathname;
  if (path === "/hello") return response.end("hello");
  if (path === "/echo") {
    response.setHeader("content-type", "application/json");
    return response.end(JSON.stringify({ method: request.method, body, headers: request.headers }));
  }
  if (path === "/to")
    return redirect(Number(url.searchParams.get("status") ?? 302), url.searchParams.get("url")!);
  const hop = /^\/chain\/(\d+)$/.exec(path);
  if (hop) {
    const left = Number(hop[1]);
    return left === 0 ? response.end("end of chain") : redirect(302, `/chain/${left - 1}`);
  }
  if (path === "/hang") return; // never answers
  if (path === "/stall-body") {
    response.writeHead(200, { "content-type": "text/plain" });
    response.write("partial");
    return; // headers and a first chunk, then nothing
  }
  if (path === "/bytes") {
    // Chunked, no content-length: the cap must hold while streaming.
    const size = Number(url.searchParams.get("size"));
    response.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!response.write(part)) return void response.once("drain", pump);
      }
      response.end();
    };
    return pump();
  }
  if (path === "/declared") {
    response.writeHead(200, { "content-length": String(50 * 1024 * 1024) });
    return response.write("x"); // claims 50 MiB; the guard must not wait for them
  }
  response.writeHead(404);
  response.end();
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        path: request.url ?? "",
        host: request.headers.host ?? "",
        headers: request.headers,
        body,
      });
      route(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  seen.length = 0;
});

/** Connects to the local server whatever host the URL names; records the URLs it was given. */
const asked: string[] = [];
const toLocal: FetchFunction = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  asked.push(url.href);
  return fetch(`${origin}${url.pathname}${url.search}`, init);
};
afterEach(() => {
  asked.length = 0;
});

/** Names the tests resolve: the guard sees these answers, the transport still goes to 127.0.0.1. */
const DNS: Record<string, string[]> = {
  "public.test": ["93.184.215.14"],
  "other-public.test": ["2606:4700:4700::1111"],
  "private.test": ["10.0.0.7"],
  "mixed.test": ["93.184.215.14", "192.168.1.20"],
  "v6-private.test": ["fd00::1"],
  "mapped.test": ["::ffff:169.254.169.254"],
};
const resolveHost = async (hostname: string) => {
  const addresses = DNS[hostname];
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return addresses;
};

const guard = (options: SafeFetchOptions = {}) =>
  createSafeFetch({ transport: toLocal, resolveHost, ...options });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("createSafeFetch refuses non-public hosts", () => {
  const refused: [url: string, kind: string][] = [
    ["http://127.0.0.1:PORT/hello", "loopback"],
    ["http://127.1:PORT/hello", "loopback"],
    ["http://2130706433:PORT/hello", "loopback"],
    ["http://0x7f000001:PORT/hello", "loopback"],
    ["http://017700000001:PORT/hello", "loopback"],
    ["http://0177.0.0.1:PORT/hello", "loopback"],
    ["http://0x7f.1:PORT/hello", "loopback"],
    ["http://127.0.0.1.:PORT/hello", "loopback"],
    ["http://10.1.2.3/hello", "private"],
    ["http://172.16.5.4/hello", "private"],
    ["http://172.31.255.1/hello", "private"],
    ["http://192.168.0.10/hello", "private"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://100.64.0.1/hello", "shared"],
    ["http://0.0.0.0:PORT/hello", "unspecified"],
    ["http://0:PORT/hello", "unspecified"],
    ["http://224.0.0.1/hello", "multicast"],
    ["http://255.255.255.255/hello", "broadcast"],
    ["http://240.0.0.1/hello", "reserved"],
    ["http://192.0.2.1/hello", "reserved"],
    ["http://[::1]:PORT/hello", "loopback"],
    ["http://[::]:PORT/hello", "unspecified"],
    ["http://[fe80::1]/hello", "link-local"],
    ["http://[fc00::1]/hello", "private"],
    ["http://[fd12:3456::1]/hello", "private"],
    ["http://[ff02::1]/hello", "multicast"],
    ["http://[::ffff:127.0.0.1]:PORT/hello", "loopback"],
    ["http://[::ffff:7f00:1]:PORT/hello", "loopback"],
    ["http://[::ffff:10.0.0.1]/hello", "private"],
    ["http://[::ffff:a9fe:a9fe]/hello", "link-local"],
    ["http://[::127.0.0.1]:PORT/hello", "loopback"],
    ["http://[64:ff9b::7f00:1]/hello", "loopback"],
    ["http://[64:ff9b::169.254.169.254]/hello", "link-local"],
    ["http://[2002:7f00:1::]/hello", "loopback"],
    ["http://localhost:PORT/hello", "loopback interface"],
    ["http://LOCALHOST:PORT/hello", "loopback interface"],
    ["http://localhost.:PORT/hello", "loopback interface"],
    ["http://a.localhost:PORT/hello", "loopback interface"],
    ["https://private.test/hello", "resolves to 10.0.0.7"],
    ["http://mixed.test/hello", "resolves to 192.168.1.20"],
    ["http://v6-private.test/hello", "resolves to fd00::1"],
    ["http://mapped.test/hello", "resolves to ::ffff:169.254.169.254"],
  ];

  it.each(refused)("%s (%s)", async (template, kind) => {
    const url = template.replace("PORT", String(port));
    const error = await failure(guard()(url));
    expect(error.code).toBe("address_refused");
    if (kind.startsWith("resolves to")) {
      // What a name resolves to stays out of the message users read, in the cause.
      expect(error.message).toBe(`Refused ${new URL(url).href}: address refused`);
      expect(String(error.cause)).toContain(kind);
    } else expect(error.message).toContain(kind);
    expect(asked).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("refuses the same addresses with the runtime's own fetch as transport", async () => {
    const safeFetch = createSafeFetch({ resolveHost });
    for (const url of [
      `${origin}/hello`,
      `http://[::ffff:7f00:1]:${port}/hello`,
      `http://2130706433:${port}/`,
    ]) {
      expect((await failure(safeFetch(url))).code).toBe("address_refused");
    }
    expect(seen).toEqual([]);
  });

  it.each(["file:///etc/passwd", "ftp://public.test/file", "data:text/plain,hi", "javascript:alert(1)"])(
    "refuses the scheme of %s, even with allowPrivateNetwork",
    async (url) => {
      expect((await failure(guard()(url))).code).toBe("invalid_url");
      expect((await failure(guard({ allowPrivateNetwork: true })(url))).code).toBe("invalid_url");
      expect(asked).toEqual([]);
    },
  );

  it("answers network_error when a name does not resolve", async () => {
    const error = await failure(guard()("http://nowhere.test/hello"));
    expect(error.code).toBe("network_error");
    expect(error.message).toBe("Could not connect to http://nowhere.test/hello");
    expect(String(error.cause)).toContain("ENOTFOUND");
    expect(asked).toEqual([]);
  });
});

describe("createSafeFetch lets public hosts through", () => {
  it.each([
    "http://public.test/hello",
    "https://other-public.test/hello",
    "http://93.184.215.14/hello",
    "http://[2606:4700:4700::1111]/hello",
    "http://[::ffff:8.8.8.8]/hello",
  ])("%s", async (url) => {
    const response = await guard()(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello");
    expect(response.url).toBe(new URL(url).href);
    expect(response.redirected).toBe(false);
    expect(asked).toEqual([new URL(url).href]);
  });

  it("reaches 127.0.0.1 and names resolving to private addresses with allowPrivateNetwork", async () => {
    const open = createSafeFetch({ allowPrivateNetwork: true, resolveHost });
    expect(await (await open(`${origin}/hello`)).text()).toBe("hello");
    expect(await (await open(`http://2130706433:${port}/hello`)).text()).toBe("hello");
    expect(await (await guard({ allowPrivateNetwork: true })("http://private.test/hello")).text()).toBe(
      "hello",
    );
  });

  it("sends the method, headers and body", async () => {
    const response = await guard()("http://public.test/echo", {
      method: "POST",
      headers: { "content-type": "application/json", "x-custom": "yes" },
      body: JSON.stringify({ a: 1 }),
    });
    const echoed = (await response.json()) as {
      method: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(echoed).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(echoed.headers["x-custom"]).toBe("yes");
  });
});

describe("createSafeFetch redirects", () => {
  const via = (target: string, status = 302) =>
    `http://public.test/to?status=${status}&url=${encodeURIComponent(target)}`;

  it("re-checks every hop: a public URL redirecting to a private one is refused", async () => {
    for (const target of [
      `${origin}/hello`,
      `http://localhost:${port}/hello`,
      "http://private.test/hello",
      "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      seen.length = 0;
      const error = await failure(guard()(via(target)));
      expect(error.code).toBe("address_refused");
      expect(error.url).toBe(new URL(target).href);
      expect(seen.map(({ path }) => path)).toEqual([
        new URL(via(target)).pathname + new URL(via(target)).search,
      ]);
    }
  });

  it("refuses a redirect to another scheme", async () => {
    expect((await failure(guard()(via("file:///etc/passwd")))).code).toBe("invalid_url");
  });

  it("follows up to 5 redirects and refuses a sixth", async () => {
    const five = await guard()("http://public.test/chain/5");
    expect(await five.text()).toBe("end of chain");
    expect(five.redirected).toBe(true);
    expect(five.url).toBe("http://public.test/chain/0");
    seen.length = 0;

    const error = await failure(guard()("http://public.test/chain/6"));
    expect(error.code).toBe("too_many_redirects");
    expect(seen).toHaveLength(6);
    expect((await failure(guard({ maxRedirects: 1 })("http://public.test/chain/2"))).code).toBe(
      "too_many_redirects",
    );
  });

  it.each([301, 302, 303])("%i turns a POST into a GET without a body", async (status) => {
    const response = await guard()(via("/echo", status), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const echoed = (await response.json()) as {
      method: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(echoed.method).toBe("GET");
    expect(echoed.body).toBe("");
    expect(echoed.headers["content-type"]).toBeUndefined();
  });

  it.each([307, 308])("%i repeats the request with its body", async (status) => {
    const response = await guard()(via("/echo", status), { method: "PUT", body: "kept" });
    expect(await response.json()).toMatchObject({ method: "PUT", body: "kept" });
  });

  it("keeps credentials on the same origin and drops them on another", async () => {
    const headers = { authorization: "Bearer secret", "x-other": "kept" };
    const same = (await (await guard()(via("/echo"), { headers })).json()) as {
      headers: Record<string, string>;
    };
    expect(same.headers["authorization"]).toBe("Bearer secret");
    const other = await guard()(via("http://other-public.test/echo"), { headers });
    const echoed = (await other.json()) as { headers: Record<string, string> };
    expect(echoed.headers["authorization"]).toBeUndefined();
    expect(echoed.headers["x-other"]).toBe("kept");
  });

  it("returns the redirect itself with redirect: manual, and fails with redirect: error", async () => {
    const manual = await guard()(via("/hello"), { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(manual.headers.get("location")).toBe("/hello");
    expect((await failure(guard()(via("/hello"), { redirect: "error" }))).code).toBe("network_error");
  });
});

describe("createSafeFetch limits", () => {
  it("times out against a server that never answers", async () => {
    const error = await failure(guard({ timeoutMs: 200 })("http://public.test/hang"));
    expect(error.code).toBe("timeout");
  });

  it("times out while the body is still arriving", async () => {
    const error = await failure(guard({ timeoutMs: 200 })("http://public.test/stall-body"));
    expect(error.code).toBe("timeout");
  });

  it("times out even when the transport and the resolver ignore the signal", async () => {
    const stuck = createSafeFetch({ transport: () => new Promise(() => {}), resolveHost, timeoutMs: 100 });
    expect((await failure(stuck("http://public.test/hello"))).code).toBe("timeout");
    const slowDns = createSafeFetch({
      transport: toLocal,
      resolveHost: () => new Promise(() => {}),
      timeoutMs: 100,
    });
    expect((await failure(slowDns("http://public.test/hello"))).code).toBe("timeout");
  });

  it("passes the caller's own abort through", async () => {
    const controller = new AbortController();
    const pending = guard()("http://public.test/hang", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("caller gave up")), 50);
    await expect(pending).rejects.toThrow("caller gave up");
  });

  it("refuses a body larger than the cap, streamed or declared", async () => {
    const capped = guard({ maxResponseBytes: 1024 * 1024 });
    const atCap = await capped(`http://public.test/bytes?size=${1024 * 1024}`);
    expect((await atCap.arrayBuffer()).byteLength).toBe(1024 * 1024);
    expect(atCap.headers.get("content-length")).toBe(String(1024 * 1024));

    const streamed = await failure(capped(`http://public.test/bytes?size=${1024 * 1024 + 1}`));
    expect(streamed.code).toBe("too_large");
    const declared = await failure(capped("http://public.test/declared"));
    expect(declared.code).toBe("too_large");
  });

  it("caps at 10 MiB by default", async () => {
    const error = await failure(guard()(`http://public.test/bytes?size=${10 * 1024 * 1024 + 1}`));
    expect(error.code).toBe("too_large");
  });

  it("answers network_error when the connection fails", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(
      createSafeFetch({ allowPrivateNetwork: true })(`http://127.0.0.1:${closedPort}/`),
    );
    expect(error.code).toBe("network_error");
  });
});

describe("runtimeResolver", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("uses node:dns on Node, which reads /etc/hosts", async () => {
    const resolve = runtimeResolver();
    expect(resolve).not.toBeNull();
    const addresses = await resolve!("localhost");
    expect(addresses.some((address) => address === "127.0.0.1" || address === "::1")).toBe(true);
  });

  it("uses Deno.resolveDns where node:dns is not reachable", async () => {
    vi.stubGlobal("process", undefined);
    vi.stubGlobal("Deno", {
      resolveDns: async (name: string, type: string) => {
        if (type === "AAAA") throw new Error("no AAAA record");
        return name === "private.test" ? ["10.0.0.7"] : ["93.184.215.14"];
      },
    });
    const resolve = runtimeResolver();
    vi.unstubAllGlobals();
    const safeFetch = createSafeFetch({ transport: toLocal, resolveHost: resolve });
    expect((await failure(safeFetch("http://private.test/hello"))).code).toBe("address_refused");
    expect(await (await safeFetch("http://public.test/hello")).text()).toBe("hello");
  });

  it("resolves nothing in a browser: names pass, literals and localhost are still checked", async () => {
    vi.stubGlobal("process", undefined);
    vi.stubGlobal("document", {});
    const resolve = runtimeResolver();
    vi.unstubAllGlobals();
    expect(resolve).toBeNull();
    const safeFetch = createSafeFetch({ transport: toLocal, resolveHost: resolve });
    expect(await (await safeFetch("http://private.test/hello")).text()).toBe("hello");
    expect((await failure(safeFetch("http://10.0.0.1/hello"))).code).toBe("address_refused");
    expect((await failure(safeFetch("http://localhost/hello"))).code).toBe("address_refused");
  });

  it("refuses names on a server runtime that offers no resolver", async () => {
    vi.stubGlobal("process", undefined);
    const resolve = runtimeResolver();
    vi.unstubAllGlobals();
    const error = await failure(
      createSafeFetch({ transport: toLocal, resolveHost: resolve })("http://public.test/"),
    );
    expect(error.code).toBe("address_refused");
    expect(error.message).toContain("no resolver");
    expect(asked).toEqual([]);
  });
});
