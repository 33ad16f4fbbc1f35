/**
 * `GET /v1/spaces/{id}` from `docsbase serve` against a bare `node:http` server that answers the
 * same bytes and headers: the ratio of their requests per second is what docsbase's request path
 * costs over the HTTP server it runs on (issue 8, "A lean request path"). The two are loaded one at
 * a time, alternated, so that they share whatever else the machine does.
 *
 * Two modes (`RATIO_MODE`):
 * - `in-process` (the default): both servers run in this process, autocannon in a worker thread;
 * - `processes`: docsbase serve, the bare server and the load generator (autocannon, in this
 *   process) are three processes (bench/http-servers.ts), and each server's CPU time per request
 *   is reported beside the rates.
 *
 * Measured on memory, on SQLite and on PostgreSQL (a server of its own, started for the run by the
 * tests' launcher), with serve's default rate limiting (the per-caller request limit raised so
 * that one token at full speed is counted but never refused: the same work per request as the
 * default) and with rate limiting off, to show what it costs. `RATIO_CASES` (`sqlite-off,
 * postgres-off`...) picks some of the six (the four of memory and SQLite by default),
 * `RATIO_READS` the requests (`space`, the default, for `GET /v1/spaces/{id}`; `page` for
 * `GET /v1/spaces/{id}/content/path/{pagePath}`, a page of a few paragraphs), `RATIO_SECONDS` (default 10) and
 * `RATIO_ROUNDS` (default 2) set each run's length and the runs per server, `RATIO_WARMUP` (default
 * 2, 0 for none) the seconds of an uncounted run against each server first. In the separate-process
 * mode, `RATIO_PROFILE=<directory>` has each server process write a V8 CPU profile there as it exits.
 */
import autocannon from "autocannon";
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type ServeOptions } from "../src/cli/serve.js";
import { createDatabase, startPostgres, type PostgresServer } from "../test/support/postgres-server.js";
import type { ServerMessage, ServerReply } from "./http-servers.js";

const OPERATOR = "dbt_bench_ratio_operator_token";
const ROUNDS = Number(process.env.RATIO_ROUNDS ?? 2);
const DURATION = Number(process.env.RATIO_SECONDS ?? 10);
const WARMUP = Number(process.env.RATIO_WARMUP ?? 2);
const CONNECTIONS = 50;
const CASES = ["memory-on", "memory-off", "sqlite-on", "sqlite-off", "postgres-on", "postgres-off"] as const;
const DEFAULT_CASES = ["memory-on", "memory-off", "sqlite-on", "sqlite-off"];
const READS = ["space", "page"] as const;
type Read = (typeof READS)[number];
type StorageName = "memory" | "sqlite" | "postgres";

/** The markdown of the page read: a title's page of a few paragraphs and a list. */
const PAGE_MARKDOWN = [
  "Install the package, then point it at a database.",
  "## Requirements\n\nNode 20 or later, and one of the supported storage engines.",
  "- SQLite for one server\n- PostgreSQL for several\n- memory for tests",
  "## First steps\n\nCreate an organization, a space, and a token for your editors.",
].join("\n\n");

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

async function call(url: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A server under load: its URL, the CPU time its process used so far (µs) if it has one of its own. */
interface Target {
  readonly url: string;
  cpu(): Promise<number | undefined>;
  close(): Promise<void>;
}

/** Where the servers run, and where the load comes from. */
interface Mode {
  readonly name: "in-process" | "processes";
  docsbase(options: Omit<ServeOptions, "log">): Promise<Target>;
  bare(answer: Answer): Promise<Target>;
  /** autocannon's worker threads: in process, the load must not take the servers' thread. */
  readonly workers?: number;
}

const inProcess: Mode = {
  name: "in-process",
  async docsbase(options) {
    const server = await startServer({ ...options, log: () => {} });
    return { url: server.url, cpu: async () => undefined, close: () => server.close() };
  },
  bare: bareServer,
  workers: 1,
};

const processes: Mode = {
  name: "processes",
  docsbase: (options) => serverProcess({ start: "docsbase", options }),
  bare: (answer) =>
    serverProcess({
      start: "bare",
      answer: { status: answer.status, headers: answer.headers, body: answer.body.toString("base64") },
    }),
};

/** A server of bench/http-servers.ts in a process of its own. */
async function serverProcess(start: ServerMessage): Promise<Target> {
  const profile = process.env.RATIO_PROFILE;
  const child = fork(new URL("./http-servers.ts", import.meta.url), [], {
    execArgv: ["--import", "tsx", ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [])],
  });
  // Each message is answered once, in order.
  const waiting: { resolve: (reply: ServerReply) => void; reject: (error: Error) => void }[] = [];
  child.on("message", (reply: ServerReply) => waiting.shift()?.resolve(reply));
  child.on("exit", (code) => {
    for (const { reject } of waiting.splice(0)) reject(new Error(`bench server exited (${code})`));
  });
  const ask = (message: ServerMessage) =>
    new Promise<ServerReply>((resolve, reject) => {
      waiting.push({ resolve, reject });
      child.send(message);
    });
  const { url } = (await ask(start)) as { url: string };
  return {
    url,
    cpu: async () => ((await ask({ cpu: true })) as { cpu: number }).cpu,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send({ stop: true } satisfies ServerMessage);
      }),
  };
}

