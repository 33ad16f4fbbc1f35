import { describe, expect, it } from "vitest";
import { readPdf } from "../../../test/support/read-pdf.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";

const DAY = 24 * 60 * 60 * 1000;

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Handbook" });
  const cr = await w.client.createChangeRequest({ spaceId: space, body: { subject: "Onboarding" } });
  const ids = { spaceId: space, changeRequestId: cr.id };
  const write = (body: ClientInput<Operations["createPageInChangeRequest"]>["body"]) =>
    w.client.createPageInChangeRequest({ ...ids, body });
  type Query = Omit<ClientInput<Operations["getChangeRequestPDF"]>, "spaceId" | "changeRequestId">;
  /** The change request's PDF export, as `as` asks for it. */
  const pdf = (query: Query = {}, as: TestClient = w.client) => as.getChangeRequestPDF({ ...ids, ...query });
  return { ...w, space, cr, write, pdf };
}

async function readResponse(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  return readPdf(new Uint8Array(await response.arrayBuffer()));
}

describe("change request PDF export", () => {
  it("answers a URL whose PDF a parser opens, with the pages' headings, lists and code", async () => {
    const { pdf, write, test } = await setup();
    const intro = await write({
      title: "Welcome aboard",
      markdown: "## First week\n\n- Laptop\n- Badge\n\n```\nnpm start\n```",
    });
    await write({ title: "Security rules", parent: intro.id, markdown: "Lock your screen." });
    const body = await pdf();
    expect(body.url).toMatch(/^http:\/\/docsbase\.test\/v1\/exports\/\w+\.pdf$/);
    const { totalPages, text } = await readResponse(await test.fetch(body.url));
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
    const { pdf, write, test } = await setup();
    const parent = await write({ title: "Parent page", markdown: "Top." });
    await write({ title: "Child page", parent: parent.id, markdown: "Nested." });
    await write({ title: "Sibling page", markdown: "Elsewhere." });
    const only = await readResponse(await test.fetch((await pdf({ page: parent.id, only: true })).url));
    expect(only.text).toContain("Parent page");
    expect(only.text).not.toContain("Child page");
    const branch = await readResponse(await test.fetch((await pdf({ page: parent.id })).url));
    expect(branch.text).toContain("Child page");
    expect(branch.text).not.toContain("Sibling page");
  });

  it("shows a reusable content's text where a page includes it", async () => {
    const { client, pdf, write, test, cr, space } = await setup();
    const { id } = await client.createReusableContentInChangeRequest({
      spaceId: space,
      changeRequestId: cr.id,
      body: { title: "Warning", markdown: "Always back up first." },
    });
    await write({ title: "Upgrade", markdown: `Before.\n\n{% include "${id}" %}\n\nAfter.` });
    const { text } = await readResponse(await test.fetch((await pdf()).url));
    expect(text).toContain("Always back up first.");
    expect(text).not.toContain("include");
  });

  it("spans several PDF pages for long content", async () => {
    const { pdf, write, test } = await setup();
    const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} of a long page.`).join("\n\n");
    await write({ title: "Long read", markdown: long });
    const { totalPages } = await readResponse(await test.fetch((await pdf()).url));
    expect(totalPages).toBeGreaterThan(2);
  });

  it("validates its query, hides other organizations' content, and expires URLs after 24 hours", async () => {
    const { client, pdf, outsider, test, advance, space } = await setup();
    await expect(pdf({ only: true })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^query\.page: /),
    });
    await expect(pdf({ page: "missing" })).rejects.toMatchObject({ code: "not_found" });
    await expect(pdf({}, outsider.client)).rejects.toMatchObject({ code: "not_found" });
    await expect(
      client.getChangeRequestPDF({ spaceId: space, changeRequestId: "999" }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    const { url } = await pdf();
    expect((await test.fetch(url)).status).toBe(200);
    advance(DAY);
    expect((await test.fetch(url)).status).toBe(404);
    expect(await test.docsbase.runJobs()).toBeGreaterThan(0);
    expect((await test.fetch(url)).status).toBe(404);
  });
});
