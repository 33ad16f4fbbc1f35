import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "tsup";

/**
 * `docsbase serve` as a real child process, for tests that crash and restart the server. Every
 * process started through one {@link ServeProcesses} is killed by its `killAll`, which an
 * `afterAll` calls so that a failing test leaves no server behind.
 */

const root = join(import.meta.dirname, "..", "..");

/** Runs src/cli/main.ts through tsx, as test/cli.test.ts does. */
export const TSX_CLI = ["--import", "tsx", "src/cli/main.ts"] as const;

/**
 * Starts `docsbase serve --port 0 ...args` through tsx; `ready` resolves with its URL once it
 * listens (and with everything it printed so far, as `output()`), or rejects if it exits first.
 */
export function startServe(args: readonly string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...TSX_CLI, "serve", "--port", "0", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<{ url: string; output: () => string }>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /docsbase listening on (\S+)/.exec(output);
      if (match?.[1]) resolve({ url: match[1], output: () => output });
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
  return { child, ready };
}

/** Sends `signal` to a started server and resolves with its exit code. */
export function stopServe(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill(signal);
  });
}

/**
 * Builds src/cli/main.ts as the package build does (tsup, the drivers left external) into one
 * file, for a test that starts the server several times: under tsx each start loads every source
 * module through its loader again (11 to 14 s per start on 2 busy cores, against 2 to 5 s for the
 * built file, which the build makes in about 1 s), and the built file is still the current source.
 * The file goes under node_modules/.cache, where the external packages resolve; `remove` deletes it.
 */
export function buildCli(): Promise<BuiltScript> {
  return bundleScript("src/cli/main.ts", "cli");
}

/** One bundled script, and how to delete it. */
export interface BuiltScript {
  readonly script: string;
  remove(): void;
}

/** Bundles `entry` (relative to the repository) as {@link buildCli} bundles the CLI. */
export async function bundleScript(entry: string, name: string): Promise<BuiltScript> {
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const directory = mkdtempSync(join(root, "node_modules", ".cache", `docsbase-${name}-`));
  try {
    await build({
      config: false,
      entry: { [name]: join(root, entry) },
      outDir: directory,
      // Outside the package's own folder, `.js` would not be read as a module.
      outExtension: () => ({ js: ".mjs" }),
      format: ["esm"],
      target: "es2022",
      external: ["better-sqlite3", "pg"],
      tsconfig: join(root, "tsconfig.build.json"),
      dts: false,
      sourcemap: false,
      splitting: false,
      silent: true,
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    script: join(directory, `${name}.mjs`),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`, once listening. */
  readonly url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code or signal once the process is gone (at once if it already is). */
  readonly exited: Promise<number | NodeJS.Signals>;
}

export class ServeProcesses {
  readonly #running = new Set<ChildProcess>();

  /** `entry`: node's arguments before `serve`, {@link TSX_CLI} or a script of {@link buildCli}. */
  constructor(private readonly entry: readonly string[] = TSX_CLI) {}

  /** Starts `docsbase serve --port 0 ...args` on 127.0.0.1; resolves once it listens. */
  async start(args: readonly string[], env: Record<string, string>): Promise<ServeProcess> {
    const child = spawn(
      process.execPath,
      [...this.entry, "serve", "--host", "127.0.0.1", "--port", "0", ...args],
      {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.#running.add(child);
    let output = "";
    const exited = new Promise<number | NodeJS.Signals>((resolve) =>
      child.once("exit", (code, signal) => {
        this.#running.delete(child);
        resolve(signal ?? code ?? -1);
      }),
    );
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /docsbase listening on (\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      void exited.then((how) =>
        reject(new Error(`docsbase serve ended (${how}) before listening:\n${output}`)),
      );
    });
    return { child, url, output: () => output, exited };
  }

  /** Sends SIGKILL to every process still running and waits until each is gone. */
  async killAll(): Promise<void> {
    await Promise.all(
      [...this.#running].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGKILL");
          }),
      ),
    );
  }
}

/** A JSON answer: the status and the parsed body (undefined when empty). */
export interface Answer {
  readonly status: number;
  readonly body: any;
}

/**
 * A minimal JSON client of the /v1 API with one bearer token. Network failures (a killed server)
 * reject; any HTTP status resolves.
 */
export class ApiClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${this.url}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Every item of a paginated list, following `next.page`; throws on any non-200 answer. */
  async listAll(path: string): Promise<any[]> {
    const items: any[] = [];
    let page: string | undefined;
    for (;;) {
      const separator = path.includes("?") ? "&" : "?";
      const answer = await this.send(
        "GET",
        `${path}${separator}limit=1000${page ? `&page=${encodeURIComponent(page)}` : ""}`,
      );
      if (answer.status !== 200)
        throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      items.push(...(answer.body.items as any[]));
      page = answer.body.next?.page;
      if (!page) return items;
    }
  }
}
