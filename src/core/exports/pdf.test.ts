import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

const DAY = 24 * 60 * 60 * 1000;

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Handbook" });
  const cr = (await w.api("POST", `/spaces/${space}/change-requests`, { subject: "Onboarding" })).body;
  const base = `/spaces/${space}/change-requests/${cr.id}`;
  const write = (body: unknown) => w.api("POST", `${base}/content/pages`, body);
  return { ...w, space, cr, base, write };
}

async function readPdf(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  return { totalPages, text: text as string };
}

describe("change request PDF export", () => {
  it("answers a URL whose PDF a parser opens, with the pages' headings, lists and code", async () => {
    const { api, base, write, test } = await setup();
    const intro = (
      await write({
        title: "Welcome aboard",
        markdown: "## First week\n\n- Laptop\n- Badge\n\n```\nnpm start\n```",
      })
    ).body;
    await write({ title: "Security rules", parent: intro.id, markdown: "Lock your screen." });
    const { status, body } = await api("GET", `${base}/pdf`);
    expect(status).toBe(200);
    expect(body.url).toMatch(/^http:\/\/docsbase\.test\/v1\/exports\/\w+\.pdf$/);
    const { totalPages, text } = await readPdf(await test.fetch(body.url));
    expect(totalPages).toBeGreaterThanOrEqual(1);
    for (const expected of [
      "Welcome aboard",
      "First week",
      "Laptop",
      "npm start",
      "Security rules",
      "Lock your screen",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("renders one page with only, or a page and its descendants without", async () => {
    const { api, base, write, test } = await setup();
    const parent = (await write({ title: "Parent page", markdown: "Top." })).body;
    await write({ title: "Child page", parent: parent.id, markdown: "Nested." });
    await write({ title: "Sibling page", markdown: "Elsewhere." });
    const only = await readPdf(
      await test.fetch((await api("GET", `${base}/pdf?page=${parent.id}&only=true`)).body.url),
    );
    expect(only.text).toContain("Parent page");
    expect(only.text).not.toContain("Child page");
    const branch = await readPdf(
      await test.fetch((await api("GET", `${base}/pdf?page=${parent.id}`)).body.url),
    );
    expect(branch.text).toContain("Child page");
    expect(branch.text).not.toContain("Sibling page");
  });

  it("spans several PDF pages for long content", async () => {
    const { api, base, write, test } = await setup();
    const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} of a long page.`).join("\n\n");
    await write({ title: "Long read", markdown: long });
    const { totalPages } = await readPdf(await test.fetch((await api("GET", `${base}/pdf`)).body.url));
    expect(totalPages).toBeGreaterThan(2);
  });

  it("validates its query, hides other organizations' content, and expires URLs after 24 hours", async () => {
    const { api, base, outsider, test, advance, space } = await setup();
    expect((await api("GET", `${base}/pdf?only=true`)).body.error.message).toMatch(/^query\.page: /);
    expect((await api("GET", `${base}/pdf?page=missing`)).status).toBe(404);
    expect((await outsider("GET", `${base}/pdf`)).status).toBe(404);
    expect((await api("GET", `/spaces/${space}/change-requests/999/pdf`)).status).toBe(404);
    const { url } = (await api("GET", `${base}/pdf`)).body;
    expect((await test.fetch(url)).status).toBe(200);
    advance(DAY);
    expect((await test.fetch(url)).status).toBe(404);
    expect(await test.docsbase.runJobs()).toBeGreaterThan(0);
    expect((await test.fetch(url)).status).toBe(404);
  });
});
