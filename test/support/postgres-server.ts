import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * A real PostgreSQL server for the tests, from Debian's `postgresql` package (`.ci/run` installs
 * it): `initdb` into a temporary directory, `postgres` on a free port of 127.0.0.1, trust
 * authentication for the `docsbase` superuser, and everything removed on `stop()`. PostgreSQL
 * refuses to run as root, so under root the directory is handed to the `postgres` user (or
 * `nobody`) and both programs run as that user.
 *
 * Durability settings are off (`fsync`, `synchronous_commit`, `full_page_writes`): the tests
 * exercise semantics, not crash safety of the server itself.
 */

export interface PostgresServer {
  /** `postgres://docsbase@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** The directory holding `initdb` and `postgres`: `DOCSBASE_PG_BINDIR`, `pg_config`, or Debian's layout. */
export function postgresBinDir(): string {
  const fromEnv = process.env["DOCSBASE_PG_BINDIR"];
  if (fromEnv) return fromEnv;
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const configured = fromConfig.status === 0 ? fromConfig.stdout.trim() : "";
  if (configured && existsSync(join(configured, "initdb"))) return configured;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(debian, versions[0], "bin");
  throw new Error(
    "PostgreSQL is not installed: no initdb found (install Debian's postgresql package, or set DOCSBASE_PG_BINDIR)",
  );
}

/** uid and gid of an unprivileged account to run PostgreSQL as, when this process is root. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const line = passwd.find((entry) => entry.startsWith(`${name}:`));
    if (!line) continue;
    const [, , uid, gid] = line.split(":");
    return { uid: Number(uid), gid: Number(gid) };
  }
  throw new Error("Running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a fresh server; rejects with PostgreSQL's own output when it cannot. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = unprivileged();
  const directory = mkdtempSync(join(tmpdir(), "docsbase-pg-"));
  const data = join(directory, "data");
  if (user) chownSync(directory, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(
    join(bin, "initdb"),
    ["-D", data, "-U", "docsbase", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
    { encoding: "utf8", cwd: directory, ...as },
  );
  if (init.status !== 0) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}):\n${init.stdout}\n${init.stderr}`);
  }

  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = spawn(
      join(bin, "postgres"),
      [
        ...["-D", data, "-p", String(port), "-k", directory],
        ...["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"],
        ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
        ...["-c", "shared_buffers=64MB", "-c", "max_pred_locks_per_transaction=256"],
      ],
      { cwd: directory, stdio: ["ignore", "ignore", "pipe"], ...as },
    );
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    const url = `postgres://docsbase@127.0.0.1:${port}/postgres`;
    try {
      await waitUntilReady(url, child, () => output);
      return { url, port, stop: () => stop(child, directory) };
    } catch (error) {
      lastError = error;
      await stop(child, undefined);
    }
  }
  rmSync(directory, { recursive: true, force: true });
  throw lastError;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`postgres did not start in 30 s:\n${output()}`, { cause: error });
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Fast shutdown (SIGINT: running transactions are rolled back), then the directory goes. */
async function stop(child: ChildProcess, directory: string | undefined): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (directory) rmSync(directory, { recursive: true, force: true });
}

let databases = 0;

/**
 * A new empty database on the server at `url` (the server's `postgres` database), and its URL.
 * Each test that needs isolation takes one. `icu` gives it a linguistic default collation
 * (ICU's en-US: "a" < "B" < "b"), unlike the server's byte-ordered C.UTF-8.
 */
export async function createDatabase(
  url: string,
  prefix = "t",
  options: { icu?: boolean } = {},
): Promise<string> {
  const name = `${prefix}_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const collation = options.icu
      ? ` LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8' TEMPLATE template0`
      : "";
    await client.query(`CREATE DATABASE "${name}"${collation}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
