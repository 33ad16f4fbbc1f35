import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { ApiClient, type ServeProcess, type ServeProcesses } from "./serve-process.js";

/**
 * The "noisy neighbour" of docs/security.md ("One organization's load, another's latency"), shared
 * by its test (test/noisy-neighbour.test.ts, which checks what can be counted) and its benchmark
 * (`npm run bench -- noisy-neighbour`, which reports the latencies): on `docsbase serve` over
 * SQLite, organization A does, all at once and at a reduced size, each thing that once froze the
 * server, filled its disk or starved its queue, while organization B reads one request after
 * another and creates a spec of its own.
 */

const OPERATOR = "dbt_noisy_neighbour_operator_token";
/** How long B reads while A's noise runs (A's jobs included). */
const WINDOW_MS = 12_000;
/** How many specs of A wait on a host that never answers. */
export const STUCK_SPECS = 12;

/** What one run saw. */
export interface NoisyNeighbourRun {
  /** B's reads, in order: their status and how long each took. */
  readonly reads: readonly { readonly status: number; readonly ms: number }[];
  /** The noises of A that ended (each either did its work or was refused as documented). */
  readonly noise: readonly string[];
  /** How long after its creation B's spec was seen processed. */
  readonly quietSpecAfterMs: number;
  /** How many of A's stuck specs, all queued before B's spec, had finished when B's was processed. */
  readonly stuckFinishedBeforeQuiet: number;
  /** The most of A's stuck specs seen processing at once while B's spec waited. */
  readonly stuckRunningAtMost: number;
  /** The error code A's YAML alias bomb ended with. */
  readonly aliasesErrorCode: string | undefined;
}

/** A host that accepts connections and never answers: A's stuck specs point at it. */
export async function startHangingHost(): Promise<{ port: number; close(): Promise<void> }> {
  const held = new Set<Socket>();
  const hanging: Server = createServer(() => {});
  hanging.on("connection", (socket) => {
    held.add(socket);
    socket.once("close", () => held.delete(socket));
  });
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  return {
    port: (hanging.address() as AddressInfo).port,
    async close() {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    },
  };
}

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
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newUser(operator: ApiClient, server: ServeProcess, name: string) {
  const user = await operator.send("POST", "/users", { displayName: name, email: `${name}@noisy.test` });
  const token = await operator.send("POST", `/users/${user.body.id}/tokens`, {});
  if (token.status !== 201) throw new Error(`could not create ${name}: ${JSON.stringify(token.body)}`);
  return { api: new ApiClient(server.url, token.body.token as string), token: token.body.token as string };
}

