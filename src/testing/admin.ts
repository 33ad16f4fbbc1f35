import * as z from "zod";
import { badRequest, forbidden, isDocsbaseError, notFound, unauthorized } from "../core/shared/errors.js";
import { STATUS_OF } from "../http/status.js";
import type { TestDocsbase } from "./double.js";
import type { Fault, FaultOptions } from "./faults.js";
import { FixtureError, parseFixture, pathText } from "./fixture.js";
import type { CallFilter } from "./journal.js";
import type { TestSnapshot } from "./snapshots.js";

/** Where the admin API is mounted: beside `/v1`, on the same host. */
export const ADMIN_PREFIX = "/_docsbase/";

/**
 * The fetch handler of a test double served over HTTP, for tests written in any language: the
 * admin API under `/_docsbase/` (operator token only; see docs/testing.md, "Server mode (any
 * language)"), and every other request to the double's own `fetch`, so that `/v1` calls are
 * journaled and faulted. A fault with `networkError` makes the handler reject with the double's
 * `TypeError`: a host drops the connection (`docsbase serve --test-double` destroys the socket).
 *
 * @example
 * ```ts
 * const test = await createTestDocsbase({ fixture });
 * Bun.serve({ fetch: testDoubleHandler(test) }); // or Deno.serve, or any fetch-standard host
 * ```
 */
export function testDoubleHandler(test: TestDocsbase): (request: Request) => Promise<Response> {
  const snapshots = new Map<string, TestSnapshot>();
  const faults = new Map<string, { fault: Fault; options: FaultOptions }>();
  let made = 0;
  const nextId = (kind: string) => `${kind}-${++made}`;
  const faultOf = (id: string) => {
    const found = faults.get(id);
    if (!found) throw notFound(`No fault "${id}" (it was removed, or reset removed every fault)`);
    return found;
  };
  const described = (id: string, { fault, options }: { fault: Fault; options: FaultOptions }) => ({
    id,
    ...options,
    hits: fault.hits,
  });

  const routes: Route[] = [
    route("POST", "reset", async () => {
      await test.reset();
      faults.clear();
      return empty();
    }),
    route("POST", "snapshots", async () => {
      const id = nextId("snapshot");
      snapshots.set(id, await test.snapshot());
      return json(201, { id });
    }),
    route("POST", "snapshots/{id}/restore", async ({ id }) => {
      const snapshot = snapshots.get(id);
      if (!snapshot) throw notFound(`No snapshot "${id}"`);
      await test.restore(snapshot);
      return empty();
    }),
    route("GET", "calls", async (_params, request) => {
      const filter = callFilter(new URL(request.url).searchParams);
      return json(200, { items: test.calls(filter) });
    }),
    route("DELETE", "calls", async () => {
      test.calls.clear();
      return empty();
    }),
    route("GET", "faults", async () =>
      json(200, { items: [...faults].map(([id, fault]) => described(id, fault)) }),
    ),
    route("POST", "faults", async (_params, request) => {
      const options = parsed(faultSchema, await bodyOf(request), "body") as FaultOptions;
      const id = nextId("fault");
      const entry = { fault: test.fault(options), options };
      faults.set(id, entry);
      return json(201, described(id, entry));
    }),
    route("GET", "faults/{id}", async ({ id }) => json(200, described(id, faultOf(id)))),
    route("DELETE", "faults/{id}", async ({ id }) => {
      faultOf(id).fault.remove();
      faults.delete(id);
      return empty();
    }),
    route("GET", "clock", async () => json(200, { now: test.clock.now() })),
    route("POST", "clock", async (_params, request) => {
      const { now } = parsed(setClockSchema, await bodyOf(request), "body");
      test.clock.set(now);
      return json(200, { now: test.clock.now() });
    }),
    route("POST", "clock/advance", async (_params, request) => {
      const { by } = parsed(advanceSchema, await bodyOf(request), "body");
      const jobsRun = await test.clock.advance(by);
      return json(200, { now: test.clock.now(), jobsRun });
    }),
    route("POST", "jobs/drain", async () => json(200, { jobsRun: await test.jobs.drain() })),
    route("GET", "jobs", async () => json(200, { items: await test.jobs.pending() })),
    route("POST", "seed", async (_params, request) => {
      await test.seed(parseFixture(await bodyOf(request)));
      return empty();
    }),
  ];

  return async (request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(ADMIN_PREFIX)) return test.fetch(request);
    try {
      operatorOnly(request, test.operatorToken);
      const path = pathname.slice(ADMIN_PREFIX.length).replace(/\/$/, "");
      const matching = routes.flatMap((candidate) => {
        const params = candidate.match(path);
        return params ? [{ candidate, params }] : [];
      });
      const found = matching.find(({ candidate }) => candidate.method === request.method);
      if (found) return await found.candidate.run(found.params, request);
      if (matching.length > 0) {
        const allowed = matching.map(({ candidate }) => candidate.method).join(", ");
        return json(
          405,
          error(405, `${request.method} is not allowed on ${pathname} (allowed: ${allowed})`),
          {
            allow: allowed,
          },
        );
      }
      throw notFound(`No admin endpoint ${request.method} ${pathname}`);
    } catch (failure) {
      if (failure instanceof FixtureError) return json(400, error(400, failure.message));
      if (!isDocsbaseError(failure)) throw failure;
      const status = STATUS_OF[failure.code];
      return json(status, error(status, failure.message));
    }
  };
}

