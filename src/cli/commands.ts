import { readFileSync } from "node:fs";
import { MIN_OPERATOR_TOKEN_LENGTH } from "../core/users/bootstrap.js";
import { corsOriginsOf } from "../http/cors.js";
import { FixtureError, parseFixture, type Fixture } from "../testing/fixture.js";
import { ADMIN_COMMANDS, runAdminCommand } from "./admin.js";
import {
  type CliIo,
  type CliOption,
  commandHelp,
  type CommandSpec,
  DEFAULT_DB,
  type OptionValues,
  packageVersion,
  parseOptions,
  postgresUrlError,
  shortSummary,
  stringOption,
} from "./help.js";
import { startServer, type ServerTimeouts } from "./serve.js";

const option = (spec: CliOption) => spec;
const BASE_URL = option({
  name: "base-url",
  type: "string",
  value: "URL",
  env: "DOCSBASE_BASE_URL",
  default: "http://<host>:<port>",
  text:
    "Public base of API URLs in answers, without /v1; sites without a hostname of their own are " +
    "published under <URL>/sites/<name>/.",
});
const APP_URL = option({
  name: "app-url",
  type: "string",
  value: "URL",
  env: "DOCSBASE_APP_URL",
  default: "the base URL",
  text: "Base of application URLs (urls.app) in answers.",
});
const PUBLISHED_URL = option({
  name: "published-url",
  type: "string",
  value: "URL",
  env: "DOCSBASE_PUBLISHED_URL",
  default: "none",
  text:
    "Where a renderer serves the sites (GitBook's: http://localhost:3000/url/): published URLs in " +
    "answers become <URL><site URL without its scheme>.",
});
const DOWNLOAD_URL = option({
  name: "download-url",
  type: "string",
  value: "URL",
  env: "DOCSBASE_DOWNLOAD_URL",
  default: "the base URL",
  text: "Base of download URLs (files, PDF exports): an origin of their own, routed to this server.",
});
const CORS_ORIGINS = option({
  name: "cors-origins",
  type: "string",
  value: "LIST",
  env: "DOCSBASE_CORS_ORIGINS",
  default: "none",
  text:
    "Origins whose pages may call the API from a browser (CORS), comma-separated " +
    "(https://app.example.com,http://localhost:5173), or * for any.",
});
const POSTGRES = option({
  name: "postgres",
  type: "string",
  value: "URL",
  env: "DOCSBASE_DATABASE_URL",
  text: "Store data in PostgreSQL (postgres:// or postgresql://), which several servers may share.",
});
const POOL_SIZE = option({
  name: "pool-size",
  type: "string",
  value: "N",
  env: "DOCSBASE_POOL_SIZE",
  default: "10",
  text: "Connections in the PostgreSQL pool, 1 to 1000; needs --postgres.",
});
const ALLOW_PRIVATE = option({
  name: "allow-private-network",
  type: "boolean",
  env: "DOCSBASE_ALLOW_PRIVATE_NETWORK=1",
  text: "Let outbound HTTP reach loopback and private addresses, for local development.",
});

