import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer, type ServeOptions } from "../src/cli/serve.js";
import { createTestDocsbase } from "../src/testing/double.js";

const TOKEN = "dbt_server_hardening_operator_token";

/** A request body that records whether anything pulled from it, and whether it was cancelled. */
function watchedBody() {
  const seen = { pulled: false, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulled = true;
        controller.enqueue(new TextEncoder().encode('{"title":"Never read"}'));
        controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    // No chunk is pulled ahead of a reader.
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe("authentication before the body", () => {
  it("answers 401 without reading the body, for no token and for an invalid one", async () => {
    const t = await createTestDocsbase();
    for (const authorization of [undefined, "Bearer dbt_not_a_token", "Basic abc"]) {
      const { stream, seen } = watchedBody();
      const response = await t.docsbase.fetch(
        new Request("http://docsbase.test/v1/orgs", {
          method: "POST",
          headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
          body: stream,
          duplex: "half",
        } as RequestInit),
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
      expect(seen).toEqual({ pulled: false, cancelled: true });
    }
  });

  it("answers 429 without reading the body, and reads it for an admitted caller", async () => {
    const t = await createTestDocsbase({
      rateLimit: { requests: { limit: 1, windowMs: 60_000 } },
      clientAddress: () => "192.0.2.1",
    });
    const post = (body: ReadableStream<Uint8Array>) =>
      t.docsbase.fetch(
        new Request("http://docsbase.test/v1/orgs", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${t.operatorToken}` },
          body,
          duplex: "half",
        } as RequestInit),
      );
    const admitted = watchedBody();
    expect((await post(admitted.stream)).status).toBe(201);
    expect(admitted.seen.pulled).toBe(true);
    const refused = watchedBody();
    expect((await post(refused.stream)).status).toBe(429);
    expect(refused.seen).toEqual({ pulled: false, cancelled: true });
  });
});

/** A raw HTTP/1.1 connection to the server, recording what it receives and how it ends. */
async function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const state = { received: "", endedByServer: false, closed: false };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (state.received += chunk));
  socket.on("end", () => (state.endedByServer = true));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      state.closed = true;
      resolve();
    }),
  );
  return { socket, state, closed };
}

const serverOptions = (overrides: Partial<ServeOptions> = {}): ServeOptions => ({
  port: 0,
  host: "127.0.0.1",
  db: "",
  memory: true,
  adminToken: TOKEN,
  jobIntervalMs: 60_000,
  log: () => {},
  ...overrides,
});

describe("the standalone server's connection limits", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Short timeouts so that the test waits little; assertions count events, not milliseconds. The
    // idle timeout is the shortest, so that a silent connection meets it before the headers' one.
    server = await startServer(
      serverOptions({ timeouts: { headersMs: 400, requestMs: 400, idleMs: 200, keepAliveMs: 200 } }),
    );
  });
  afterAll(() => server.close());

  it("disconnects a client that drips its body, answering 408 with the standard error body", async () => {
    const { socket, state, closed } = await rawConnection(server.url);
    const length = 1_000;
    socket.write(
      "POST /v1/orgs HTTP/1.1\r\nHost: docsbase.test\r\nContent-Type: application/json\r\n" +
        `Authorization: Bearer ${TOKEN}\r\nContent-Length: ${length}\r\n\r\n`,
    );
    let dripped = 0;
    // One byte each 20 ms: the whole body would take 20 s, 50 times the request timeout.
    while (dripped < length && !state.closed) {
      socket.write(" ");
      dripped++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await closed;
    expect(dripped).toBeLessThan(length);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
    const body = state.received.slice(state.received.indexOf("\r\n\r\n") + 4);
    expect(JSON.parse(body)).toEqual({ error: { code: 408, message: expect.any(String) } });
  });

  it("closes an idle keep-alive connection after its response", async () => {
    const { socket, state, closed } = await rawConnection(server.url);
    socket.write(`GET /v1/user HTTP/1.1\r\nHost: docsbase.test\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
    await closed;
    expect(state.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(state.received).toMatch(/keep-alive/i);
    expect(state.endedByServer).toBe(true);
  });

  it("closes a connection that never sends a request", async () => {
    const { state, closed } = await rawConnection(server.url);
    await closed;
    expect(state.received).toBe("");
  });

  it("answers a head larger than 16 KiB with 431 and the standard error body", async () => {
    const { socket, state, closed } = await rawConnection(server.url);
    socket.write(
      `GET /v1/user HTTP/1.1\r\nHost: docsbase.test\r\nAuthorization: Bearer ${"a".repeat(17 * 1024)}\r\n\r\n`,
    );
    await closed;
    expect(state.received).toMatch(/^HTTP\/1\.1 431 /);
    expect(state.received).toMatch(/content-type: application\/json/i);
    const body = state.received.slice(state.received.indexOf("\r\n\r\n") + 4);
    expect(JSON.parse(body)).toEqual({
      error: { code: 431, message: "The request headers are larger than the limit of 16384 bytes" },
    });
  });
});

describe("the standalone server's rate limits", () => {
  it("applies them by default: wrong tokens get 429 after the limit, with the headers", async () => {
    const server = await startServer(serverOptions());
    try {
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let index = 0; index < 30; index++) {
        const response = await fetch(`${server.url}/v1/user`, {
          headers: { authorization: `Bearer guess${index}-${"x".repeat(20)}` },
        });
        statuses.push(response.status);
        if (response.status === 429) refused ??= response;
        await response.arrayBuffer();
      }
      expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
      expect(refused!.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(refused!.headers.get("x-ratelimit-limit")).toBe("20");
      expect(refused!.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refused!.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
      // The requests-per-caller quota shows on every admitted answer.
      const admitted = await fetch(`${server.url}/v1/user`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(admitted.status).toBe(429); // this address failed too often: even a good token waits
      await admitted.arrayBuffer();
    } finally {
      await server.close();
    }
  });

  it("takes rateLimit options: requests per caller", async () => {
    const server = await startServer(
      serverOptions({ rateLimit: { requests: { limit: 3, windowMs: 60_000 } } }),
    );
    try {
      const statuses = [];
      for (let index = 0; index < 4; index++) {
        const response = await fetch(`${server.url}/v1/user`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await server.close();
    }
  });
});
