import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { markdownSegments, replaceSegments } from "./segments.js";
import type { TranslationRequest, Translator } from "./translator.js";

type CreateTranslationBody = ClientInput<Operations["createTranslation"]>["body"];

/** A fake engine: brackets each text in the target language's code, and records every call. */
function fakeEngine() {
  const calls: TranslationRequest[] = [];
  let failing = false;
  const translator: Translator = async (request) => {
    calls.push(request);
    if (failing) throw new Error("engine down");
    return request.texts.map((text) => `[${request.to}] ${text}`);
  };
  const sent = () => calls.flatMap((call) => call.texts);
  return { translator, calls, sent, fail: (value: boolean) => (failing = value) };
}

async function setup(options: { translator?: Translator; onError?: (error: unknown) => void } = {}) {
  let now = new Date("2025-01-01T00:00:00.000Z");
  const test = await createTestDocsbase({ storage: memoryStorage(), clock: () => now, ...options });
  const owner = await test.createUser("Owner");
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    test.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
  const api = as(owner.token);
  const client = test.as(owner);
  const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
  const space = (await client.createSpace({ organizationId: org, body: { title: "Guide", language: "en" } }))
    .id;
  const page = async (title: string, markdown: string, description?: string) =>
    (
      await client.createPage({
        spaceId: space,
        body: { title, markdown, ...(description ? { description } : {}) },
      })
    ).id;
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  /** Runs the queued jobs with the clock moving 3 s inside the engine call (for durations). */
  return { test, owner, api, client, as, org, space, page, advance };
}

const MARKDOWN = [
  "# Install the tool",
  "",
  'Run `npm install docsbase` then read [the guide](https://example.com/guide "Guide").',
  "",
  "```sh",
  "echo hello world",
  "```",
  "",
  "Version {{ space.vars.version }} is out; see https://example.com/notes for details.",
  "",
  "> A quoted line",
  "> and its continuation",
  "",
  "- First item",
  "- Second item with **bold text** inside",
  "",
  "<div>raw html stays</div>",
  "",
  "See [reference] and <https://example.com/auto>.",
  "",
  "[reference]: https://example.com/ref",
  "",
].join("\n");

describe("markdown segments", () => {
  it("sends only prose, and puts translations back with the structure intact", () => {
    const segments = markdownSegments(MARKDOWN);
    const texts = segments.map((segment) => segment.text);
    expect(texts).toEqual(
      [
        "Install the tool",
        "Run",
        "then read",
        "the guide",
        ".",
        "Version",
        "is out; see",
        "for details.",
        "A quoted line",
        "and its continuation",
        "First item",
        "Second item with",
        "bold text",
        "inside",
        "See",
        "and",
        ".",
      ].filter((text) => /\p{L}/u.test(text)),
    );
    const translated = replaceSegments(
      MARKDOWN,
      segments,
      texts.map((text) => text.toUpperCase()),
    );
    expect(translated).toContain("# INSTALL THE TOOL");
    expect(translated).toContain(
      'RUN `npm install docsbase` THEN READ [THE GUIDE](https://example.com/guide "Guide").',
    );
    expect(translated).toContain("```sh\necho hello world\n```");
    expect(translated).toContain(
      "VERSION {{ space.vars.version }} IS OUT; SEE https://example.com/notes FOR DETAILS.",
    );
    expect(translated).toContain("> A QUOTED LINE\n> AND ITS CONTINUATION");
    expect(translated).toContain("- SECOND ITEM WITH **BOLD TEXT** INSIDE");
    expect(translated).toContain("<div>raw html stays</div>");
    expect(translated).toContain("SEE [reference] AND <https://example.com/auto>.");
    expect(translated).toContain("[reference]: https://example.com/ref");
  });

  it("keeps a translation on one line, and the source text where the engine answered nothing", () => {
    const segments = markdownSegments("Hello world");
    expect(replaceSegments("Hello world", segments, ["Bonjour\n# le monde"])).toBe("Bonjour # le monde");
    expect(replaceSegments("Hello world", segments, ["  "])).toBe("Hello world");
  });
});