const SERVE: CommandSpec = {
  name: "serve",
  usage: [
    "[--port 8787] [--host 127.0.0.1] [--db FILE | --memory | --postgres URL [--pool-size N]]",
    "  [--base-url URL] [--app-url URL] [--download-url URL] [--allow-private-network]",
    "  [--trust-proxy HOPS] [--no-rate-limit] [--timeouts headers=20,request=60,idle=30,keep-alive=5]",
    "--test-double [--fixture FILE] [--now ISO-DATE] [--port 8787] [--host 127.0.0.1]",
  ],
  summary:
    "Serves the docsbase /v1 API. On an empty database it creates the operator user and prints its\n" +
    "token once.",
  options: [
    {
      name: "port",
      type: "string",
      value: "PORT",
      default: "8787",
      text: "Port to listen on (0: any free port).",
    },
    { name: "host", type: "string", value: "HOST", default: "127.0.0.1", text: "Address to listen on." },
    {
      name: "db",
      type: "string",
      value: "FILE",
      default: DEFAULT_DB,
      text: "SQLite file (WAL mode).",
    },
    { name: "memory", type: "boolean", text: "Keep data in memory only: nothing survives a restart." },
    POSTGRES,
    POOL_SIZE,
    BASE_URL,
    APP_URL,
    PUBLISHED_URL,
    DOWNLOAD_URL,
    CORS_ORIGINS,
    ALLOW_PRIVATE,
    {
      name: "trust-proxy",
      type: "string",
      value: "HOPS",
      default: "0",
      text: "Take client addresses from X-Forwarded-For, written by HOPS proxies in front.",
    },
    { name: "no-rate-limit", type: "boolean", text: "Turn the rate limits off." },
    {
      name: "timeouts",
      type: "string",
      value: "LIST",
      default: "headers=20,request=60,idle=30,keep-alive=5",
      text: "Connection timeouts in seconds, as name=seconds pairs (0 turns one off).",
    },
    {
      name: "test-double",
      type: "boolean",
      text: "Serve a test double instead, always in memory: /v1 plus an admin API under /_docsbase/.",
    },
    {
      name: "fixture",
      type: "string",
      value: "FILE",
      text: "JSON fixture the test double loads at the start.",
    },
    {
      name: "now",
      type: "string",
      value: "ISO-DATE",
      text: "Start the test double's clock frozen at this date.",
    },
  ],
  notes: [
    "Environment:",
    "  DOCSBASE_ADMIN_TOKEN         The operator's token (16 characters or more), registered on every",
    "                               start; a start with another value revokes the previous one.",
    "  DOCSBASE_TRANSLATOR_URL      A LibreTranslate-compatible server that translation runs call,",
    "  DOCSBASE_TRANSLATOR_API_KEY  with its API key if it needs one.",
    "",
    'See docs/server.md (and docs/testing.md, "Server mode", for --test-double).',
  ].join("\n"),
};

const COMMANDS: readonly CommandSpec[] = [SERVE, ...ADMIN_COMMANDS];

/** `docsbase`, `docsbase --help`. */
function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 2;
  return [
    "Usage: docsbase <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}${shortSummary(command)}`),
    `  ${"version".padEnd(width)}Print docsbase's version (also --version, -v).`,
    `  ${"help".padEnd(width)}Print this help, or a command's (docsbase help serve).`,
    "",
    "Every command takes --help (-h).",
  ].join("\n");
}

const CONSOLE_IO: CliIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