/** Whether `answer` has `status`; throws with its body otherwise (setup steps must not fail). */
function expectStatus(answer: { status: number; body?: unknown }, status: number, what: string) {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/**
 * Starts `docsbase serve` on SQLite in `directory` through `processes`, and runs the scenario on it.
 * `hangingPort`: a host of {@link startHangingHost}.
 */
export async function runNoisyNeighbour(
  processes: ServeProcesses,
  directory: string,
  hangingPort: number,
): Promise<NoisyNeighbourRun> {
  const server: ServeProcess = await processes.start(
    ["--db", join(directory, "noisy.sqlite"), "--allow-private-network"],
    { DOCSBASE_ADMIN_TOKEN: OPERATOR },
  );
  const operator = new ApiClient(server.url, OPERATOR);
  const { api: noisy, token: noisyToken } = await newUser(operator, server, "noisy");
  const { api: quiet } = await newUser(operator, server, "quiet");
  const orgA = (await noisy.send("POST", "/orgs", { title: "Noisy" })).body.id as string;
  const orgB = (await quiet.send("POST", "/orgs", { title: "Quiet" })).body.id as string;
  const spaceA = (await noisy.send("POST", `/orgs/${orgA}/spaces`, { title: "Guide" })).body.id as string;
  const spaceB = (await quiet.send("POST", `/orgs/${orgB}/spaces`, { title: "Guide" })).body.id as string;
  if (![orgA, orgB, spaceA, spaceB].every(Boolean))
    throw new Error("the organizations or spaces were not created");
  const site = await noisy.send("POST", `/orgs/${orgA}/sites`, { title: "Docs", visibility: "public" });
  expectStatus(site, 201, "createSite");
  const siteId = site.body.id as string;
  expectStatus(
    await noisy.send("POST", `/orgs/${orgA}/sites/${siteId}/site-spaces`, { spaceId: spaceA }),
    201,
    "addSpaceToSite",
  );
  expectStatus(await noisy.send("POST", `/orgs/${orgA}/sites/${siteId}/publish`), 200, "publishSite");
  const siteUrl = (await noisy.send("GET", `/orgs/${orgA}/sites/${siteId}`)).body.urls.published as string;
  if (!siteUrl) throw new Error("the site has no published URL");

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
            const lookup = await fetch(`${server.url}/v1/urls/published?url=${encodeURIComponent(siteUrl)}`);
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
        for (let index = 0; index < STUCK_SPECS; index++) {
          await noisy.send("POST", `/orgs/${orgA}/openapi`, {
            slug: `stuck-${index}`,
            source: { url: `http://127.0.0.1:${hangingPort}/spec-${index}.yaml` },
          });
        }
      })(),
    ),
  ];

  // B meanwhile: plain reads, one after the other, and one job of its own once A's are queued.
  const reads: { status: number; ms: number }[] = [];
  const paths = [`/user`, `/orgs/${orgB}`, `/orgs/${orgB}/spaces`, `/spaces/${spaceB}`];
  const measuring = (async () => {
    for (let index = 0; Date.now() < deadline; index++) {
      const started = performance.now();
      const answer = await quiet.send("GET", paths[index % paths.length]!);
      reads.push({ status: answer.status, ms: performance.now() - started });
      await sleep(10);
    }
  })();
  await sleep(1_000);
  const queuedAt = Date.now();
  const spec = await quiet.send("POST", `/orgs/${orgB}/openapi`, {
    slug: "quiet",
    source: { text: `openapi: 3.1.0\ninfo: {title: Quiet, version: "1"}\npaths: {}\n` },
  });
  expectStatus(spec, 201, "B's createOpenAPISpec");
  // Waits as long as it takes (the test's own timeout bounds it), counting A's stuck specs as it
  // goes: how many run at once, and how many had ended when B's was processed.
  const stuckStates = async () => {
    const listed = await noisy.send("GET", `/orgs/${orgA}/openapi?limit=100`);
    const items = listed.body.items as { slug: string; processingState: string }[];
    const stuck = items.filter((item) => item.slug.startsWith("stuck-"));
    return {
      running: stuck.filter((item) => item.processingState === "progress").length,
      finished: stuck.filter((item) => item.processingState === "complete").length,
    };
  };
  let stuckRunningAtMost = 0;
  for (;;) {
    stuckRunningAtMost = Math.max(stuckRunningAtMost, (await stuckStates()).running);
    const current = await quiet.send("GET", `/orgs/${orgB}/openapi/quiet`);
    if (current.body.processingState === "complete") break;
    await sleep(50);
  }
  const quietSpecAfterMs = Date.now() - queuedAt;
  const stuckFinishedBeforeQuiet = (await stuckStates()).finished;

  const ended = await Promise.all(noise);
  await measuring;

  let aliases = await noisy.send("GET", `/orgs/${orgA}/openapi/aliases`);
  while (aliases.body.processingState !== "complete") {
    await sleep(100);
    aliases = await noisy.send("GET", `/orgs/${orgA}/openapi/aliases`);
  }
  return {
    reads,
    noise: ended,
    quietSpecAfterMs,
    stuckFinishedBeforeQuiet,
    stuckRunningAtMost,
    aliasesErrorCode: aliases.body.lastProcessErrorCode as string | undefined,
  };
}
