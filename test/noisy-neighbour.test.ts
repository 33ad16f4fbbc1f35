import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, buildCli, ServeProcesses, type ServeProcess } from "./support/serve-process.js";

/**
 * The "noisy neighbour" of docs/security.md: on `docsbase serve` over SQLite, one organization
 * (A) does, all at once and at a reduced size, each thing that once froze the server, filled its
 * disk or starved its queue, while another organization (B) goes about its business. B's requests
 * keep a p99 under 200 ms and B's job starts within 5 s. A's work is checked to have been done (or
 * refused) too, so that a noise that silently failed cannot make the test pass.
 *
 * The two figures are the bounds, far above what B sees on an idle server (a few ms): they
 * hold on a machine busy with other test files, and fail when A's work holds the server for whole
 * seconds, as each of the six did.
 */

const OPERATOR = "dbt_noisy_neighbour_operator_token";
/** How long B measures while A's noise runs (A's jobs included). */
const WINDOW_MS = 12_000;
const P99_BOUND_MS = 200;
const JOB_START_BOUND_MS = 5_000;

let cli: Awaited<ReturnType<typeof buildCli>> | undefined;
let processes = new ServeProcesses();
let hanging: Server;
const held = new Set<Socket>();
const directory = mkdtempSync(join(tmpdir(), "docsbase-noisy-"));

beforeAll(async () => {
  cli = await buildCli();
  processes = new ServeProcesses([cli.script]);
  // A host that accepts connections and never answers: A's specs point at it.
  hanging = createServer(() => {});
  hanging.on("connection", (socket) => {
    held.add(socket);
    socket.once("close", () => held.delete(socket));
  });
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await processes.killAll();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => hanging.close(resolve));
  cli?.remove();
  rmSync(directory, { recursive: true, force: true });
});

/** A seeded generator of pseudo-random words, so that every run sends the same text. */
function words(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return (count: number) =>
    Array.from({ length: count }, () =>
      Array.from({ length: 3 + Math.floor(next() * 8) }, () =>
        String.fromCharCode(97 + Math.floor(next() * 26)),
      ).join(""),
    ).join(" ");
}