/**
 * Runs the command line; returns the exit code (for `serve`, once it is listening: it then runs
 * until a signal stops it).
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = CONSOLE_IO,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.err(mainHelp());
    return 1;
  }
  if (first === "--help" || first === "-h") {
    io.out(mainHelp());
    return 0;
  }
  if (first === "version" || first === "--version" || first === "-v") {
    io.out(packageVersion());
    return 0;
  }
  if (first === "help") {
    const named = rest.join(" ");
    const spec = COMMANDS.find((command) => command.name === named);
    if (named && !spec) {
      io.err(`Unknown command "${named}".\nTry 'docsbase --help'.`);
      return 1;
    }
    io.out(spec ? commandHelp(spec) : mainHelp());
    return 0;
  }
  // `users create`: the longest command name the arguments start with.
  const spec = COMMANDS.find((command) => {
    const words = command.name.split(" ");
    return words.every((word, index) => argv[index] === word);
  });
  if (!spec) {
    const group = COMMANDS.filter((command) => command.name.startsWith(`${first} `));
    if (group.length > 0 && (rest.length === 0 || rest[0] === "--help" || rest[0] === "-h")) {
      const text = [
        `Usage: docsbase ${first} <${group.map((command) => command.name.split(" ")[1]).join("|")}> [options]`,
        "",
        ...group.map((command) => `  ${command.name.padEnd(15)}${shortSummary(command)}`),
      ].join("\n");
      if (rest.length === 0) {
        io.err(text);
        return 1;
      }
      io.out(text);
      return 0;
    }
    const what = group.length > 0 ? `${first} ${rest[0]}` : first;
    io.err(`Unknown command "${what}".\nTry 'docsbase --help'.`);
    return 1;
  }
  const values = parseOptions(spec, argv.slice(spec.name.split(" ").length));
  if (typeof values === "string") {
    io.err(values);
    return 1;
  }
  if (values["help"]) {
    io.out(commandHelp(spec));
    return 0;
  }
  if (spec !== SERVE) return runAdminCommand(spec, values, { io, env });
  return serve(values, io, env);
}

/** `docsbase serve`: checks its options, starts the server and stops it on SIGINT or SIGTERM. */
async function serve(
  values: OptionValues,
  io: CliIo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const fail = (message: string) => {
    io.err(message);
    return 1;
  };
  const flags = {
    port: typeof values["port"] === "string" ? values["port"] : "8787",
    host: typeof values["host"] === "string" ? values["host"] : "127.0.0.1",
    db: values["db"] as string | undefined,
    memory: values["memory"] === true,
    postgres: values["postgres"] as string | undefined,
    "pool-size": values["pool-size"] as string | undefined,
    "allow-private-network": values["allow-private-network"] === true,
    "trust-proxy": values["trust-proxy"] as string | undefined,
    "no-rate-limit": values["no-rate-limit"] === true,
    timeouts: values["timeouts"] as string | undefined,
    "test-double": values["test-double"] === true,
    fixture: values["fixture"] as string | undefined,
    now: values["now"] as string | undefined,
  };
  const urls: Partial<Record<"baseUrl" | "appUrl" | "publishedUrl" | "downloadBaseUrl", string>> = {};
  for (const [key, spec] of [
    ["baseUrl", BASE_URL],
    ["appUrl", APP_URL],
    ["publishedUrl", PUBLISHED_URL],
    ["downloadBaseUrl", DOWNLOAD_URL],
  ] as const) {
    const url = stringOption(values, spec, env);
    if (url === undefined) continue;
    if (!isHttpBase(url))
      return fail(`--${spec.name} (or ${spec.env}) must be an http:// or https:// URL, got "${url}"`);
    urls[key] = url;
  }
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return fail(`--port must be an integer from 0 to 65535, got "${flags.port}"`);
  }
  const trustProxy = flags["trust-proxy"] === undefined ? 0 : Number(flags["trust-proxy"]);
  if (!Number.isInteger(trustProxy) || trustProxy < 0) {
    return fail(`--trust-proxy must be a number of proxies (0 or more), got "${flags["trust-proxy"]}"`);
  }
  const timeouts = parseTimeouts(flags.timeouts ?? "");
  if (typeof timeouts === "string") {
    return fail(timeouts);
  }
  if (!flags["test-double"] && (flags.fixture !== undefined || flags.now !== undefined)) {
    return fail("--fixture and --now need --test-double");
  }
  const testDouble = flags["test-double"] ? readTestDouble(flags) : undefined;
  if (typeof testDouble === "string") {
    return fail(testDouble);
  }
  // The test double is in memory whatever the environment says.
  const postgres = testDouble ? undefined : (flags.postgres ?? (env["DOCSBASE_DATABASE_URL"] || undefined));
  const postgresRefused = postgres === undefined ? undefined : postgresUrlError(postgres);
  if (postgresRefused !== undefined) {
    return fail(postgresRefused);
  }
  if (postgres !== undefined && flags.memory) {
    return fail("--memory and --postgres (or DOCSBASE_DATABASE_URL) cannot be used together");
  }
  const poolText = flags["pool-size"] ?? (env["DOCSBASE_POOL_SIZE"] || undefined);
  const poolSize = poolText === undefined ? undefined : Number(poolText);
  if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)) {
    return fail(`--pool-size must be an integer from 1 to 1000, got "${poolText}"`);
  }
  if (poolSize !== undefined && postgres === undefined) {
    return fail("--pool-size needs --postgres (or DOCSBASE_DATABASE_URL)");
  }
  const adminToken = env["DOCSBASE_ADMIN_TOKEN"] || undefined;
  if (adminToken !== undefined && adminToken.length < MIN_OPERATOR_TOKEN_LENGTH) {
    return fail(`DOCSBASE_ADMIN_TOKEN must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters long`);
  }
  const allowFromEnv = (env["DOCSBASE_ALLOW_PRIVATE_NETWORK"] ?? "").toLowerCase();
  if (!["", "0", "false", "1", "true"].includes(allowFromEnv)) {
    return fail("DOCSBASE_ALLOW_PRIVATE_NETWORK must be 1 or true (or 0, false, empty)");
  }
  const allowPrivateNetwork =
    flags["allow-private-network"] || allowFromEnv === "1" || allowFromEnv === "true";
  const translatorUrl = env["DOCSBASE_TRANSLATOR_URL"] || undefined;
  if (translatorUrl !== undefined && !/^https?:\/\/[^/]/i.test(translatorUrl)) {
    return fail("DOCSBASE_TRANSLATOR_URL must be an http:// or https:// URL");
  }
  const translatorKey = env["DOCSBASE_TRANSLATOR_API_KEY"] || undefined;
  const corsText = stringOption(values, CORS_ORIGINS, env);
  const corsOrigins = corsText?.split(",").map((origin) => origin.trim());
  try {
    if (corsOrigins) corsOriginsOf(corsOrigins);
  } catch {
    return fail(
      `--cors-origins (or DOCSBASE_CORS_ORIGINS) must list origins such as https://app.example.com, or *, got "${corsText}"`,
    );
  }
  const starting = startServer({
    port,
    host: flags.host,
    db: flags.db ?? DEFAULT_DB,
    memory: flags.memory,
    ...(postgres !== undefined ? { postgres } : {}),
    ...(poolSize !== undefined ? { poolSize } : {}),
    ...urls,
    ...(adminToken ? { adminToken } : {}),
    allowPrivateNetwork,
    ...(translatorUrl
      ? { translator: { url: translatorUrl, ...(translatorKey ? { apiKey: translatorKey } : {}) } }
      : {}),
    trustProxy,
    rateLimit: !flags["no-rate-limit"],
    timeouts,
    ...(corsOrigins ? { corsOrigins } : {}),
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
function readTestDouble(flags: {
  db?: string | undefined;
  memory?: boolean | undefined;
  postgres?: string | undefined;
  fixture?: string | undefined;
  now?: string | undefined;
}): { fixture?: Fixture; now?: string } | string {
  const storageFlag =
    flags.db !== undefined ? "--db" : flags.memory ? "--memory" : flags.postgres ? "--postgres" : "";
  if (storageFlag)
    return `--test-double cannot be used with ${storageFlag}: the test double is always in memory`;
  if (flags.now !== undefined && !Number.isFinite(Date.parse(flags.now)))
    return `--now must be an ISO date such as 2030-01-01T00:00:00Z, got "${flags.now}"`;
  let fixture: Fixture | undefined;
  if (flags.fixture !== undefined) {
    try {
      fixture = parseFixture(JSON.parse(readFileSync(flags.fixture, "utf8")));
    } catch (error) {
      const reason = error instanceof FixtureError ? error.message : (error as Error).message;
      return `--fixture ${flags.fixture}: ${reason}`;
    }
  }
  return { ...(fixture ? { fixture } : {}), ...(flags.now !== undefined ? { now: flags.now } : {}) };
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

/** An absolute http(s) URL that can serve as a base (no query or fragment). */
function isHttpBase(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash;
  } catch {
    return false;
  }
}
