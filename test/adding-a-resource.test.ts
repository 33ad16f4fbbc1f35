import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { memoryStorage } from "../src/adapters/memory/index.js";
import {
  createDocsbase,
  defineModule,
  defineOperation,
  defineTable,
  onSpace,
  scheduleJob,
} from "../src/index.js";
import type { JobHandler } from "../src/index.js";
import { pathParam } from "../src/core/shared/schema.js";

/**
 * docs/architecture.md, "Adding a resource", step by step: a throwaway `notes` resource with one
 * table, one operation and one job, mounted beside docsbase's own modules. If this test needs a
 * change, the walkthrough does too.
 */

// 1. The table: its record schema is the one declaration of the record's type.
const noteRecord = z.object({
  id: z.string(),
  space: z.string(),
  text: z.string(),
  createdAt: z.string(),
  /** Set by the `notes.count-words` job. */
  words: z.number().optional(),
});
const notesTable = defineTable({
  name: "notes",
  key: "id",
  indexes: { bySpace: ["space", "createdAt"] },
  record: noteRecord,
});

// 2. The job: it runs outside any transaction and opens its own.
const COUNT_WORDS_JOB = "notes.count-words";
const countWords: JobHandler = (world, payload) =>
  world.storage.write(async (tx) => {
    const note = await tx.get(notesTable, String(payload["note"]));
    if (note) await tx.put(notesTable, { ...note, words: note.text.split(/\s+/).filter(Boolean).length });
  });

// 3. The operation: access declared as data, `run` gets the loaded space and the transaction.
const createNote = defineOperation({
  id: "createNote",
  method: "post",
  path: "/spaces/{spaceId}/notes",
  tag: "notes",
  summary: "Add a note to a space",
  access: onSpace("edit"),
  params: z.object({ spaceId: pathParam() }),
  body: z.object({ text: z.string().min(1).max(1000) }),
  response: noteRecord,
  status: 201,
  async run({ tx, space, clock, ids, ...world }, { body }) {
    const note = { id: ids(), space: space.id, text: body.text, createdAt: clock().toISOString() };
    await tx.put(notesTable, note);
    const scope = { clock, ids, ...world };
    await scheduleJob(tx, scope, space.organization, COUNT_WORDS_JOB, clock(), { note: note.id });
    return note;
  },
});

// 4. The module: the folder's one export, with a hook for what must go when a space is purged.
const notesModule = defineModule({
  name: "notes",
  tables: [notesTable],
  operations: { createNote },
  jobs: { [COUNT_WORDS_JOB]: countWords },
  hooks: {
    async purgeSpace(tx, _world, space) {
      for (const note of await tx.list(notesTable, { index: "bySpace", where: [space.id] })) {
        await tx.delete(notesTable, note.id);
      }
    },
  },
});

describe("adding a resource (docs/architecture.md)", () => {
  it("mounts a module: HTTP route, typed client, OpenAPI, job, access and purge hook", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const storage = memoryStorage();
    const docsbase = createDocsbase({ storage, clock: () => now, modules: [notesModule] });
    const readNote = (id: string) => storage.read((tx) => tx.get(notesTable, id));
    const token = "dbt_adding_a_resource_token";
    await docsbase.bootstrap({ token });
    const client = docsbase.as({ token });
    const organization = await client.createOrganization({ body: { title: "Notes" } });
    const space = await client.createSpace({ organizationId: organization.id, body: { title: "Docs" } });

    // The typed client knows the new operation; HTTP serves it.
    type CreateNoteInput = Parameters<typeof client.createNote>[0];
    expectTypeOf<CreateNoteInput>().toExtend<{ spaceId: string; body: { text: string } }>();
    expectTypeOf<{ spaceId: string; body: { text: string } }>().toExtend<CreateNoteInput>();
    expectTypeOf<{ spaceId: string }>().not.toExtend<CreateNoteInput>(); // the body is required
    const note = await client.createNote({ spaceId: space.id, body: { text: "three little words" } });
    expect(await readNote(note.id)).toMatchObject({ space: space.id, text: "three little words" });
    const response = await docsbase.fetch(
      new Request(`http://localhost/v1/spaces/${space.id}/notes`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ text: "" }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("body.text");

    // The access rule refuses before `run`: an unknown space is a 404.
    await expect(client.createNote({ spaceId: "nope", body: { text: "x" } })).rejects.toMatchObject({
      code: "not_found",
    });

    // The OpenAPI document lists it, with the access it needs.
    const document = docsbase.openApi() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    expect(document.paths["/spaces/{spaceId}/notes"]?.["post"]?.description).toContain('"edit" permission');

    // The job ran outside the operation's transaction.
    expect(await docsbase.runJobs()).toBeGreaterThanOrEqual(1);
    expect(await readNote(note.id)).toMatchObject({ text: "three little words", words: 3 });

    // Purging the space runs the module's hook.
    await client.deleteSpaceById({ spaceId: space.id });
    now = new Date(now.getTime() + 8 * 24 * 3600 * 1000);
    await docsbase.runJobs();
    expect(await readNote(note.id)).toBeUndefined();
    await docsbase.close();
  });
});
