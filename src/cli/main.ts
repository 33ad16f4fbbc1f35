#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isDocsbaseError } from "../core/shared/errors.js";
import { FixtureError, parseFixture, type Fixture } from "../testing/fixture.js";
import { startServer, type ServerTimeouts } from "./serve.js";

const USAGE = `Usage: docsbase serve [--port 8787] [--host 127.0.0.1]
                      [--db ./docsbase.sqlite | --memory | --postgres URL [--pool-size 10]]
                      [--base-url URL] [--allow-private-network]
                      [--trust-proxy HOPS] [--no-rate-limit]
                      [--timeouts headers=20,request=60,idle=30,keep-alive=5]
       docsbase serve --test-double [--fixture fixture.json] [--now ISO-DATE] [--port ...]

Serves the docsbase /v1 API. On an empty database it creates the operator user and prints its
token once; set DOCSBASE_ADMIN_TOKEN to choose the operator's token instead (a start with another
value revokes the previous operator token).
--postgres (or DOCSBASE_DATABASE_URL) stores data in PostgreSQL, which several servers may share
(docs/scaling.md); --pool-size (or DOCSBASE_POOL_SIZE) sets its number of connections.
--allow-private-network (or DOCSBASE_ALLOW_PRIVATE_NETWORK=1) lets outbound HTTP reach loopback
and private addresses, for local development.
DOCSBASE_TRANSLATOR_URL (with DOCSBASE_TRANSLATOR_API_KEY if the server needs one) names a
LibreTranslate-compatible server that translation runs call (docs/translations.md).
--trust-proxy takes client addresses from X-Forwarded-For, written by HOPS proxies in front;
--no-rate-limit turns the rate limits off; --timeouts sets connection timeouts in seconds
(docs/server.md).
--test-double serves a test double instead, always in memory: /v1 plus an admin API under
/_docsbase/ (reset, snapshots, calls, faults, clock, seed) that takes the operator's token;
--fixture loads a JSON fixture at the start, --now starts its clock frozen at that date
(docs/testing.md, "Server mode (any language)").`;

/** Runs the command line; returns the exit code for errors found before serving. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command !== "serve") {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 1;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        port: { type: "string", default: "8787" },
        host: { type: "string", default: "127.0.0.1" },
        db: { type: "string" },
        memory: { type: "boolean", default: false },
        postgres: { type: "string" },
        "pool-size": { type: "string" },
        "base-url": { type: "string" },
        "allow-private-network": { type: "boolean", default: false },
        "trust-proxy": { type: "string" },
        "no-rate-limit": { type: "boolean", default: false },
        timeouts: { type: "string" },
        "test-double": { type: "boolean", default: false },
        fixture: { type: "string" },
        now: { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
    return 1;
  }
  const trustProxy = values["trust-proxy"] === undefined ? 0 : Number(values["trust-proxy"]);
  if (!Number.isInteger(trustProxy) || trustProxy < 0) {
    console.error(`--trust-proxy must be a number of proxies (0 or more), got "${values["trust-proxy"]}"`);
    return 1;
  }
  const timeouts = parseTimeouts(values.timeouts ?? "");
  if (typeof timeouts === "string") {
    console.error(timeouts);
    return 1;
  }
  if (!values["test-double"] && (values.fixture !== undefined || values.now !== undefined)) {
    console.error("--fixture and --now need --test-double");
    return 1;
  }
  const testDouble = values["test-double"] ? readTestDouble(values) : undefined;
  if (typeof testDouble === "string") {
    console.error(testDouble);
    return 1;
  }
  // The test double is in memory whatever the environment says.
  const postgres = testDouble
    ? undefined
    : (values.postgres ?? (process.env["DOCSBASE_DATABASE_URL"] || undefined));
  if (postgres !== undefined && !/^postgres(ql)?:\/\//.test(postgres)) {
    console.error(`--postgres must be a postgres:// or postgresql:// URL`);
    return 1;
  }
  if (postgres !== undefined && values.memory) {
    console.error("--memory and --postgres (or DOCSBASE_DATABASE_URL) cannot be used together");
    return 1;
  }
  const poolText = values["pool-size"] ?? (process.env["DOCSBASE_POOL_SIZE"] || undefined);
  const poolSize = poolText === undefined ? undefined : Number(poolText);
  if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)) {
    console.error(`--pool-size must be an integer from 1 to 1000, got "${poolText}"`);
    return 1;
  }
  if (poolSize !== undefined && postgres === undefined) {
    console.error("--pool-size needs --postgres (or DOCSBASE_DATABASE_URL)");
    return 1;
  }
  const adminToken = process.env["DOCSBASE_ADMIN_TOKEN"] || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    console.error("DOCSBASE_ADMIN_TOKEN must be at least 16 characters long");
    return 1;
  }
  const allowFromEnv = (process.env["DOCSBASE_ALLOW_PRIVATE_NETWORK"] ?? "").toLowerCase();
  if (!["", "0", "false", "1", "true"].includes(allowFromEnv)) {
    console.error("DOCSBASE_ALLOW_PRIVATE_NETWORK must be 1 or true (or 0, false, empty)");
    return 1;
  }
  const allowPrivateNetwork =
    values["allow-private-network"] || allowFromEnv === "1" || allowFromEnv === "true";
  const translatorUrl = process.env["DOCSBASE_TRANSLATOR_URL"] || undefined;
  if (translatorUrl !== undefined && !/^https?:\/\/[^/]/i.test(translatorUrl)) {
    console.error("DOCSBASE_TRANSLATOR_URL must be an http:// or https:// URL");
    return 1;
  }
  const translatorKey = process.env["DOCSBASE_TRANSLATOR_API_KEY"] || undefined;
  const starting = startServer({
    port,
    host: values.host,
    db: values.db ?? "./docsbase.sqlite",
    memory: values.memory,
    ...(postgres !== undefined ? { postgres } : {}),
    ...(poolSize !== undefined ? { poolSize } : {}),
    ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}),
    ...(adminToken ? { adminToken } : {}),
    allowPrivateNetwork,
    ...(translatorUrl
      ? { translator: { url: translatorUrl, ...(translatorKey ? { apiKey: translatorKey } : {}) } }
      : {}),
    trustProxy,
    rateLimit: !values["no-rate-limit"],
    timeouts,
    ...(testDouble ? { testDouble } : {}),
  });
  // Handlers go in before the server announces itself, so a signal right after start is graceful.
  const shutdown = (signal: string) => {
    console.log(`docsbase: ${signal} received, shutting down`);
    // Requests in flight get a grace period; a stuck one does not keep the process alive forever.
    setTimeout(() => process.exit(1), 10_000).unref();
    starting
      .then((server) => server.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("docsbase: shutdown failed", error);
          process.exit(1);
        },
      );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  await starting;
  return 0;
}

/**
 * `--test-double`'s options (`--fixture` read and checked, `--now`), or the message naming what is
 * wrong: a storage flag, or a fixture that cannot be read or is not one.
 */
