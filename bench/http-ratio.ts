/**
 * `GET /v1/spaces/{id}` from `docsbase serve` against a bare `node:http` server that answers the
 * same bytes and headers: the ratio of their requests per second is what docsbase's request path
 * costs over the HTTP server it runs on (issue 8, "A lean request path"). Both run in this process,
 * one at a time, alternated, so that they share whatever else the machine does.
 *
 * Measured on memory and on SQLite, with serve's default rate limiting (the per-caller request
 * limit raised so that one token at full speed is counted but never refused: the same work per
 * request as the default) and with rate limiting off, to show what it costs.
 */
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../src/cli/serve.js";

const OPERATOR = "dbt_bench_ratio_operator_token";
const ROUNDS = 2;
const DURATION = Number(process.env.RATIO_SECONDS ?? 10);
const CONNECTIONS = 50;

/** What a GET answered, as sent: status, the headers a bare server must repeat, the body bytes. */
interface Answer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

/** Headers Node writes itself on every answer; the bare server gets them from Node alike. */
const NODE_OWN = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

function get(url: string, token: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!NODE_OWN.has(name) && value !== undefined) headers[name] = value;
        }
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

async function call(server: RunningServer, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A bare node:http server answering every request with `answer`. */
async function bareServer(answer: Answer): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function requestsPerSecond(url: string, token: string): Promise<number> {
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${token}` },
    connections: CONNECTIONS,
    duration: DURATION,
    // The load comes from a thread of its own: on this thread it would take the server's time.
    workers: 1,
  });
  const failed = result.errors + result.non2xx;
  if (failed > 0) throw new Error(`${url}: ${failed} of ${result.requests.total} requests failed`);
  return result.requests.average;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function measure(storage: "memory" | "sqlite", rateLimited: boolean, directory: string) {
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    db: join(directory, `ratio-${rateLimited ? "limited" : "open"}.sqlite`),
    memory: storage === "memory",
    adminToken: OPERATOR,
    // The default limits, but one caller is never refused: the limiter counts every request.
    rateLimit: rateLimited ? { requests: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } } : false,
    log: () => {},
  });
  try {
    const operator = await call(server, "GET", "/user", OPERATOR);
    const organization = await call(server, "POST", "/orgs", OPERATOR, { title: "Bench" });
    const space = await call(server, "POST", `/orgs/${String(organization.id)}/spaces`, OPERATOR, {
      title: "Bench space",
    });
    const { token } = (await call(server, "POST", `/users/${String(operator.id)}/tokens`, OPERATOR, {
      label: "bench",
    })) as { token: string };
    const path = `/v1/spaces/${String(space.id)}`;
    const answer = await get(`${server.url}${path}`, token);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
    const bare = await bareServer(answer);
    try {
      const docsbase: number[] = [];
      const plain: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        docsbase.push(await requestsPerSecond(`${server.url}${path}`, token));
        plain.push(await requestsPerSecond(`${bare.url}${path}`, token));
      }
      const ours = median(docsbase);
      const theirs = median(plain);
      const label = `HTTP GET /v1/spaces/{id} (${storage}, rate limit ${rateLimited ? "on" : "off"})`;
      console.log(
        `${label.padEnd(52)} docsbase ${Math.round(ours).toLocaleString("en").padStart(7)} req/s,` +
          ` bare ${Math.round(theirs).toLocaleString("en").padStart(7)} req/s, ratio ${(ours / theirs).toFixed(2)}` +
          ` (runs: ${docsbase.map(Math.round).join(", ")} vs ${plain.map(Math.round).join(", ")})`,
      );
    } finally {
      await bare.close();
    }
  } finally {
    await server.close();
  }
}

/** Prints docsbase's and the bare server's requests per second and their ratio, per storage. */
export async function benchHttpRatio(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-ratio-"));
  try {
    for (const storage of ["memory", "sqlite"] as const) {
      await measure(storage, true, directory);
      await measure(storage, false, directory);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// Run directly: `npx tsx bench/http-ratio.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await benchHttpRatio();