describe("translations", () => {
  it("answers 503 naming the setting without an engine, and creates nothing", async () => {
    const reported: unknown[] = [];
    const { api, client, org, space } = await setup({ onError: (error) => reported.push(error) });
    const organizationId = org;
    const spacesBefore = (await client.listSpacesInOrganizationById({ organizationId })).count;
    // Over HTTP: what the handler reports to onError is part of the check.
    const created = await api("POST", `/orgs/${org}/translations`, {
      language: "fr",
      source: { space, language: "en" },
    });
    expect(created.status).toBe(503);
    expect(created.body.error.message).toContain("translator");
    expect(created.body.error.message).toContain("DOCSBASE_TRANSLATOR_URL");
    expect((await client.listTranslations({ organizationId })).count).toBe(0);
    expect((await client.listSpacesInOrganizationById({ organizationId })).count).toBe(spacesBefore);
    // A setting left out is not an outage: nothing is reported as unexpected.
    expect(reported).toEqual([]);
  });

  it("translates every page into one revision of the result space, then only what changed", async () => {
    const engine = fakeEngine();
    const { test, api, client, org, space, page } = await setup({ translator: engine.translator });
    const install = await page("Install", MARKDOWN, "How to install");
    await page("Usage", "Use it **daily**.");
    // Over HTTP: the 201 and its Location header.
    const created = await api("POST", `/orgs/${org}/translations`, {
      language: "fr",
      source: { space, language: "en" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(
      `${test.endpoint}/v1/orgs/${org}/translations/${created.body.id}`,
    );
    expect(created.body).toMatchObject({ object: "translation", status: "pending", language: "fr" });
    const translation = { organizationId: org, translationId: created.body.id as string };
    const result = created.body.result.space as string;
    const initial = created.body.result.revision as string;
    expect(await client.getSpaceById({ spaceId: result })).toMatchObject({
      title: "Guide (fr)",
      language: "fr",
    });

    await test.docsbase.runJobs();
    const first = await client.getTranslation(translation);
    expect(first.status).toBe("completed");
    expect(first.result!.revision).not.toBe(initial);
    await client.getRevisionById({ spaceId: result, revisionId: first.result!.revision });
    const sentFirst = engine.sent();
    expect(sentFirst).toContain("Install");
    expect(sentFirst).toContain("How to install");
    expect(sentFirst.join("\n")).not.toMatch(/npm install|echo hello|space\.vars|https:/);
    expect(first.stats).toMatchObject({ runs: 1, totalPages: 2, latestPages: 2 });
    expect(first.stats.latestWords).toBe(sentFirst.reduce((n, t) => n + t.split(/\s+/).length, 0));
    expect(first.stats.totalWords).toBe(first.stats.latestWords);

    const { pages } = await client.getCurrentRevision({ spaceId: result });
    expect(pages.map((p) => p.title)).toEqual(["[fr] Install", "[fr] Usage"]);
    expect(pages[0]!.description).toBe("[fr] How to install");
    const markdown = await client.getPageById({ spaceId: result, pageId: install, format: "markdown" });
    expect(JSON.stringify(markdown)).toContain("echo hello world");

    // Change one page: only its texts are sent again.
    await client.updatePage({ spaceId: space, pageId: install, body: { title: "Install it" } });
    engine.calls.length = 0;
    // No content: the call resolves to nothing.
    expect(await client.runTranslation(translation)).toBeUndefined();
    expect((await client.getTranslation(translation)).status).toBe("pending");
    await test.docsbase.runJobs();
    expect(engine.sent()).toContain("Install it");
    expect(engine.sent()).not.toContain("Usage");
    const second = await client.getTranslation(translation);
    expect(second.stats).toMatchObject({ runs: 2, totalPages: 2, latestPages: 1 });

    // Nothing changed: nothing sent, no new revision.
    engine.calls.length = 0;
    await client.runTranslation(translation);
    await test.docsbase.runJobs();
    expect(engine.calls).toHaveLength(0);
    const third = await client.getTranslation(translation);
    expect(third.result!.revision).toBe(second.result!.revision);
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0 });

    // New instructions: every page is translated again with them.
    const instructions = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Be formal", marks: [] }] }],
        },
      ],
    };
    await client.updateTranslation({ ...translation, body: { instructions } });
    engine.calls.length = 0;
    await client.runTranslation(translation);
    await test.docsbase.runJobs();
    expect(engine.calls[0]?.instructions).toContain("Be formal");
    expect(engine.sent()).toContain("Usage");
  });

  it("leaves the previous result when the engine fails midway, and retries", async () => {
    const engine = fakeEngine();
    const { test, client, org, space, page, advance } = await setup({ translator: engine.translator });
    const first = await page("One", "First page.");
    const created = await client.createTranslation({
      organizationId: org,
      body: { language: "de", source: { space, language: "en" } },
    });
    const translation = { organizationId: org, translationId: created.id };
    const result = { spaceId: created.result!.space };
    await test.docsbase.runJobs();
    const done = await client.getTranslation(translation);
    await client.updatePage({ spaceId: space, pageId: first, body: { title: "Uno" } });
    engine.fail(true);
    await client.runTranslation(translation);
    await test.docsbase.runJobs();
    const failed = await client.getTranslation(translation);
    expect(failed.status).toBe("pending");
    expect(failed.result!.revision).toBe(done.result!.revision);
    expect(failed.stats).toEqual(done.stats);
    const titles = (await client.getCurrentRevision(result)).pages.map((p) => p.title);
    expect(titles).toEqual(["[de] One"]);
    engine.fail(false);
    advance(60_000);
    await test.docsbase.runJobs();
    const retried = await client.getTranslation(translation);
    expect(retried.status).toBe("completed");
    expect((await client.getCurrentRevision(result)).pages[0]!.title).toBe("[de] Uno");
  });

  it("refuses an engine's answer beyond the page limits, naming the limit, and commits nothing", async () => {
    const engine = fakeEngine();
    let answer: (text: string) => string = (text) => text;
    const translator: Translator = async (request, context) =>
      (await engine.translator(request, context)).map(answer);
    const { test, client, org, space, page } = await setup({ translator });
    await page("One", "First page.");
    const created = await client.createTranslation({
      organizationId: org,
      body: { language: "de", source: { space, language: "en" } },
    });
    const translation = { organizationId: org, translationId: created.id };
    const result = { spaceId: created.result!.space };
    const before = await client.getCurrentRevision(result);
    for (const [broken, limit] of [
      [(text: string) => (text.endsWith("One") ? "T".repeat(256) : text), "title"],
      [(text: string) => (text.endsWith("First page.") ? "B".repeat(1_000_001) : text), "markdown"],
    ] as const) {
      answer = broken;
      await test.docsbase.runJobs();
      const failed = await client.getTranslation(translation);
      expect(failed.status).toBe("pending");
      expect(failed.stats.runs).toBe(0);
      expect((await client.getCurrentRevision(result)).id).toBe(before.id);
      const errors = (await test.docsbase.jobs()).map((job) => job.error);
      expect(errors).toContainEqual(expect.stringMatching(`engine's ${limit} .* breaks the page limits`));
      await client.runTranslation(translation);
    }
  });

  it("validates its input, naming the field", async () => {
    const { client, org, space } = await setup({ translator: fakeEngine().translator });
    const post = (body: CreateTranslationBody) => client.createTranslation({ organizationId: org, body });
    const refused = (field: string) => ({ code: "bad_request", message: expect.stringContaining(field) });
    // A language no client type allows: cast, for its validation message.
    const xx = "xx" as CreateTranslationBody["language"];
    await expect(post({ language: xx, source: { space, language: "en" } })).rejects.toMatchObject(
      refused("body.language"),
    );
    await expect(post({ language: "fr", source: { space: "nope", language: "en" } })).rejects.toMatchObject(
      refused("body.source.space"),
    );
    await expect(post({ language: "en", source: { space, language: "en" } })).rejects.toMatchObject(
      refused("body.language"),
    );
    const huge = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "x".repeat(100_001), marks: [] }] }],
        },
      ],
    };
    await expect(
      post({ language: "fr", source: { space, language: "en" }, instructions: huge }),
    ).rejects.toMatchObject(refused("body.instructions"));
  });

  it("lets admins manage, read members read, and hides everything from others", async () => {
    const {
      test,
      owner,
      api,
      org: organizationId,
      space,
    } = await setup({ translator: fakeEngine().translator });
    const admin = test.as(owner);
    const created = await admin.createTranslation({
      organizationId,
      body: { language: "es", source: { space, language: "en" } },
    });
    const translation = { organizationId, translationId: created.id };
    const email = "reader@acme.test";
    const reader = await test.createUser("Reader", email);
    await admin.inviteUsersToOrganization({ organizationId, body: { emails: [{ email, role: "read" }] } });
    const [invite] = (await test.as(reader).listUserInvites()).items;
    await test.as(reader).acceptUserInvite({ invitationId: invite!.id });
    await admin.updateMemberInOrganizationById({ organizationId, userId: reader.id, body: { role: "read" } });
    const read = test.as(reader);
    expect((await read.getTranslation(translation)).permissions).toEqual({ view: true, edit: false });
    expect((await read.listTranslations({ organizationId })).count).toBe(1);
    await expect(read.runTranslation(translation)).rejects.toMatchObject({ code: "forbidden" });
    await expect(read.deleteTranslation(translation)).rejects.toMatchObject({ code: "forbidden" });
    const outsider = test.as(await test.createUser("Outsider"));
    await expect(outsider.getTranslation(translation)).rejects.toMatchObject({ code: "not_found" });
    await expect(outsider.listTranslations({ organizationId })).rejects.toMatchObject({ code: "not_found" });

    // Over HTTP for the statuses: 205 when it was deleted, 204 when there was nothing.
    const path = `/orgs/${organizationId}/translations/${created.id}`;
    expect((await api("DELETE", path)).status).toBe(205);
    expect((await api("DELETE", path)).status).toBe(204);
    await expect(admin.getTranslation(translation)).rejects.toMatchObject({ code: "not_found" });
    await admin.getSpaceById({ spaceId: created.result!.space });
    await test.docsbase.runJobs();
    expect((await test.docsbase.jobs({ state: "dead" })).length).toBe(0);
  });
});
