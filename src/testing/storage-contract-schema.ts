import { expect, it } from "vitest";
import type { TableSchema } from "../core/storage/index.js";
import { itemsTable, type ContractContext } from "./storage-contract-fixture.js";

const RULE = "names are 1 to 61 letters, digits or _, not starting with a digit";

/** Schemas no adapter may accept, each with the one message every adapter refuses it with. */
const REFUSED: [string, TableSchema[], string][] = [
  ["a $ in a table name", [table("notes$")], `Invalid table name "notes$": ${RULE}`],
  [
    "a - in an index name",
    [table("notes", { "by-space": ["space"] })],
    `Invalid index name "by-space" on table "notes": ${RULE}`,
  ],
  [
    "a $ in an index name",
    [table("notes", { by$space: ["space"] })],
    `Invalid index name "by$space" on table "notes": ${RULE}`,
  ],
  [
    "a . in an index field",
    [table("notes", { bySpace: ["space.id"] })],
    `Invalid field name "space.id" in index "bySpace" of table "notes": ${RULE}`,
  ],
  ["a leading digit", [table("1notes")], `Invalid table name "1notes": ${RULE}`],
  ["an empty name", [table("")], `Invalid table name "": ${RULE}`],
  ["a name of 62 characters", [table("n".repeat(62))], `Invalid table name "${"n".repeat(62)}": ${RULE}`],
  ["a quote", [table('x"; DROP TABLE items; --')], `Invalid table name "x"; DROP TABLE items; --": ${RULE}`],
  ["a non-ASCII letter", [table("notés")], `Invalid table name "notés": ${RULE}`],
  [
    "the adapters' own table",
    [table("docsbase_meta")],
    'Table name "docsbase_meta" is reserved (so are names starting with sqlite_ or pg_)',
  ],
  [
    "SQLite's prefix",
    [table("sqlite_notes")],
    'Table name "sqlite_notes" is reserved (so are names starting with sqlite_ or pg_)',
  ],
  [
    "PostgreSQL's prefix, in capitals",
    [table("PG_notes")],
    'Table name "PG_notes" is reserved (so are names starting with sqlite_ or pg_)',
  ],
  [
    "a table differing in case from one already there",
    [table("Items")],
    'Duplicate table name "Items": table names must differ in more than letter case',
  ],
  [
    "two indexes differing in case",
    [table("notes", { bySpace: ["space"], byspace: ["space"] })],
    'Duplicate index name "byspace" on table "notes": index names must differ in more than letter case',
  ],
];

function table(name: string, indexes: Record<string, string[]> = {}): TableSchema {
  return { name, key: "id", indexes };
}

/**
 * Names: every adapter refuses at `init`, with the same message, a name that one of them could
 * not store (the kit's rule, `storage/schema.ts`), and stores every name the rule allows.
 */
export function schemaContract(ctx: ContractContext): void {
  it.each(REFUSED)("refuses %s at init, creating nothing", async (_, tables, message) => {
    const fresh = table("fresh", { byRank: ["rank"] });
    await expect(ctx.storage.init({ tables: [fresh, ...tables] })).rejects.toThrow(new Error(message));
    await expect(ctx.storage.read((tx) => tx.get(fresh, "a"))).rejects.toThrow(/unknown table/i);
    expect(await ctx.storage.read((tx) => tx.count(itemsTable, { index: "byRank" }))).toBe(0);
  });

  it("stores every name the rule allows", async () => {
    const longest = "t".repeat(61);
    const field = `f${"9".repeat(60)}`;
    const allowed = table(longest, { [`_${"i".repeat(60)}`]: [field, "_2"], ITEMS_by: ["_2"] });
    await ctx.storage.init({ tables: [allowed] });
    await ctx.storage.write((tx) => tx.put(allowed, { id: "a", [field]: "x", _2: 2 }));
    const listed = await ctx.storage.read((tx) =>
      tx.list(allowed, { index: `_${"i".repeat(60)}`, where: ["x"] }),
    );
    expect(listed).toEqual([{ id: "a", [field]: "x", _2: 2 }]);
    expect(await ctx.storage.read((tx) => tx.count(allowed, { index: "ITEMS_by" }))).toBe(1);
  });
}
