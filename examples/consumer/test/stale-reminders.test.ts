import { GitBookAPI } from "@gitbook/api";
import { createTestDocsbase, type Fixture, type TestDocsbase } from "docsbase/testing";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { remindStaleChangeRequests, REMINDER_PREFIX } from "../src/stale-reminders.js";

const ADA = "tok-ada-0123456789abcdef";
const BOT = "tok-bot-0123456789abcdef";

/** The world every test starts from: hard-coded ids and tokens, so tests can name them. */
const fixture: Fixture = {
  users: [
    { id: "u-ada", displayName: "Ada", email: "ada@example.com", token: ADA },
    { id: "u-bot", displayName: "Reminder bot", email: "bot@example.com", token: BOT },
  ],
  organizations: [
    {
      id: "org-acme",
      title: "Acme",
      members: [
        { user: "u-ada", role: "admin" },
        { user: "u-bot", role: "comment" },
      ],
    },
  ],
  spaces: [
    {
      id: "space-handbook",
      organization: "org-acme",
      title: "Handbook",
      pages: [{ id: "page-intro", title: "Intro", markdown: "# Hello" }],
      changeRequests: [
        { id: "cr-typos", subject: "Fix typos", pages: [{ title: "Typos", markdown: "Fixed." }] },
        {
          id: "cr-onboarding",
          subject: "Onboarding guide",
          pages: [{ title: "Onboarding", markdown: "Hi." }],
        },
      ],
    },
  ],
};

const spaceId = "space-handbook";
let test: TestDocsbase;
let bot: GitBookAPI;

// One double for the file, back to the fixture before each test: cheaper than a new one per test.
beforeAll(async () => {
  test = await createTestDocsbase({ fixture, now: "2026-03-02T09:00:00.000Z" });
  // The application's own client, pointed at the double. (`await test.client(BOT)` gives the same,
  // built from the copy of `@gitbook/api` that docsbase resolves: here, installed as a link to the
  // repository, that is another copy than the application's, and its errors would fail the
  // application's `instanceof GitBookAPIError`.)
  bot = new GitBookAPI({ endpoint: test.endpoint, authToken: BOT, serviceBinding: { fetch: test.fetch } });
});
beforeEach(() => test.reset());

/** What the bot does when its scheduler runs it, with the double's time as its own. */
const runBot = (options: { sleep?: (ms: number) => Promise<void> } = {}) =>
  remindStaleChangeRequests(bot, { spaceId, staleAfterDays: 7, now: test.clock.now(), ...options });

/** The bot's reminders on a change request, as Ada reads them. */
async function reminders(changeRequestId: string): Promise<number> {
  const { items } = await test.as(ADA).listCommentsInChangeRequest({ spaceId, changeRequestId });
  return items.filter((comment) => JSON.stringify(comment.body).includes(REMINDER_PREFIX)).length;
}

describe("stale change request reminders", () => {
  it("leaves change requests alone while they are fresh", async () => {
    await test.clock.advance("6d");
    expect(await runBot()).toEqual({ reminded: [], alreadyReminded: [], failed: [] });
    expect(test.calls({ operationId: "postCommentInChangeRequest" })).toEqual([]);
    expect(test.calls({ operationId: "listChangeRequestsForSpace", user: "u-bot" })).toHaveLength(1);
  });

  it("reminds a change request after a week without activity, once", async () => {
    await test.clock.advance("5d");
    await test.as(ADA).updateChangeRequestById({
      spaceId,
      changeRequestId: "cr-onboarding",
      body: { subject: "Onboarding" },
    });
    await test.clock.advance("3d"); // typos: 8 days idle; onboarding: 3

    expect(await runBot()).toEqual({ reminded: ["cr-typos"], alreadyReminded: [], failed: [] });
    const [post] = test.calls({ operationId: "postCommentInChangeRequest" });
    expect(post).toMatchObject({
      method: "POST",
      path: "/spaces/space-handbook/change-requests/cr-typos/comments",
      status: 200,
      user: "u-bot",
      at: new Date("2026-03-10T09:00:00.000Z"),
    });
    expect(JSON.stringify(post?.body)).toContain("has had no activity for 8 days");

    // The next run finds its own reminder and posts nothing.
    expect(await runBot()).toEqual({ reminded: [], alreadyReminded: ["cr-typos"], failed: [] });
    expect(test.calls({ operationId: "postCommentInChangeRequest" })).toHaveLength(1);
    expect(await reminders("cr-typos")).toBe(1);
  });

  it("starts each test from the fixture: no reminder and no call of the test before", async () => {
    expect(test.calls()).toEqual([]);
    expect(test.clock.now().toISOString()).toBe("2026-03-02T09:00:00.000Z");
    expect(await reminders("cr-typos")).toBe(0);
  });

  it("waits the server's Retry-After when it is rate limited, then goes on", async () => {
    await test.clock.advance("8d");
    test.fault({ operationId: "listChangeRequestsForSpace", status: 429, times: 1 });
    const waits: number[] = [];
    const report = await runBot({ sleep: async (ms) => void waits.push(ms) });

    expect(report.reminded.sort()).toEqual(["cr-onboarding", "cr-typos"]);
    const lists = test.calls({ operationId: "listChangeRequestsForSpace" });
    expect(lists.map((call) => call.status)).toEqual([429, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
  });

  it("reports a reminder the server refused and reminds the others", async () => {
    await test.clock.advance("8d");
    test.fault({ operationId: "postCommentInChangeRequest", status: 500, times: 1 });
    const report = await runBot();
    expect(report.failed).toHaveLength(1);
    expect(report.reminded).toHaveLength(1);
    const failed = report.failed[0]!.id;
    // The faulted call stored nothing: no reminder on the one that failed.
    expect(await reminders(failed)).toBe(0);
    expect(await reminders(report.reminded[0]!)).toBe(1);
    expect(
      test
        .calls({ operationId: "postCommentInChangeRequest" })
        .map((call) => call.status)
        .sort(),
    ).toEqual([200, 500]);
  });
});