/** A bare node:http server in this process, answering every request with `answer`. */
async function bareServer(answer: Answer): Promise<Target> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cpu: async () => undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One autocannon run: the server's requests per second, and its CPU µs per request when known. */
async function load(mode: Mode, target: Target, path: string, token: string, duration = DURATION) {
  const before = await target.cpu();
  const result = await autocannon({
    url: `${target.url}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: CONNECTIONS,
    duration,
    ...(mode.workers ? { workers: mode.workers } : {}),
  });
  const after = await target.cpu();
  const failed = result.errors + result.non2xx;
  if (failed > 0) throw new Error(`${target.url}: ${failed} of ${result.requests.total} requests failed`);
  const cpu =
    before === undefined || after === undefined ? undefined : (after - before) / result.requests.total;
  return { rate: result.requests.average, cpu };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const count = (value: number) => Math.round(value).toLocaleString("en").padStart(7);

async function measure(
  mode: Mode,
  storage: StorageName,
  rateLimited: boolean,
  read: Read,
  directory: string,
  postgres: PostgresServer | undefined,
) {
  const server = await mode.docsbase({
    port: 0,
    host: "127.0.0.1",
    db: join(directory, `ratio-${mode.name}-${rateLimited ? "limited" : "open"}-${read}.sqlite`),
    memory: storage === "memory",
    ...(postgres ? { postgres: await createDatabase(postgres.url, "ratio") } : {}),
    adminToken: OPERATOR,
    // The default limits, but one caller is never refused: the limiter counts every request.
    rateLimit: rateLimited ? { requests: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } } : false,
  });
  try {
    const operator = await call(server.url, "GET", "/user", OPERATOR);
    const organization = await call(server.url, "POST", "/orgs", OPERATOR, { title: "Bench" });
    const space = await call(server.url, "POST", `/orgs/${String(organization.id)}/spaces`, OPERATOR, {
      title: "Bench space",
    });
    const { token } = (await call(server.url, "POST", `/users/${String(operator.id)}/tokens`, OPERATOR, {
      label: "bench",
    })) as { token: string };
    let path = `/v1/spaces/${String(space.id)}`;
    if (read === "page") {
      const page = await call(server.url, "POST", `/spaces/${String(space.id)}/content/pages`, OPERATOR, {
        title: "Getting started",
        markdown: PAGE_MARKDOWN,
      });
      path = `${path}/content/path/${String(page.path)}`;
    }
    const answer = await get(`${server.url}${path}`, token);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
    const bare = await mode.bare(answer);
    try {
      const ours: { rate: number; cpu: number | undefined }[] = [];
      const theirs: { rate: number; cpu: number | undefined }[] = [];
      // Not counted: the code of each server's request path is compiled, its caches filled.
      if (WARMUP > 0) {
        await load(mode, server, path, token, WARMUP);
        await load(mode, bare, path, token, WARMUP);
      }
      for (let round = 0; round < ROUNDS; round++) {
        ours.push(await load(mode, server, path, token));
        theirs.push(await load(mode, bare, path, token));
      }
      const rate = median(ours.map((run) => run.rate));
      const bareRate = median(theirs.map((run) => run.rate));
      const route = read === "page" ? "/v1/spaces/{id}/content/path/{path}" : "/v1/spaces/{id}";
      const label = `HTTP GET ${route} (${storage}, rate limit ${rateLimited ? "on" : "off"}, ${mode.name})`;
      const runs = `${ours.map((run) => Math.round(run.rate)).join(", ")} vs ${theirs.map((run) => Math.round(run.rate)).join(", ")}`;
      const cpu = ours.every((run) => run.cpu !== undefined)
        ? `; CPU per request docsbase ${median(ours.map((run) => run.cpu!)).toFixed(0)} µs,` +
          ` bare ${median(theirs.map((run) => run.cpu!)).toFixed(0)} µs`
        : "";
      console.log(
        `${label.padEnd(84)} docsbase ${count(rate)} req/s, bare ${count(bareRate)} req/s,` +
          ` ratio ${(rate / bareRate).toFixed(2)} (runs: ${runs})${cpu}`,
      );
    } finally {
      await bare.close();
    }
  } finally {
    await server.close();
  }
}

/**
 * Prints docsbase's and the bare server's requests per second and their ratio, per storage and
 * rate limit, in the mode `RATIO_MODE` names (`in-process` unless told `processes`).
 */
export async function benchHttpRatio(): Promise<void> {
  const modeName = process.env.RATIO_MODE ?? "in-process";
  const mode = [inProcess, processes].find((candidate) => candidate.name === modeName);
  if (!mode) throw new Error(`RATIO_MODE must be in-process or processes, not ${modeName}`);
  const cases = process.env.RATIO_CASES?.split(",") ?? DEFAULT_CASES;
  const reads = process.env.RATIO_READS?.split(",") ?? ["space"];
  const unknownReads = reads.filter((name) => !(READS as readonly string[]).includes(name));
  if (unknownReads.length > 0)
    throw new Error(`RATIO_READS: unknown ${unknownReads.join(", ")} (of space, page)`);
  const unknown = cases.filter((name) => !(CASES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`RATIO_CASES: unknown ${unknown.join(", ")} (of ${CASES.join(", ")})`);
  const directory = mkdtempSync(join(tmpdir(), "docsbase-ratio-"));
  const postgres = cases.some((name) => name.startsWith("postgres")) ? await startPostgres() : undefined;
  try {
    for (const read of READS.filter((candidate) => reads.includes(candidate))) {
      for (const name of CASES.filter((candidate) => cases.includes(candidate))) {
        const [storage, limit] = name.split("-") as [StorageName, "on" | "off"];
        await measure(
          mode,
          storage,
          limit === "on",
          read,
          directory,
          storage === "postgres" ? postgres : undefined,
        );
      }
    }
  } finally {
    await postgres?.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

// Run directly: `npx tsx bench/http-ratio.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await benchHttpRatio();
