import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { usersTable } from "./tables.js";

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
