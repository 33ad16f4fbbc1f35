import { describe, expect, it } from "vitest";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { operations } from "../src/core/operations.js";
import { MAX_BODY_DEPTH, nestingPastLimit } from "../src/core/shared/nesting.js";
import { createTestDocsbase, type TestDocsbaseOptions } from "../src/testing/double.js";

/**
 * One nesting bound for every request body (docs/security.md, "Deeply nested request bodies"):
 * free-form values under keys no schema follows (a block's `data`, a configuration...) used to
 * reach storage, which answered 500 past SQLite's JSON depth of 1,000, and recursive copies
 * overflowed the stack deeper still. Bodies are sent as JSON text built without recursion, since
 * the values are deeper than `JSON.stringify` may walk.
 */

/** JSON text of `{"a":{"a":...{}}}`, `levels` objects deep. */
const nestedJson = (levels: number) => '{"a":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);

/** A document whose one paragraph carries `data` nested `levels` deep (the document itself adds 4). */
const documentJson = (levels: number) =>
  `{"object":"document","nodes":[{"object":"block","type":"paragraph","data":${nestedJson(levels)},"nodes":[]}]}`;

const PAST = MAX_BODY_DEPTH; // with the body and the document around it, past the bound

async function setup(options: TestDocsbaseOptions = {}) {
  const test = await createTestDocsbase({ translator: async (request) => request.texts, ...options });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const organization = (await client.createOrganization({ body: { title: "Acme" } })).id;
  const space = (
    await client.createSpace({ organizationId: organization, body: { title: "Guide", language: "en" } })
  ).id;
  const send = async (method: string, path: string, body: string) => {
    const answer = await test.request(method, path, { token: owner.token, body });
    return { status: answer.status, message: String((answer.body as any)?.error?.message) };
  };
  return { test, client, organization, space, send };
}

describe("the nesting bound of request bodies", () => {
  it("refuses a translation whose instructions nest too deep, naming the field, creating nothing", async () => {
    // SQLite storage, where the same body answered 500 (`malformed JSON`) before the bound.
    const { client, organization, space, send } = await setup({
      storage: sqliteStorage({ filename: ":memory:" }),
    });
    const answer = await send(
      "POST",
      `/orgs/${organization}/translations`,
      `{"source":{"space":"${space}","language":"en"},"language":"fr","instructions":${documentJson(1001)}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toContain("body.instructions.nodes.0.data.a.a");
    expect(answer.message).toContain(`Nested deeper than ${MAX_BODY_DEPTH} levels`);
    expect((await client.listTranslations({ organizationId: organization })).items).toEqual([]);
    expect((await client.listSpacesInOrganizationById({ organizationId: organization })).items).toHaveLength(
      1,
    );
  });

  it("refuses a change request whose description nests too deep", async () => {
    const { client, space, send } = await setup();
    const answer = await send(
      "POST",
      `/spaces/${space}/change-requests`,
      `{"description":${documentJson(PAST)}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toContain("body.description.nodes.0.data.a");
    // The typed in-process client comes through the same check.
    let data: Record<string, unknown> = {};
    for (let level = 0; level < PAST; level++) data = { a: data };
    const description = {
      object: "document",
      nodes: [{ object: "block", type: "paragraph", data, nodes: [] }],
    };
    await expect(
      client.createChangeRequest({ spaceId: space, body: { description } as never }),
    ).rejects.toThrow(/^body\.description\.nodes\.0\.data\.a.*: Nested deeper than/);
    expect((await client.listChangeRequestsForSpace({ spaceId: space })).items).toEqual([]);
  });

  it("refuses agent instructions nested too deep, keeping those stored", async () => {
    const { client, organization, send } = await setup();
    const path = `/orgs/${organization}/agent-instructions`;
    expect((await send("PUT", path, `{"instructions":${documentJson(8)}}`)).status).toBe(200);
    const before = await client.getOrganizationAgentInstructions({ organizationId: organization });
    const answer = await send("PUT", path, `{"instructions":${documentJson(8000)}}`);
    expect(answer.status).toBe(400);
    expect(answer.message).toContain("body.instructions.nodes.0.data.a");
    expect(await client.getOrganizationAgentInstructions({ organizationId: organization })).toEqual(before);
  });

  it("accepts a document nested to the document bound, with data under its deepest text", async () => {
    let node =
      '{"object":"text","leaves":[{"object":"leaf","text":"deep","marks":[{"object":"mark","type":"bold","data":{"a":{"b":{}}}}]}]}';
    for (let depth = 0; depth < 63; depth++) node = `{"object":"block","type":"paragraph","nodes":[${node}]}`;
    const { client, space, send } = await setup();
    const answer = await send(
      "POST",
      `/spaces/${space}/change-requests`,
      `{"description":{"object":"document","nodes":[${node}]}}`,
    );
    expect(answer.status, answer.message).toBe(201);
    expect((await client.listChangeRequestsForSpace({ spaceId: space })).items).toHaveLength(1);
  });

  it("refuses a too deep body in every operation that takes one, before anything else reads it", async () => {
    const { test } = await setup();
    const owner = await test.createUser("Operator of the loop");
    const refused: string[] = [];
    for (const operation of Object.values(operations)) {
      if (!operation.body) continue;
      // Long enough for every path parameter's rule (a push id takes 8 characters or more).
      const path = operation.path.replace(/\{\w+\}/g, "x-path-param");
      const answer = await test.request(operation.method.toUpperCase(), path, {
        token: owner.token,
        body: `{"free":${nestedJson(MAX_BODY_DEPTH)}}`,
      });
      const message = String((answer.body as any)?.error?.message);
      if (answer.status === 400 && message.startsWith("body.free.a.a")) refused.push(operation.id);
      else expect.soft({ operation: operation.id, status: answer.status, message }).toBeUndefined();
    }
    expect(refused.length).toBeGreaterThan(50);
  });

  it("walks without recursion and names the path past the bound", () => {
    expect(nestingPastLimit({ a: { b: [] } }, 2)).toBe("a.b");
    expect(nestingPastLimit({ a: { b: [1, "x", null] } }, 3)).toBeUndefined();
    expect(nestingPastLimit([[], [[{}]]], 3)).toBe("1.0.0");
    let deep: unknown = {};
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(nestingPastLimit({ deep }, MAX_BODY_DEPTH)).toMatch(/^deep\.0\.0(\.0)*\.…$/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestingPastLimit(cyclic, 5)).toBe("self.self.self.self.self");
    expect(nestingPastLimit({ bytes: new Uint8Array(10) }, 1)).toBeUndefined();
  });
});
