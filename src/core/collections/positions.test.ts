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
    const operator = test.as(test.operatorToken);
    const organizationId = (await operator.createOrganization({ body: { title: "Acme" } })).id;
    const model: { kind: "space" | "collection"; id: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const kind = i % 3 === 0 ? "collection" : "space";
      const body = { title: `${kind} ${i}` };
      const created =
        kind === "space"
          ? await operator.createSpace({ organizationId, body })
          : await operator.createCollection({ organizationId, body });
      model.push({ kind, id: created.id });
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
      const anchor =
        target.kind === "space"
          ? { type: "space" as const, space: target.id }
          : { type: "collection" as const, collection: target.id };
      const position = where === "before" ? { before: anchor } : { after: anchor };
      const move =
        item.kind === "space"
          ? operator.moveSpace({ spaceId: item.id, body: { position } })
          : operator.moveCollection({ collectionId: item.id, body: { position } });
      const expected = [...others];
      expected.splice(others.indexOf(target) + (where === "after" ? 1 : 0), 0, item);
      const unchanged = expected.every((entry, index) => entry === model[index]);
      if (unchanged) await expect(move).rejects.toMatchObject({ code: "conflict" });
      else await move;
      model.splice(0, model.length, ...expected);
      const spaces = await operator.listSpacesInOrganizationById({ organizationId });
      const collections = await operator.listCollectionsInOrganizationById({ organizationId });
      expect(spaces.items.map((space) => space.id)).toEqual(
        model.filter((entry) => entry.kind === "space").map((entry) => entry.id),
      );
      expect(collections.items.map((entry) => entry.id)).toEqual(
        model.filter((entry) => entry.kind === "collection").map((entry) => entry.id),
      );
    }
  });
});
