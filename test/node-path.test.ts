import { createServer, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { answerFailure, AnswerWriter, answerNode, NodeRequest } from "../src/cli/node-http.js";
import { startServer } from "../src/cli/serve.js";
import { type DocsbaseOptions, requestHandlerOf } from "../src/docsbase.js";
import { DOT_SEGMENT_MESSAGE } from "../src/http/paths.js";
import type { PlainAnswer } from "../src/http/plain.js";
import { anyCaller, defineModule, defineOperation } from "../src/index.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * `docsbase serve` answers through the runtime-neutral handler on `node:http` (src/cli/node-http.ts)
 * where other runtimes use `docsbase.fetch`. Two identical instances (same clock, same ids, same
 * requests in the same order) are asked the same thing, one over HTTP through the Node path, one
 * through `fetch`: every answer must be the same (status, headers except Node's own, body bytes).
 */
const START = Date.parse("2026-01-01T00:00:00Z");

function options(): Partial<DocsbaseOptions> {
  let id = 0;
  return {
    clock: () => new Date(START),
    ids: () => `id${String(++id).padStart(6, "0")}`,
    maxBodyBytes: 2048,
    rateLimit: { failedAuthPerAddress: { limit: 3, windowMs: 60_000 } },
    // The Node path's address is the socket's peer; the fetch path is told the same.
    clientAddress: () => "127.0.0.1",
  };
}

/** Headers Node's server writes of its own, not the handler's. */
const NODE_OWN = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

let viaNode: TestDocsbase;
let viaFetch: TestDocsbase;
let server: Server;
let origin: string;

beforeAll(async () => {
  viaNode = await createTestDocsbase(options());
  viaFetch = await createTestDocsbase(options());
  const handle = requestHandlerOf(viaNode.docsbase);
  server = createServer((incoming, outgoing) => {
    handle(new NodeRequest(incoming)).then(
      (answer) => answerNode(incoming, outgoing, answer),
      (error: unknown) => answerFailure(outgoing, error),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await viaNode.docsbase.close();
  await viaFetch.docsbase.close();
});

interface Sent {
  method: string;
  /** The target as sent on the wire. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

function overNode(sent: Sent): Promise<Answer & { length: string | undefined }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    // The target goes on the wire as written (a URL string would have its dot segments resolved).
    const request = httpRequest(
      { hostname, port, path: sent.target, method: sent.method, headers: sent.headers ?? {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (!NODE_OWN.has(name)) headers[name] = String(value);
          }
          const length = response.headers["content-length"];
          resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks), length });
        });
      },
    );
    request.on("error", reject);
    request.end(sent.body);
  });
}

async function overFetch(sent: Sent): Promise<Answer> {
  const init: RequestInit = { method: sent.method, headers: sent.headers ?? {} };
  if (sent.body !== undefined) init.body = sent.body;
  const response = await viaFetch.docsbase.fetch(new Request(`${origin}${sent.target}`, init));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NODE_OWN.has(name)) headers[name] = value;
  });
  // A HEAD answer has no body on the wire; the fetch handler's is dropped the same way.
  const body = sent.method === "HEAD" ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers, body };
}

/** Sends the same request both ways and expects the same answer; returns it. */
async function same(sent: Sent): Promise<Answer> {
  const node = await overNode(sent);
  const fetched = await overFetch(sent);
  const what = `${sent.method} ${sent.target}`;
  expect(node.status, what).toBe(fetched.status);
  expect(node.headers, what).toEqual(fetched.headers);
  expect(node.body.toString("base64"), what).toBe(fetched.body.toString("base64"));
  if (sent.method !== "HEAD" && node.status !== 204) expect(node.length, what).toBe(String(node.body.length));
  return fetched;
}

const auth = (token = "dbt_operator_test_token") => ({ authorization: `Bearer ${token}` });
const json = { ...auth(), "content-type": "application/json" };

describe("the Node request path", () => {
  it("answers as the fetch handler does, request for request", async () => {
    expect((await same({ method: "GET", target: "/v1/user", headers: auth() })).status).toBe(200);
    expect((await same({ method: "GET", target: "/v1/openapi.json" })).status).toBe(200);
    const org = await same({ method: "POST", target: "/v1/orgs", headers: json, body: '{"title":"Acme"}' });
    expect(org.status).toBe(201);
    const orgId = JSON.parse(org.body.toString()).id as string;
    const space = await same({
      method: "POST",
      target: `/v1/orgs/${orgId}/spaces`,
      headers: json,
      body: JSON.stringify({ title: "Docs" }),
    });
    expect(space.status).toBe(201);
    const spaceId = JSON.parse(space.body.toString()).id as string;
    // A query string, repeated and encoded.
    expect(
      (await same({ method: "GET", target: `/v1/orgs/${orgId}/spaces?limit=1&x=a%20b&x=c`, headers: auth() }))
        .status,
    ).toBe(200);
    expect((await same({ method: "GET", target: "/v1/nowhere", headers: auth() })).status).toBe(404);
    expect((await same({ method: "DELETE", target: "/v1/openapi.json" })).status).toBe(405);
    expect((await same({ method: "HEAD", target: "/v1/user", headers: auth() })).status).toBe(405);
    expect((await same({ method: "POST", target: "/v1/orgs", headers: json, body: "{oops" })).status).toBe(
      400,
    );
    expect(
      (
        await same({
          method: "POST",
          target: "/v1/orgs",
          headers: json,
          body: `{"title":"${"x".repeat(4096)}"}`,
        })
      ).status,
    ).toBe(413);
    expect(
      (
        await same({
          method: "POST",
          target: "/v1/orgs",
          headers: { ...auth(), "content-type": "text/plain" },
          body: "hi",
        })
      ).status,
    ).toBe(415);
    // A dot segment: the fetch handler only ever sees it resolved away by the URL parser (404 here);
    // the Node path judges the target as sent, as the standalone server always has.
    const dotted = await overNode({ method: "GET", target: "/v1/spaces/%2e%2e/x", headers: auth() });
    expect([dotted.status, dotted.headers["content-type"], JSON.parse(dotted.body.toString())]).toEqual([
      400,
      "application/json",
      { error: { code: 400, message: DOT_SEGMENT_MESSAGE } },
    ]);
    expect((await same({ method: "GET", target: "/v1/user" })).status).toBe(401);
    // Percent-encoded, and characters the URL parser encodes: both read the path it makes of them.
    expect((await same({ method: "GET", target: "/v1/orgs/%C3%A9t%C3%A9", headers: auth() })).status).toBe(
      404,
    );
    expect((await same({ method: "GET", target: "/v1/orgs/{x}?q=`a`", headers: auth() })).status).toBe(404);

    // A file download: bytes with their headers.
    const file = await same({
      method: "POST",
      target: `/v1/spaces/${spaceId}/content/files`,
      headers: json,
      body: JSON.stringify({ name: "a.png", contentType: "image/png", data: btoa("\u0089PNG bytes") }),
    });
    expect(file.status).toBe(201);
    const download = new URL(JSON.parse(file.body.toString()).downloadURL as string);
    const downloaded = await same({ method: "GET", target: download.pathname });
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers["content-type"]).toBe("image/png");
    expect(downloaded.body.toString("latin1")).toBe("\u0089PNG bytes");
    expect((await same({ method: "GET", target: "/v1/exports/missing.pdf" })).status).toBe(404);

    // Failed authentications from one address: the fourth is refused with 429 and its headers.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await same({ method: "GET", target: "/v1/user", headers: auth("dbt_wrong") })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("answerNode", () => {
  it("pipes a stream body, and sends a string with its length", async () => {
    const answers = [
      {
        status: 200,
        headers: { "content-type": "text/plain" },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("one, "));
            controller.enqueue(new TextEncoder().encode("two"));
            controller.close();
          },
        }),
      },
      { status: 201, headers: { "content-type": "text/plain" }, body: "été" },
    ];
    const stub = createServer((incoming, outgoing) => answerNode(incoming, outgoing, answers.shift()!));
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    try {
      const streamed = await fetch(`${base}/a`);
      expect([streamed.status, streamed.headers.get("transfer-encoding"), await streamed.text()]).toEqual([
        200,
        "chunked",
        "one, two",
      ]);
      const sent = await fetch(`${base}/b`);
      expect([sent.status, sent.headers.get("content-length"), await sent.text()]).toEqual([201, "5", "été"]);
    } finally {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    }
  });
});

describe("AnswerWriter", () => {
  /** A server whose listener hands each answer to `writer` and records what happened when. */
  async function withWriter(
    writer: AnswerWriter,
    answerOf: (path: string) => PlainAnswer,
    run: (base: string, events: string[]) => Promise<void>,
  ) {
    const events: string[] = [];
    const stub = createServer((incoming, outgoing) => {
      const path = incoming.url ?? "";
      writer.answer(incoming, outgoing, answerOf(path), () => events.push(`done ${path}`));
      // Held to the end of the turn: nothing is sent yet.
      events.push(`queued ${path}, sent: ${outgoing.headersSent}`);
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    try {
      await run(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`, events);
    } finally {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    }
  }

  it("writes an answer after the turn it came in, then runs its done", async () => {
    const writer = new AnswerWriter();
    await withWriter(
      writer,
      (path) => ({ status: 200, headers: { "content-type": "text/plain" }, body: `at ${path}` }),
      async (base, events) => {
        const answers = await Promise.all(["/a", "/b", "/c"].map((path) => fetch(`${base}${path}`)));
        expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual([
          "at /a",
          "at /b",
          "at /c",
        ]);
        for (const path of ["/a", "/b", "/c"]) {
          expect(events.indexOf(`queued ${path}, sent: false`)).toBeGreaterThanOrEqual(0);
          expect(events.indexOf(`done ${path}`)).toBeGreaterThan(
            events.indexOf(`queued ${path}, sent: false`),
          );
        }
      },
    );
  });

  it("answers 500 when Node refuses an answer, and still runs its done", async () => {
    const writer = new AnswerWriter();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await withWriter(
        writer,
        (path): PlainAnswer =>
          path === "/refused"
            ? { status: 200, headers: { "x-broken": "one\ntwo" }, body: "never sent" }
            : { status: 200, headers: {}, body: "fine" },
        async (base, events) => {
          const refused = await fetch(`${base}/refused`);
          expect([refused.status, await refused.json()]).toEqual([
            500,
            { error: { code: 500, message: "Internal server error" } },
          ]);
          expect(events).toContain("done /refused");
          // The writer goes on answering.
          expect(await (await fetch(`${base}/next`)).text()).toBe("fine");
        },
      );
      expect(logged).toHaveBeenCalledWith("docsbase: the request handler failed", expect.any(TypeError));
    } finally {
      logged.mockRestore();
    }
  });
});

describe("docsbase serve's listener", () => {
  it("answers 400 with the standard body to a target the URL parser refuses", async () => {
    const server = await startServer({ port: 0, host: "127.0.0.1", db: "", memory: true, log: () => {} });
    try {
      const { hostname, port } = new URL(server.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () =>
          socket.write("GET http://[oops/v1/user HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        );
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
      expect(answer.endsWith('{"error":{"code":400,"message":"Malformed request target"}}')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("writes the answer of a request in flight before it closes", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const slow = defineOperation({
      id: "slowThing",
      method: "get",
      path: "/slow-thing",
      tag: "test",
      summary: "Answers once the test lets it",
      access: anyCaller,
      response: z.object({ finished: z.boolean() }),
      async run() {
        entered();
        await gate;
        return { finished: true };
      },
    });
    const server = await startServer({
      port: 0,
      host: "127.0.0.1",
      db: "",
      memory: true,
      log: () => {},
      modules: [defineModule({ name: "slow", tables: [], operations: { slowThing: slow } })],
      adminToken: "dbt_node_path_operator_token",
    });
    const answer = fetch(`${server.url}/v1/slow-thing`, {
      headers: { authorization: "Bearer dbt_node_path_operator_token" },
    });
    await inside;
    const closed = server.close();
    release();
    const response = await answer;
    expect([response.status, await response.json()]).toEqual([200, { finished: true }]);
    await closed;
  });
});
