import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { usersTable } from "./tables.js";

describe("users: input bounds", () => {
  const create = async (body: Record<string, unknown>) => {
    const test = await createTestDocsbase();
    return test.request("POST", "/users", {
      body: { displayName: "Ada", email: "ada@example.test", ...body },
    });
  };

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
      const answer = await create({ photoURL });
      expect(answer.status, photoURL).toBe(400);
      expect(answer.body.error.message).toContain("body.photoURL");
    }
    for (const photoURL of ["https://example.test/ada.png", "http://example.test/ada.png"]) {
      const answer = await create({ photoURL });
      expect(answer.status).toBe(201);
      expect(answer.body.photoURL).toBe(photoURL);
    }
  });

  it("bounds the display name and the email", async () => {
    const cases: [Record<string, unknown>, string][] = [
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
    for (const [body, field] of cases) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    const longest = await create({ displayName: ` ${"é".repeat(100)} ` });
    expect(longest.status).toBe(201);
    expect(longest.body.displayName).toBe("é".repeat(100));
    expect((await create({ displayName: "Ada 👩‍💻" })).status).toBe(201);
  });

  it("does not serve a photo URL of another scheme stored before schemes were checked", async () => {
    const storage = memoryStorage();
    const test = await createTestDocsbase({ storage });
    const ada = await test.createUser("Ada", "ada@example.test");
    await storage.write(async (tx) => {
      const record = (await tx.get(usersTable, ada.id))!;
      await tx.put(usersTable, { ...record, photoURL: "javascript:alert(1)" });
    });
    const me = await test.request("GET", "/user", { token: ada.token });
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty("photoURL");
  });
});
