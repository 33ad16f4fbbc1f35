import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createDocsbase } from "../../docsbase.js";
import { tokensTable, usersTable } from "./tables.js";
import { BOOTSTRAP_TOKEN_LABEL, MIN_OPERATOR_TOKEN_LENGTH } from "./bootstrap.js";
import { hashToken } from "./tokens.js";

function setup() {
  const storage = memoryStorage();
  // Each reading of the clock is a second later, so tokens list in creation order.
  let now = Date.parse("2025-01-01T00:00:00Z");
  const docsbase = createDocsbase({ storage, clock: () => new Date((now += 1000)) });
  const status = async (token: string) =>
    (
      await docsbase.fetch(
        new Request("http://localhost/v1/user", { headers: { authorization: `Bearer ${token}` } }),
      )
    ).status;
  const tokensOf = async (operatorToken: string, userId: string) =>
    (await docsbase.as({ token: operatorToken }).listUserTokens({ userId })).items;
  return { storage, docsbase, status, tokensOf };
}

describe("bootstrap: the operator token follows the environment", () => {
  it("replaces the previous bootstrap token with a new one, and keeps the operator's other tokens", async () => {
    const { docsbase, status, tokensOf } = setup();
    const { userId } = await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    const extra = await docsbase.as({ token: "dbt_first_operator_token" }).createUserToken({ userId });

    // Idempotent with the same token: one bootstrap token, nothing revoked.
    expect(await docsbase.bootstrap({ token: "dbt_first_operator_token" })).toEqual({ userId });
    expect((await tokensOf("dbt_first_operator_token", userId)).map((token) => token.label)).toEqual([
      BOOTSTRAP_TOKEN_LABEL,
      undefined,
    ]);

    expect(await docsbase.bootstrap({ token: "dbt_second_operator_token" })).toEqual({ userId });
    expect(await status("dbt_first_operator_token")).toBe(401);
    expect(await status("dbt_second_operator_token")).toBe(200);
    expect(await status(extra.token)).toBe(200);
    const tokens = await tokensOf("dbt_second_operator_token", userId);
    expect(tokens).toHaveLength(2);
    expect(tokens.map((token) => token.id)).toContain(extra.id);
    expect(tokens.filter((token) => token.label === BOOTSTRAP_TOKEN_LABEL)).toHaveLength(1);
  });

  it("keeps the printed-once token without a token, and revokes it when one is given", async () => {
    const { docsbase, status } = setup();
    const { token } = await docsbase.bootstrap();
    expect(token).toMatch(/^dbt_/);
    expect((await docsbase.bootstrap()).token).toBeUndefined();
    expect(await status(token!)).toBe(200);

    await docsbase.bootstrap({ token: "dbt_environment_operator_token" });
    expect(await status(token!)).toBe(401);
    expect(await status("dbt_environment_operator_token")).toBe(200);
    // Without a token again, the last one stays (nothing to follow).
    await docsbase.bootstrap();
    expect(await status("dbt_environment_operator_token")).toBe(200);
  });

  it("restores a bootstrap token revoked through the API on the next bootstrap", async () => {
    const { docsbase, status, tokensOf } = setup();
    const { userId } = await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    const extra = await docsbase.as({ token: "dbt_first_operator_token" }).createUserToken({ userId });
    const [bootstrapToken] = await tokensOf(extra.token, userId);
    await docsbase.as({ token: extra.token }).deleteUserToken({ userId, tokenId: bootstrapToken!.id });
    expect(await status("dbt_first_operator_token")).toBe(401);
    await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    expect(await status("dbt_first_operator_token")).toBe(200);
  });

  it("marks a token stored unmarked by 0.1.0 when it is given again, so the next change revokes it", async () => {
    const { storage, docsbase, status } = setup();
    const { userId } = await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    const hash = hashToken("dbt_first_operator_token");
    // What docsbase 0.1.0 stored for DOCSBASE_ADMIN_TOKEN: no mark, no label.
    await storage.write(async (tx) => {
      const { bootstrap: _bootstrap, label: _label, ...legacy } = (await tx.get(tokensTable, hash))!;
      await tx.put(tokensTable, legacy);
    });
    await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    expect(await storage.read((tx) => tx.get(tokensTable, hash))).toMatchObject({
      user: userId,
      bootstrap: true,
      label: BOOTSTRAP_TOKEN_LABEL,
    });
    await docsbase.bootstrap({ token: "dbt_second_operator_token" });
    expect(await status("dbt_first_operator_token")).toBe(401);
  });

  it("refuses another user's token as the operator token", async () => {
    const { docsbase } = setup();
    await docsbase.bootstrap({ token: "dbt_first_operator_token" });
    const operator = docsbase.as({ token: "dbt_first_operator_token" });
    const user = await operator.createUser({ body: { displayName: "Ada", email: "ada@example.test" } });
    const { token } = await operator.createUserToken({ userId: user.id });
    await expect(docsbase.bootstrap({ token })).rejects.toThrow(/another user's token/);
    expect((await docsbase.as({ token }).getAuthenticatedUser()).id).toBe(user.id);
  });

  it("refuses an operator token shorter than the CLI accepts, naming token, before storing anything", async () => {
    const { docsbase, storage } = setup();
    await expect(docsbase.bootstrap({ token: "x" })).rejects.toMatchObject({
      code: "bad_request",
      message: "token: the operator token must be at least 16 characters long, got 1",
    });
    const short = "a".repeat(MIN_OPERATOR_TOKEN_LENGTH - 1);
    await expect(docsbase.bootstrap({ token: short })).rejects.toThrow(/^token: /);
    await expect(docsbase.bootstrap({ token: 42 as unknown as string })).rejects.toThrow(
      "token: must be a string or left out, got number",
    );
    const operators = await storage.read((tx) =>
      tx.list(usersTable, { index: "byKind", where: ["operator"] }),
    );
    expect(operators).toEqual([]);
    const { userId } = await docsbase.bootstrap({ token: "a".repeat(MIN_OPERATOR_TOKEN_LENGTH) });
    expect(userId).toBeTypeOf("string");
  });
});

describe("as(): a caller that names no one is refused at once, saying so", () => {
  it("throws naming token when the token is missing or not a string", () => {
    const { docsbase } = setup();
    const env: Record<string, string | undefined> = {};
    const missing = env["DOCSBASE_ADMIN_TOKEN"];
    expect(() => docsbase.as({ token: missing as string })).toThrow(
      "token: must be a string, got undefined: as() takes { token } or { userId }",
    );
    expect(() => docsbase.as({ token: null as unknown as string })).toThrow(
      /^token: must be a string, got null/,
    );
    expect(() => docsbase.as({} as { token: string })).toThrow(/^token: must be a string, got undefined/);
    expect(() => docsbase.as({ userId: 7 as unknown as string })).toThrow(
      /^userId: must be a string, got number/,
    );
  });

  it("still rejects each call of a string token that names no one with unauthorized", async () => {
    const { docsbase } = setup();
    await expect(docsbase.as({ token: "dbt_nobody" }).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
  });
});
