import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { usersTable } from "./tables.js";
import { createWorkspace } from "../../../test/support/workspace.js";

describe("users: input bounds", () => {
  type Body = Partial<ClientInput<Operations["createUser"]>["body"]>;
  const create = async (body: Body) => {
    const test = await createTestDocsbase();
    return test
      .as(test.operatorToken)
      .createUser({ body: { displayName: "Ada", email: "ada@example.test", ...body } });
  };
  const refused = (body: Body, field: string) =>
    expect(create(body), JSON.stringify(body)).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining(field),
    });

  it("accepts only http and https photo URLs, naming the field", async () => {
    for (const photoURL of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "file:///etc/passwd",
      "ftp://example.test/x.png",
      " https://example.test/x.png",
      "https://",
      `https://example.test/${"x".repeat(2048)}`,
    ]) {
      await refused({ photoURL }, "body.photoURL");
    }
    for (const photoURL of ["https://example.test/ada.png", "http://example.test/ada.png"]) {
      expect((await create({ photoURL })).photoURL).toBe(photoURL);
    }
  });

  it("bounds the display name and the email", async () => {
    const cases: [Body, string][] = [
      [{ displayName: "x".repeat(101) }, "body.displayName"],
      [{ displayName: "   " }, "body.displayName"],
      [{ displayName: "Ada\u0000" }, "body.displayName"],
      [{ displayName: "Ada\nLovelace" }, "body.displayName"],
      [{ displayName: "Ada \ud800" }, "body.displayName"],
      [
        { email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.test` },
        "body.email",
      ],
      [{ email: "not an email" }, "body.email"],
    ];
    for (const [body, field] of cases) await refused(body, field);
    expect((await create({ displayName: ` ${"é".repeat(100)} ` })).displayName).toBe("é".repeat(100));
    expect((await create({ displayName: "Ada 👩‍💻" })).displayName).toBe("Ada 👩‍💻");
  });

  it("does not serve a photo URL of another scheme stored before schemes were checked", async () => {
    const storage = memoryStorage();
    const test = await createTestDocsbase({ storage });
    const ada = await test.createUser("Ada", "ada@example.test");
    await storage.write(async (tx) => {
      const record = (await tx.get(usersTable, ada.id))!;
      await tx.put(usersTable, { ...record, photoURL: "javascript:alert(1)" });
    });
    expect(await test.as(ada).getAuthenticatedUser()).not.toHaveProperty("photoURL");
  });
});

describe("updateUserById", () => {
  it("renames a user and changes their photo: the user themself, or the operator", async () => {
    const w = await createWorkspace();
    const admin = await w.member("admin");
    const renamed = await admin.client.updateUserById({
      userId: admin.userId,
      body: { displayName: "  Ada Lovelace ", photoURL: "https://example.test/ada.png" },
    });
    expect(renamed).toMatchObject({ displayName: "Ada Lovelace", photoURL: "https://example.test/ada.png" });
    // One field at a time: the other stays.
    await admin.client.updateUserById({ userId: admin.userId, body: { displayName: "Ada" } });
    expect(await w.client.getUserById({ userId: admin.userId })).toMatchObject({
      displayName: "Ada",
      photoURL: "https://example.test/ada.png",
    });
    const byOperator = await w.test
      .as(w.test.operatorToken)
      .updateUserById({ userId: admin.userId, body: { displayName: "Countess" } });
    expect(byOperator.displayName).toBe("Countess");
  });

  it("refuses others: 403 to who sees the user, 404 to who does not, and stores nothing", async () => {
    const w = await createWorkspace();
    const admin = await w.member("admin");
    const before = await w.stored(usersTable, admin.userId);
    // The organization's owner sees the admin (getUserById), yet may not rename them.
    await expect(
      w.client.updateUserById({ userId: admin.userId, body: { displayName: "Mallory" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      w.outsider.client.updateUserById({ userId: admin.userId, body: { displayName: "Mallory" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      w.client.updateUserById({ userId: "nobody", body: { displayName: "Mallory" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await w.stored(usersTable, admin.userId)).toEqual(before);
  });

  it("answers 400 naming the field of a bad body, and stores nothing", async () => {
    const w = await createWorkspace();
    const admin = await w.member("admin");
    const before = await w.stored(usersTable, admin.userId);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "body: expected at least one of displayName, photoURL"],
      [{ displayName: "x".repeat(65) }, "body.displayName"],
      [{ displayName: " " }, "body.displayName"],
      [{ displayName: "Ada\nLovelace" }, "body.displayName"],
      [{ photoURL: "javascript:alert(1)" }, "body.photoURL"],
      [{ displayName: 7 }, "body.displayName"],
    ];
    for (const [body, field] of cases) {
      const answer = await admin("PATCH", `/users/${admin.userId}`, body);
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
      expect(answer.body.error.message).toContain(field);
    }
    expect(await w.stored(usersTable, admin.userId)).toEqual(before);
  });

  it("refuses a lookup's reader token, even for a user its revision mentions", async () => {
    const w = await createWorkspace();
    const space = await w.space({ title: "Docs" });
    await w.client.createPage({
      spaceId: space,
      body: { title: "Credits", markdown: `By [@${w.owner.id}](user:${w.owner.id}).` },
    });
    const siteId = (
      await w.client.createSite({ organizationId: w.org, body: { title: "Docs", spaces: [space] } })
    ).id;
    await w.client.publishSite({ organizationId: w.org, siteId });
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const token = (await w.test.request("GET", `/urls/published?url=${url}`, { token: null })).body
      .apiToken as string;
    expect((await w.test.as(token).getUserById({ userId: w.owner.id })).displayName).toBe("Owner");
    await expect(
      w.test.as(token).updateUserById({ userId: w.owner.id, body: { displayName: "Mallory" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