function readTestDouble(values: {
  db?: string | undefined;
  memory?: boolean | undefined;
  postgres?: string | undefined;
  fixture?: string | undefined;
  now?: string | undefined;
}): { fixture?: Fixture; now?: string } | string {
  const storageFlag =
    values.db !== undefined ? "--db" : values.memory ? "--memory" : values.postgres ? "--postgres" : "";
  if (storageFlag)
    return `--test-double cannot be used with ${storageFlag}: the test double is always in memory`;
  if (values.now !== undefined && !Number.isFinite(Date.parse(values.now)))
    return `--now must be an ISO date such as 2030-01-01T00:00:00Z, got "${values.now}"`;
  let fixture: Fixture | undefined;
  if (values.fixture !== undefined) {
    try {
      fixture = parseFixture(JSON.parse(readFileSync(values.fixture, "utf8")));
    } catch (error) {
      const reason = error instanceof FixtureError ? error.message : (error as Error).message;
      return `--fixture ${values.fixture}: ${reason}`;
    }
  }
  return { ...(fixture ? { fixture } : {}), ...(values.now !== undefined ? { now: values.now } : {}) };
}

const TIMEOUT_NAMES: Record<string, keyof ServerTimeouts> = {
  headers: "headersMs",
  request: "requestMs",
  idle: "idleMs",
  "keep-alive": "keepAliveMs",
};

/** `headers=20,idle=30` (seconds) to startServer's timeouts, or the message naming what is wrong. */
function parseTimeouts(text: string): Partial<ServerTimeouts> | string {
  const timeouts: Partial<Record<keyof ServerTimeouts, number>> = {};
  for (const part of text.split(",").filter(Boolean)) {
    const [name = "", value = ""] = part.split("=");
    const key = Object.hasOwn(TIMEOUT_NAMES, name) ? TIMEOUT_NAMES[name] : undefined;
    const seconds = Number(value);
    if (!key || value.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
      return `--timeouts takes name=seconds pairs (headers, request, idle, keep-alive), got "${part}"`;
    }
    timeouts[key] = Math.round(seconds * 1000);
  }
  return timeouts;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    // A failure docsbase explains (the database cannot be reached) needs no stack trace.
    const explained = isDocsbaseError(error) || error instanceof FixtureError;
    console.error("docsbase:", explained ? error.message : error);
    process.exit(1);
  },
);
