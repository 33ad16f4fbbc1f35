import { TranslationLanguage } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Translator } from "../../src/core/translations/translator.js";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

const shout: Translator = async ({ texts, to }) => texts.map((text) => `${to}: ${text.toUpperCase()}`);

describe.each(STORAGE_KINDS)("conformance: translations (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind, { translator: shout });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.translations);
    h.expectConformant();
    await h.close();
  });

  it("creates, runs, lists, updates and deletes translations", async () => {
    const user = await h.test.createUser("Owner", `owner-${kind}@translations.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Acme" } })).id;
    const { data: space } = await api.orgs.createSpace(org, { title: "Guide", language: "en" as never });
    await h.test.as(user).createPage({
      spaceId: space.id,
      body: { title: "Welcome", markdown: "Read `the code` at https://example.com today." },
    });

    const {
      data: created,
      status,
      headers,
    } = await api.orgs.createTranslation(org, {
      language: TranslationLanguage.Fr,
      source: { space: space.id, language: TranslationLanguage.En },
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(created.urls.location);
    expect(created).toMatchObject({ object: "translation", status: "pending", language: "fr" });
    await h.test.docsbase.runJobs();

    const { data: translation } = await api.orgs.getTranslation(org, created.id);
    expect(translation.status).toBe("completed");
    expect(translation.stats).toMatchObject({ runs: 1, totalPages: 1, latestPages: 1 });
    const {
      data: { pages },
    } = await api.spaces.getCurrentRevision(translation.result!.space);
    expect(pages[0]!.title).toBe("fr: WELCOME");
    const { data: markdown } = await api.spaces.getPageInRevisionById(
      translation.result!.space,
      translation.result!.revision,
      pages[0]!.id,
      { format: "markdown" },
    );
    expect(JSON.stringify(markdown)).toContain("fr: READ `the code` fr: AT https://example.com fr: TODAY.");

    const { data: listed } = await api.orgs.listTranslations(org);
    expect(listed.items.map((item) => item.id)).toEqual([created.id]);
    const { data: updated } = await api.orgs.updateTranslation(org, created.id, {
      instructions: { object: "document", data: {}, nodes: [] },
    });
    expect(updated.id).toBe(created.id);
    expect((await api.orgs.runTranslation(org, created.id)).status).toBe(204);
    await h.test.docsbase.runJobs();

    const outsider = h.client((await h.test.createUser("Outsider", `out-${kind}@translations.test`)).token);
    expect(await statusOf(outsider.orgs.getTranslation(org, created.id))).toBe(404);
    expect((await api.orgs.deleteTranslation(org, created.id)).status).toBe(205);
    expect((await api.orgs.deleteTranslation(org, created.id)).status).toBe(204);
    expect(await statusOf(api.orgs.getTranslation(org, created.id))).toBe(404);
  });
});
