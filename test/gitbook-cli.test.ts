import { execFile, spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithGitbookCli } from "./support/gitbook-cli.js";
import { ApiClient, buildCli, ServeProcesses, type BuiltScript } from "./support/serve-process.js";

/**
 * GitBook's own CLI (`@gitbook/cli`, installed by `npm run gitbook-cli`) against a real
 * `docsbase serve`, pointed at it by `GITBOOK_ENDPOINT` and `GITBOOK_TOKEN` as docs/integrations.md
 * says: each command runs as a child process, and the test checks what it printed and what it
 * stored.
 */

const FIXTURE = join(import.meta.dirname, "fixtures", "gitbook-integration");
const SPEC = join(import.meta.dirname, "fixtures", "gitbook-openapi.yaml");
const ADMIN_TOKEN = "gitbook-cli-test-token-0123456789";
const NAME = "docsbase-cli-check";

describeWithGitbookCli("GitBook's CLI against docsbase serve", (cli) => {
  let built: BuiltScript | undefined;
  let processes = new ServeProcesses();
  let api: ApiClient;
  let endpoint: string;
  let organization: string;
  // The CLI's configuration (`conf`, under XDG_CONFIG_HOME) and its bundles (under TMPDIR) go here.
  const home = mkdtempSync(join(tmpdir(), "docsbase-gitbook-cli-"));
  /** The fixture's copy, with its organization. */
  const integration = join(home, "integration");

  beforeAll(async () => {
    built = await buildCli();
    processes = new ServeProcesses([built.script]);
    const server = await processes.start(["--memory"], { DOCSBASE_ADMIN_TOKEN: ADMIN_TOKEN });
    endpoint = server.url;
    api = new ApiClient(endpoint, ADMIN_TOKEN);
    const created = await api.send("POST", "/orgs", { title: "Acme" });
    expect(created.status).toBe(201);
    organization = created.body.id;
    // The manifest names the organization it is published to, as `gitbook new` writes it.
    cpSync(FIXTURE, integration, { recursive: true });
    appendFileSync(join(integration, "gitbook-manifest.yaml"), `organization: ${organization}\n`);
  });

  afterAll(async () => {
    await processes.killAll();
    built?.remove();
    rmSync(home, { recursive: true, force: true });
  });

  function environment(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      GITBOOK_ENDPOINT: endpoint,
      GITBOOK_TOKEN: ADMIN_TOKEN,
      XDG_CONFIG_HOME: join(home, "config"),
      HOME: home,
      TMPDIR: home,
      NO_COLOR: "1",
    };
  }

  /** Runs `gitbook ...args` in `cwd` to its end. */
  function gitbook(args: string[], cwd = integration) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, ...args],
        { cwd, env: environment(), timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it("gitbook whoami prints the token's user and the endpoint", async () => {
    const { body: user } = await api.send("GET", "/user");
    const answer = await gitbook(["whoami"]);
    expect(answer).toMatchObject({ code: 0, stderr: "" });
    expect(answer.stdout).toContain(`Authenticated as ${user.displayName}`);
    expect(answer.stdout).toContain(`ID: ${user.id}`);
    expect(answer.stdout).toContain(`API: ${endpoint}`);
  });

  it("gitbook publish bundles the integration's script and publishes it, a new version each time", async () => {
    const first = await gitbook(["publish"]);
    expect(first.stderr).toBe("");
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain(`Integration "${NAME}" published`);
    const stored = await api.send("GET", `/integrations/${NAME}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: NAME,
      title: "docsbase CLI check",
      description: "Published by docsbase's tests through GitBook's CLI",
      scopes: ["space:content:read"],
      visibility: "private",
      runtime: "v2",
      owner: { id: organization },
      version: 1,
    });
    expect(first.stdout).toContain(stored.body.urls.app);

    expect(await gitbook(["publish"])).toMatchObject({ code: 0 });
    expect((await api.send("GET", `/integrations/${NAME}`)).body.version).toBe(2);
  });

  it("gitbook publish reports docsbase's refusal of an organization the token cannot publish to", async () => {
    const answer = await gitbook(["publish", "--organization", "no-such-organization"]);
    expect(answer.code).not.toBe(0);
    expect(answer.stdout + answer.stderr).toMatch(/404|not found/i);
  });

  it("gitbook openapi publish stores the spec, which docsbase then processes", async () => {
    const answer = await gitbook([
      "openapi",
      "publish",
      SPEC,
      "--spec",
      "pets",
      "--organization",
      organization,
    ]);
    expect(answer).toMatchObject({ code: 0, stderr: "" });
    const spec = await api.send("GET", `/orgs/${organization}/openapi/pets`);
    expect(spec).toMatchObject({ status: 200, body: { slug: "pets" } });
    expect(answer.stdout).toContain(`OpenAPI specification "pets" published to ${spec.body.urls.app}`);
    // The server's job runner processes it in the background: wait for its first version.
    let latest = await api.send("GET", `/orgs/${organization}/openapi/pets/versions/latest/content`);
    while (latest.status === 404) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      latest = await api.send("GET", `/orgs/${organization}/openapi/pets/versions/latest/content`);
    }
    expect(latest.status).toBe(200);
    expect(JSON.stringify(latest.body)).toContain("List the pets");
  });

  it("gitbook tail prints the integration's events with their trace, and stops on SIGINT", async () => {
    await gitbook(["publish"]);
    const installed = await api.send("POST", `/integrations/${NAME}/installations`, { organization });
    expect(installed.status).toBe(201);

    const child = spawn(process.execPath, [cli, "tail"], { cwd: integration, env: environment() });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // It prints the events it finds at once, then waits 10 s before asking again.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("[info] No receiver was set")) resolve();
      });
      void exited.then((code) => reject(new Error(`gitbook tail ended (${code}):\n${output}`)));
    });
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output).toContain(
      `{"eventId":"${/"eventId":"([^"]+)"/.exec(output)?.[1]}","type":"installation_setup","installationId":"${installed.body.id}","status":"active"}`,
    );
    expect(output).toMatch(/^\[success\]\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /m);
    expect(output).toContain("[info] Event installation_setup recorded");
  });
});
