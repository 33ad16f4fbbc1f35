import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { storageSchema } from "../operations.js";
import { freeKeyBetween, listSiblings } from "../shared/positions.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";

const collection = (id: string, parent: string, position: string): CollectionRecord => ({
  id,
  organization: "org",
  parent,
  title: id,
  defaultLevel: "inherit",
  position,
  createdAt: "2025-01-01T00:00:00.000Z",
});

describe("positions", () => {
  it("never reuses a key of the organization, even one held under another parent", async () => {
    const storage = memoryStorage();
    await storage.init(storageSchema);
    await storage.write(async (tx) => {
      await tx.put(collectionsTable, collection("first", "", "a0"));
      await tx.put(collectionsTable, collection("last", "", "a2"));
      await tx.put(collectionsTable, collection("elsewhere", "first", "a1"));
    });
    const key = await storage.read((tx) => freeKeyBetween(tx, "org", "a0", "a2"));
    expect(key > "a0" && key < "a2" && key !== "a1").toBe(true);
    const siblings = await storage.read((tx) => listSiblings(tx, "org", ""));
    expect(siblings.map((item) => item.id)).toEqual(["first", "last"]);
  });

  it("keeps the order a model predicts through random moves of spaces and collections", async () => {
    const test = await createTestDocsbase();
    const org = (await test.request("POST", "/orgs", { body: { title: "Acme" } })).body.id;
    const model: { kind: "space" | "collection"; id: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const kind = i % 3 === 0 ? "collection" : "space";
      const created = await test.request(
        "POST",
        `/orgs/${org}/${kind === "space" ? "spaces" : "collections"}`,
        {
          body: { title: `${kind} ${i}` },
        },
      );
      model.push({ kind, id: created.body.id });
    }
    // A fixed-seed generator keeps the test reproducible.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 60; step++) {
      const item = model[random(model.length)]!;
      const others = model.filter((other) => other !== item);
      const target = others[random(others.length)]!;
      const where = random(2) === 0 ? "before" : "after";
      const path = item.kind === "space" ? `/spaces/${item.id}/move` : `/collections/${item.id}/move`;
      const response = await test.request("POST", path, {
        body: { position: { [where]: { type: target.kind, [target.kind]: target.id } } },
      });
      const expected = [...others];
      expected.splice(others.indexOf(target) + (where === "after" ? 1 : 0), 0, item);
      const unchanged = expected.every((entry, index) => entry === model[index]);
      expect(response.status).toBe(unchanged ? 409 : 200);
      model.splice(0, model.length, ...expected);
      const spaces = await test.request("GET", `/orgs/${org}/spaces`);
      const collections = await test.request("GET", `/orgs/${org}/collections`);
      expect(spaces.body.items.map((space: { id: string }) => space.id)).toEqual(
        model.filter((entry) => entry.kind === "space").map((entry) => entry.id),
      );
      expect(collections.body.items.map((entry: { id: string }) => entry.id)).toEqual(
        model.filter((entry) => entry.kind === "collection").map((entry) => entry.id),
      );
    }
  });
});