/** The `q` quantile (0 to 1) of `values`, by the nearest-rank method. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newUser(operator: ApiClient, server: ServeProcess, name: string) {
  const user = await operator.send("POST", "/users", { displayName: name, email: `${name}@noisy.test` });
  expect(user.status).toBe(201);
  const token = await operator.send("POST", `/users/${user.body.id}/tokens`, {});
  expect(token.status).toBe(201);
  return { api: new ApiClient(server.url, token.body.token as string), token: token.body.token as string };
}

describe("a noisy neighbour on docsbase serve (SQLite)", () => {
  it("leaves another organization's requests under 200 ms at p99, and its job starting within 5 s", async () => {
    const server = await processes.start(
      ["--db", join(directory, "noisy.sqlite"), "--allow-private-network"],
      {
        DOCSBASE_ADMIN_TOKEN: OPERATOR,
      },
    );
    const operator = new ApiClient(server.url, OPERATOR);
    const { api: noisy, token: noisyToken } = await newUser(operator, server, "noisy");
    const { api: quiet } = await newUser(operator, server, "quiet");
    const orgA = (await noisy.send("POST", "/orgs", { title: "Noisy" })).body.id as string;
    const orgB = (await quiet.send("POST", "/orgs", { title: "Quiet" })).body.id as string;
    const spaceA = (await noisy.send("POST", `/orgs/${orgA}/spaces`, { title: "Guide" })).body.id as string;
    const spaceB = (await quiet.send("POST", `/orgs/${orgB}/spaces`, { title: "Guide" })).body.id as string;
    expect([orgA, orgB, spaceA, spaceB].every(Boolean)).toBe(true);
    const site = await noisy.send("POST", `/orgs/${orgA}/sites`, { title: "Docs", visibility: "public" });
    expect(site.status).toBe(201);
    const siteId = site.body.id as string;
    expect(
      (await noisy.send("POST", `/orgs/${orgA}/sites/${siteId}/site-spaces`, { spaceId: spaceA })).status,
    ).toBe(201);
    expect((await noisy.send("POST", `/orgs/${orgA}/sites/${siteId}/publish`)).status).toBe(200);
    const siteUrl = (await noisy.send("GET", `/orgs/${orgA}/sites/${siteId}`)).body.urls.published as string;
    expect(siteUrl).toBeTruthy();

    const deadline = Date.now() + WINDOW_MS;
    const during = async (work: () => Promise<unknown>) => {
      while (Date.now() < deadline) await work();
    };
    const say = words(28);
    const noiseOf = (name: string, start: () => Promise<unknown>) =>
      start().then(
        () => name,
        (error: unknown) => {
          throw new Error(`noise "${name}" failed: ${String(error)}`);
        },
      );

    const noise = [
      // 1. A YAML alias bomb: about 100 KiB of text standing for about 10 MiB once resolved.
      noiseOf("aliases", () =>
        noisy.send("POST", `/orgs/${orgA}/openapi`, {
          slug: "aliases",
          source: {
            text:
              `openapi: 3.1.0\ninfo: {title: Bomb, version: "1"}\npaths: {}\n` +
              `x-anchor: &big "${"a".repeat(110 * 1024)}"\nx-aliases:\n${"  - *big\n".repeat(99)}`,
          },
        }),
      ),
      // 2. Conversations of random words, analysed in the background.
      noiseOf("conversations", () =>
        noisy.send(
          "POST",
          `/orgs/${orgA}/conversations`,
          Array.from({ length: 30 }, (_, index) => ({
            id: `random-${index}`,
            subject: say(8),
            parts: Array.from({ length: 4 }, () => ({ type: "message", role: "user", body: say(1_500) })),
          })),
        ),
      ),
      // 3. Public integrations with large fields, and a list every user reads, read in a loop.
      noiseOf("integrations", () =>
        (async () => {
          for (let index = 0; index < 5; index++) {
            await noisy.send("POST", `/integrations/noisy-${index}`, {
              organization: orgA,
              title: `Noisy ${index}`,
              description: "Large fields",
              script: `export default ${JSON.stringify("x".repeat(200_000))}`,
              scopes: [],
              visibility: "public",
              icon: "A".repeat(300_000),
              previewImages: ["A".repeat(300_000), "A".repeat(300_000)],
            });
          }
          await Promise.all([
            during(() => noisy.send("GET", "/integrations")),
            during(() => noisy.send("GET", "/integrations")),
          ]);
        })(),
      ),
      // 4. Lookups without a token, as fast as they come back, each reader token used at once.
      noiseOf("lookups", () =>
        Promise.all(
          Array.from({ length: 4 }, () =>
            during(async () => {
              const lookup = await fetch(
                `${server.url}/v1/urls/published?url=${encodeURIComponent(siteUrl)}`,
              );
              const answer = (await lookup.json()) as { apiToken?: string; space?: string };
              if (answer.apiToken) {
                await new ApiClient(server.url, answer.apiToken).send("GET", `/spaces/${spaceA}`);
              }
            }),
          ),
        ),
      ),
      // 5. Deeply nested bodies and documents.
      noiseOf("deep", () =>
        (async () => {
          const deep = (levels: number) => '{"a":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
          for (let round = 0; round < 3; round++) {
            await fetch(`${server.url}/v1/orgs/${orgA}/agent-instructions`, {
              method: "PUT",
              headers: { authorization: `Bearer ${noisyToken}`, "content-type": "application/json" },
              body: `{"instructions":${deep(3_000)}}`,
            });
            await noisy.send("POST", `/orgs/${orgA}/openapi`, {
              slug: `deep-${round}`,
              source: {
                text: `{"openapi":"3.1.0","info":{"title":"Deep","version":"1"},"paths":{},"x":${"[".repeat(3_000)}${"]".repeat(3_000)}}`,
              },
            });
          }
        })(),
      ),
      // 6. Specs whose source never answers.
      noiseOf("stuck specs", () =>
        (async () => {
          const { port } = hanging.address() as AddressInfo;
          for (let index = 0; index < 12; index++) {
            await noisy.send("POST", `/orgs/${orgA}/openapi`, {
              slug: `stuck-${index}`,
              source: { url: `http://127.0.0.1:${port}/spec-${index}.yaml` },
            });
          }
        })(),
      ),
    ];

    // B meanwhile: plain reads, one after the other, and one job of its own once A's are queued.
    const latencies: number[] = [];
    const reads = [`/user`, `/orgs/${orgB}`, `/orgs/${orgB}/spaces`, `/spaces/${spaceB}`];
    const measuring = (async () => {
      for (let index = 0; Date.now() < deadline; index++) {
        const started = performance.now();
        const answer = await quiet.send("GET", reads[index % reads.length]!);
        latencies.push(performance.now() - started);
        expect(answer.status).toBe(200);
        await sleep(10);
      }
    })();
    await sleep(1_000);
    const queuedAt = Date.now();
    const spec = await quiet.send("POST", `/orgs/${orgB}/openapi`, {
      slug: "quiet",
      source: { text: `openapi: 3.1.0\ninfo: {title: Quiet, version: "1"}\npaths: {}\n` },
    });
    expect(spec.status).toBe(201);
    let processedAfter: number | undefined;
    while (processedAfter === undefined && Date.now() < queuedAt + 30_000) {
      const current = await quiet.send("GET", `/orgs/${orgB}/openapi/quiet`);
      if (current.body.processingState === "complete") processedAfter = Date.now() - queuedAt;
      else await sleep(50);
    }

    expect(await Promise.all(noise)).toHaveLength(6);
    await measuring;

    // A's work was done, or refused, as docs/security.md says.
    let aliases = await noisy.send("GET", `/orgs/${orgA}/openapi/aliases`);
    for (let wait = 0; aliases.body.processingState !== "complete" && wait < 200; wait++) {
      await sleep(100);
      aliases = await noisy.send("GET", `/orgs/${orgA}/openapi/aliases`);
    }
    expect(aliases.body.lastProcessErrorCode).toBe("PARSE_ERROR");

    const figures = `B's reads: ${latencies.length}, p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms; B's spec processed after ${processedAfter} ms`;
    expect(processedAfter, figures).toBeDefined();
    expect(processedAfter!, figures).toBeLessThan(JOB_START_BOUND_MS);
    expect(latencies.length, figures).toBeGreaterThan(50);
    expect(quantile(latencies, 0.99), figures).toBeLessThan(P99_BOUND_MS);
  }, 120_000);
});
