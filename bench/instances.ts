/**
 * HTTP throughput of `docsbase serve` as separate processes: one SQLite instance, one PostgreSQL
 * instance, and three PostgreSQL instances sharing one database, each driven by autocannon with a
 * read workload and a write workload. Part of `npm run bench` (bench/run.ts).
 */
import autocannon from "autocannon";
import { join } from "node:path";
import pg from "pg";
import { createDatabase } from "../test/support/postgres-server.js";
import { buildCli, ServeProcesses } from "../test/support/serve-process.js";

const ADMIN_TOKEN = "dbt_bench_operator_token";
/** A multiple of 3, so that three instances get the same number of connections each. */
const CONNECTIONS = 60;
const DURATION_S = 8;
/** Spaces of the spread write workload, taken in turn: as many as connections. */
const SPACES = CONNECTIONS;

export interface InstancesOptions {
  /** The PostgreSQL server's URL (its `postgres` database); each setup gets a database of its own. */
  readonly postgresUrl: string;
  /** A directory for the SQLite file. */
  readonly directory: string;
}

export async function benchInstances({ postgresUrl, directory }: InstancesOptions): Promise<void> {
  const cli = await buildCli();
  const processes = new ServeProcesses(["--no-warnings", cli.script]);
  try {
    const setups: { label: string; args: () => Promise<string[]>; count: number }[] = [
      { label: "sqlite x1", args: async () => ["--db", join(directory, "serve.sqlite")], count: 1 },
      {
        label: "postgres x1",
        args: async () => ["--postgres", await createDatabase(postgresUrl, "bench")],
        count: 1,
      },
      {
        label: "postgres x3",
        args: async () => ["--postgres", await createDatabase(postgresUrl, "bench")],
        count: 3,
      },
    ];
    for (const setup of setups) {
      const args = [...(await setup.args()), "--no-rate-limit"];
      const env = { DOCSBASE_ADMIN_TOKEN: ADMIN_TOKEN };
      // The first instance creates the schema alone; the others start on it together.
      const first = await processes.start(args, env);
      const others = await Promise.all(
        Array.from({ length: setup.count - 1 }, () => processes.start(args, env)),
      );
      const urls = [first, ...others].map((instance) => instance.url);
      const { token, spaces } = await seed(urls[0]!);
      const space = spaces[0]!;
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const comment = JSON.stringify({ body: { markdown: "A comment from the benchmark." } });
      await drive(`${setup.label}: GET /v1/spaces/{id}`, {
        url: urls.map((url) => `${url}/v1/spaces/${space}`),
        headers,
      });
      await drive(`${setup.label}: POST /v1/spaces/{id}/comments`, {
        url: urls.map((url) => `${url}/v1/spaces/${space}/comments`),
        method: "POST",
        headers,
        body: comment,
      });
      // The same comments spread over many spaces, so that concurrent writes rarely share a space's
      // counters: against the single-space run, this tells contention from raw throughput.
      let next = 0;
      await drive(`${setup.label}: POST .../comments, ${spaces.length} spaces`, {
        url: urls.map((url) => `${url}/v1/spaces/${space}/comments`),
        headers,
        requests: [
          {
            method: "POST",
            body: comment,
            setupRequest: (request) => ({
              ...request,
              path: `/v1/spaces/${spaces[next++ % spaces.length]}/comments`,
            }),
          },
        ],
      });
      await processes.killAll();
      const database = args.includes("--postgres") ? args[args.indexOf("--postgres") + 1] : undefined;
      if (database) await reportTransactions(setup.label, postgresUrl, new URL(database).pathname.slice(1));
    }
  } finally {
    await processes.killAll();
    cli.remove();
  }
}

/** Through the API as the operator: a user with a token, who owns an organization and its spaces. */
async function seed(url: string): Promise<{ token: string; spaces: string[] }> {
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as { id: string; token: string };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const user = await call(ADMIN_TOKEN, "POST", "/users", {
    displayName: "Bench",
    email: "bench@example.com",
  });
  const { token } = await call(ADMIN_TOKEN, "POST", `/users/${user.id}/tokens`, { label: "bench" });
  const org = await call(token, "POST", "/orgs", { title: "Bench" });
  const spaces: string[] = [];
  for (let i = 0; i < SPACES; i++)
    spaces.push((await call(token, "POST", `/orgs/${org.id}/spaces`, { title: `Bench ${i}` })).id);
  return { token, spaces };
}

/** Runs autocannon (connections spread evenly over the URLs) and prints one line. */
async function drive(label: string, options: Omit<autocannon.Options, "url"> & { url: string[] }) {
  const result = await autocannon({
    ...options,
    // autocannon takes several URLs and spreads its connections over them round-robin (its
    // README, "url"); @types/autocannon declares a single string only.
    url: options.url as unknown as string,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  const failed = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, { count }]) => `${count} x ${status}`);
  console.log(
    `${label} (-c ${CONNECTIONS} -d ${DURATION_S})`.padEnd(64),
    `${Math.round(result.requests.average).toLocaleString("en").padStart(7)} req/s,`,
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms,`,
    `2xx ${result["2xx"]}, non-2xx ${result.non2xx}${failed.length ? ` (${failed.join(", ")})` : ""},`,
    `errors ${result.errors}, timeouts ${result.timeouts}`,
  );
}

/**
 * The database's committed and rolled-back transactions, from PostgreSQL's statistics, once the
 * instances' connections are gone (a backend reports its counts when it exits). Reads commit, so
 * when the runs answered only 2xx (and 503) the rollbacks are write attempts refused for
 * serialization or deadlock: each was run again, or answered 503 after the last attempt.
 */
async function reportTransactions(label: string, serverUrl: string, database: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
        [database],
      );
      if (rows[0].n === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows } = await client.query(
      "SELECT xact_commit::int AS committed, xact_rollback::int AS rolledback FROM pg_stat_database WHERE datname = $1",
      [database],
    );
    console.log(
      `${label}: transactions over all runs: ${rows[0].committed} committed, ${rows[0].rolledback} rolled back`,
    );
  } finally {
    await client.end();
  }
}
