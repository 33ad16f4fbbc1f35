import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryStorage } from "../src/adapters/memory/index.js";
import {
  createDocsbase,
  defineModule,
  defineOperation,
  isOutboundError,
  operatorOnly,
  scheduleJob,
} from "../src/index.js";
import type { DocsbaseOptions, JobHandler } from "../src/index.js";

/**
 * The outbound-HTTP opt-in: `world.fetch` is guarded by default, and
 * `allowPrivateNetwork` (option, `--allow-private-network`, `DOCSBASE_ALLOW_PRIVATE_NETWORK=1`)
 * lifts the address rule. The guard's own refusals are proved in src/core/net/outbound.test.ts.
 */
let server: Server;
let target: string;
beforeAll(async () => {
  server = createServer((_request, response) => response.end("reached"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * A throwaway module whose job fetches a URL through `world.fetch`, as the OpenAPI and
 * integration jobs will, and reports what happened.
 */
function probeModule(outcomes: string[]) {
  const probeJob: JobHandler = async (world, payload) => {
    try {
      const response = await world.fetch(String(payload["url"]));
      outcomes.push(`${response.status} ${await response.text()}`);
    } catch (error) {
      outcomes.push(isOutboundError(error) ? error.code : String(error));
    }
  };
  const probeUrl = defineOperation({
    id: "probeUrl",
    method: "post",
    path: "/probes",
    tag: "probes",
    summary: "Fetch a URL in the background",
    access: operatorOnly(),
    body: z.object({ url: z.string() }),
    response: z.object({ queued: z.boolean() }),
    async run({ tx, ...world }, { body }) {
      await scheduleJob(tx, world, undefined, "probe.fetch", world.clock(), { url: body.url });
      return { queued: true };
    },
  });
  return defineModule({
    name: "probes",
    tables: [],
    operations: { probeUrl },
    jobs: { "probe.fetch": probeJob },
  });
}

async function probe(url: string, options: Partial<DocsbaseOptions> = {}): Promise<string[]> {
  const outcomes: string[] = [];
  const docsbase = createDocsbase({ storage: memoryStorage(), ...options, modules: [probeModule(outcomes)] });
  const { token } = await docsbase.bootstrap();
  await docsbase.as({ token: token! }).probeUrl({ body: { url } });
  await docsbase.runJobs();
  await docsbase.close();
  return outcomes;
}

describe("createDocsbase outbound HTTP", () => {
  it("refuses 127.0.0.1 by default", async () => {
    expect(await probe(target)).toEqual(["address_refused"]);
  });

  it("reaches 127.0.0.1 with allowPrivateNetwork: true", async () => {
    expect(await probe(target, { allowPrivateNetwork: true })).toEqual(["200 reached"]);
  });

  it("keeps the guard around an injected transport, with the outbound limits", async () => {
    const sent: string[] = [];
    const transport = async (input: string | URL | Request) => {
      sent.push(String(input));
      return new Response("x".repeat(2000));
    };
    expect(await probe(target, { outbound: { transport } })).toEqual(["address_refused"]);
    expect(sent).toEqual([]);
    const options = {
      outbound: { transport, resolveHost: async () => ["93.184.215.14"], maxResponseBytes: 1000 },
    };
    expect(await probe("https://public.test/", options)).toEqual(["too_large"]);
    expect(sent).toEqual(["https://public.test/"]);
  });
});

/** Runs `docsbase serve --memory --port 0` until it listens, and answers what it printed. */
function serve(
  args: string[],
  env: Record<string, string>,
): Promise<{ output: string; code: number | null }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "serve", "--memory", "--port", "0", ...args],
    {
      cwd: join(import.meta.dirname, ".."),
      env: { ...process.env, DOCSBASE_ALLOW_PRIVATE_NETWORK: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  return new Promise((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("docsbase listening on")) child.kill("SIGTERM");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("exit", (code) => resolve({ output, code }));
  });
}

describe("docsbase serve --allow-private-network", () => {
  const NOTICE = "Outbound HTTP may reach loopback and private addresses";

  it("is off by default", async () => {
    const { output } = await serve([], {});
    expect(output).toContain("docsbase listening on");
    expect(output).not.toContain(NOTICE);
  });

  it("is on with the flag", async () => {
    expect((await serve(["--allow-private-network"], {})).output).toContain(NOTICE);
  });

  it.each(["1", "true"])("is on with DOCSBASE_ALLOW_PRIVATE_NETWORK=%s", async (value) => {
    expect((await serve([], { DOCSBASE_ALLOW_PRIVATE_NETWORK: value })).output).toContain(NOTICE);
  });

  it("stays off with DOCSBASE_ALLOW_PRIVATE_NETWORK=0 and refuses other values", async () => {
    expect((await serve([], { DOCSBASE_ALLOW_PRIVATE_NETWORK: "0" })).output).not.toContain(NOTICE);
    const refused = await serve([], { DOCSBASE_ALLOW_PRIVATE_NETWORK: "yes" });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("DOCSBASE_ALLOW_PRIVATE_NETWORK must be 1 or true");
  });
});
