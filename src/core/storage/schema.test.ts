import { describe, expect, it } from "vitest";
import { checkSchemaNames, checkSchemaVersion } from "./schema.js";

describe("checkSchemaVersion", () => {
  it("accepts the current version as text or number, and a database without the record", () => {
    for (const recorded of ["1", 1, undefined, null])
      expect(() => checkSchemaVersion(recorded)).not.toThrow();
  });

  it("refuses a newer version, and a record it cannot read", () => {
    for (const recorded of ["2", 2, "two", {}]) {
      expect(() => checkSchemaVersion(recorded)).toThrow(
        /^Unsupported schema version .*: this docsbase reads version 1 and older$/,
      );
    }
  });
});

describe("checkSchemaNames", () => {
  it("lets the same table be given again, and compares case only between different spellings", () => {
    const notes = { name: "notes", key: "id", indexes: { bySpace: ["space"] } };
    expect(() => checkSchemaNames({ tables: [notes, notes] }, ["notes"])).not.toThrow();
    expect(() => checkSchemaNames({ tables: [notes, { ...notes, name: "Notes" }] })).toThrow(
      'Duplicate table name "Notes"',
    );
  });
});
