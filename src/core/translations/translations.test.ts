import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { markdownSegments, replaceSegments } from "./segments.js";
import type { TranslationRequest, Translator } from "./translator.js";

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
  const org = (await api("POST", "/orgs", { title: "Acme" })).body.id as string;
  const space = (await api("POST", `/orgs/${org}/spaces`, { title: "Guide", language: "en" })).body
    .id as string;
  const page = async (title: string, markdown: string, description?: string) =>
    (
      await api("POST", `/spaces/${space}/content/pages`, {
        title,
        markdown,
        ...(description ? { description } : {}),
      })
    ).body.id as string;
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  /** Runs the queued jobs with the clock moving 3 s inside the engine call (for durations). */
  return { test, owner, api, as, org, space, page, advance };
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
    const { api, org, space } = await setup({ onError: (error) => reported.push(error) });
    const spacesBefore = (await api("GET", `/orgs/${org}/spaces`)).body.count;
    const created = await api("POST", `/orgs/${org}/translations`, {
      language: "fr",
      source: { space, language: "en" },
    });
    expect(created.status).toBe(503);
    expect(created.body.error.message).toContain("translator");
    expect(created.body.error.message).toContain("DOCSBASE_TRANSLATOR_URL");
    expect((await api("GET", `/orgs/${org}/translations`)).body.count).toBe(0);
    expect((await api("GET", `/orgs/${org}/spaces`)).body.count).toBe(spacesBefore);
    // A setting left out is not an outage: nothing is reported as unexpected.
    expect(reported).toEqual([]);
  });

  it("translates every page into one revision of the result space, then only what changed", async () => {
    const engine = fakeEngine();
    const { test, api, org, space, page } = await setup({ translator: engine.translator });
    const install = await page("Install", MARKDOWN, "How to install");
    await page("Usage", "Use it **daily**.");
    const created = await api("POST", `/orgs/${org}/translations`, {
      language: "fr",
      source: { space, language: "en" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(
      `${test.endpoint}/v1/orgs/${org}/translations/${created.body.id}`,
    );
    expect(created.body).toMatchObject({ object: "translation", status: "pending", language: "fr" });
    const id = created.body.id as string;
    const result = created.body.result.space as string;
    const initial = created.body.result.revision as string;
    expect((await api("GET", `/spaces/${result}`)).body).toMatchObject({
      title: "Guide (fr)",
      language: "fr",
    });

    await test.docsbase.runJobs();
    const first = (await api("GET", `/orgs/${org}/translations/${id}`)).body;
    expect(first.status).toBe("completed");
    expect(first.result.revision).not.toBe(initial);
    expect((await api("GET", `/spaces/${result}/revisions/${first.result.revision}`)).status).toBe(200);
    const sentFirst = engine.sent();
    expect(sentFirst).toContain("Install");
    expect(sentFirst).toContain("How to install");
    expect(sentFirst.join("\n")).not.toMatch(/npm install|echo hello|space\.vars|https:/);
    expect(first.stats).toMatchObject({ runs: 1, totalPages: 2, latestPages: 2 });
    expect(first.stats.latestWords).toBe(sentFirst.reduce((n, t) => n + t.split(/\s+/).length, 0));
    expect(first.stats.totalWords).toBe(first.stats.latestWords);

    const pages = (await api("GET", `/spaces/${result}/content`)).body.pages as any[];
    expect(pages.map((p) => p.title)).toEqual(["[fr] Install", "[fr] Usage"]);
    expect(pages[0].description).toBe("[fr] How to install");
    const markdown = (await api("GET", `/spaces/${result}/content/page/${install}?format=markdown`)).body;
    expect(JSON.stringify(markdown)).toContain("echo hello world");

    // Change one page: only its texts are sent again.
    await api("PATCH", `/spaces/${space}/content/page/${install}`, { title: "Install it" });
    engine.calls.length = 0;
    expect((await api("POST", `/orgs/${org}/translations/${id}/run`)).status).toBe(204);
    expect((await api("GET", `/orgs/${org}/translations/${id}`)).body.status).toBe("pending");
    await test.docsbase.runJobs();
    expect(engine.sent()).toContain("Install it");
    expect(engine.sent()).not.toContain("Usage");
    const second = (await api("GET", `/orgs/${org}/translations/${id}`)).body;
    expect(second.stats).toMatchObject({ runs: 2, totalPages: 2, latestPages: 1 });

    // Nothing changed: nothing sent, no new revision.
    engine.calls.length = 0;
    await api("POST", `/orgs/${org}/translations/${id}/run`);
    await test.docsbase.runJobs();
    expect(engine.calls).toHaveLength(0);
    const third = (await api("GET", `/orgs/${org}/translations/${id}`)).body;
    expect(third.result.revision).toBe(second.result.revision);
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
    expect((await api("PUT", `/orgs/${org}/translations/${id}`, { instructions })).status).toBe(200);
    engine.calls.length = 0;
    await api("POST", `/orgs/${org}/translations/${id}/run`);
    await test.docsbase.runJobs();
    expect(engine.calls[0]?.instructions).toContain("Be formal");
    expect(engine.sent()).toContain("Usage");
  });

  it("leaves the previous result when the engine fails midway, and retries", async () => {
    const engine = fakeEngine();
    const { test, api, org, space, page, advance } = await setup({ translator: engine.translator });
    const first = await page("One", "First page.");
    const created = (
      await api("POST", `/orgs/${org}/translations`, { language: "de", source: { space, language: "en" } })
    ).body;
    await test.docsbase.runJobs();
    const done = (await api("GET", `/orgs/${org}/translations/${created.id}`)).body;
    await api("PATCH", `/spaces/${space}/content/page/${first}`, { title: "Uno" });
    engine.fail(true);
    await api("POST", `/orgs/${org}/translations/${created.id}/run`);
    await test.docsbase.runJobs();
    const failed = (await api("GET", `/orgs/${org}/translations/${created.id}`)).body;
    expect(failed.status).toBe("pending");
    expect(failed.result.revision).toBe(done.result.revision);
    expect(failed.stats).toEqual(done.stats);
    const titles = (await api("GET", `/spaces/${created.result.space}/content`)).body.pages.map(
      (p: any) => p.title,
    );
    expect(titles).toEqual(["[de] One"]);
    engine.fail(false);
    advance(60_000);
    await test.docsbase.runJobs();
    const retried = (await api("GET", `/orgs/${org}/translations/${created.id}`)).body;
    expect(retried.status).toBe("completed");
    expect((await api("GET", `/spaces/${created.result.space}/content`)).body.pages[0].title).toBe(
      "[de] Uno",
    );
  });

  it("validates its input, naming the field", async () => {
    const { api, org, space } = await setup({ translator: fakeEngine().translator });
    const post = (body: unknown) => api("POST", `/orgs/${org}/translations`, body);
    let answer = await post({ language: "xx", source: { space, language: "en" } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("body.language");
    answer = await post({ language: "fr", source: { space: "nope", language: "en" } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("body.source.space");
    answer = await post({ language: "en", source: { space, language: "en" } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("body.language");
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
    answer = await post({ language: "fr", source: { space, language: "en" }, instructions: huge });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("body.instructions");
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