/** One endpoint: its method, its path under the prefix (`{id}` takes one segment), what it does. */
interface Route {
  readonly method: string;
  match(path: string): { readonly id: string } | undefined;
  run(params: { readonly id: string }, request: Request): Promise<Response>;
}

function route(method: string, template: string, run: Route["run"]): Route {
  const pattern = new RegExp(`^${template.replace("{id}", "([^/]+)")}$`);
  return {
    method,
    run,
    match(path) {
      const found = pattern.exec(path);
      return found ? { id: decodeURIComponent(found[1] ?? "") } : undefined;
    },
  };
}

function operatorOnly(request: Request, operatorToken: string): void {
  const header = request.headers.get("authorization") ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) throw unauthorized("The admin API takes the operator's token: Authorization: Bearer <token>");
  if (token !== operatorToken) throw forbidden("The admin API takes the operator's token, not a user's");
}

const error = (code: number, message: string) => ({ error: { code, message } });

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

const empty = () => new Response(null, { status: 204 });

async function bodyOf(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") throw badRequest("body: a JSON body is required");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("body: not valid JSON");
  }
}

/** The value, or a 400 whose message names the field (`body.status: ...`). */
function parsed<T>(schema: z.ZodType<T>, value: unknown, root: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const path = issue?.path.length ? `${root}.${pathText(issue.path)}` : root;
  throw badRequest(`${path}: ${issue?.message ?? "invalid"}`);
}

const duration = z.union([z.number().nonnegative(), z.string().min(1)], {
  error: 'milliseconds >= 0, or a duration such as "7d" or "1h30m"',
});
const advanceSchema = z.strictObject({ by: duration });
const setClockSchema = z.strictObject({
  now: z.union([z.string().min(1), z.number()], { error: "an ISO date, or milliseconds since the epoch" }),
});
const faultSchema = z
  .strictObject({
    operationId: z.string().min(1).optional(),
    method: z.string().min(1).optional(),
    path: z.string().startsWith("/").optional(),
    status: z.number().int().min(100).max(599).optional(),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    delayMs: z.number().nonnegative().optional(),
    networkError: z.boolean().optional(),
    times: z.number().int().positive().optional(),
    probability: z.number().min(0).max(1).optional(),
    seed: z.number().int().optional(),
  })
  .superRefine((options, context) => {
    const byOperation = options.operationId !== undefined;
    const byPath = options.method !== undefined || options.path !== undefined;
    if (byOperation === byPath || (byPath && (options.method === undefined || options.path === undefined)))
      context.addIssue({
        code: "custom",
        path: byOperation ? ["operationId"] : options.method === undefined ? ["method"] : ["path"],
        message: "a fault targets an operationId, or a method and a path (not both)",
      });
  });

const FILTERS = ["operationId", "method", "path", "status", "user"] as const;

function callFilter(query: URLSearchParams): CallFilter {
  const filter: Record<string, string | number> = {};
  for (const [key, value] of query) {
    if (!(FILTERS as readonly string[]).includes(key))
      throw badRequest(`${key}: not a filter of the journal (${FILTERS.join(", ")})`);
    filter[key] = value;
  }
  if (filter["status"] !== undefined) {
    const status = Number(filter["status"]);
    if (!Number.isInteger(status)) throw badRequest(`status: "${filter["status"]}" is not a status code`);
    filter["status"] = status;
  }
  return filter as CallFilter;
}
