import { ChangeRequestStatus, GitBookAPIError, type ChangeRequest, type GitBookAPI } from "@gitbook/api";

/**
 * The "application code" of this example: a bot that reminds the authors of change requests that
 * nobody has touched for a while. It only knows the GitBook API, through the official client.
 */

export interface ReminderOptions {
  readonly spaceId: string;
  /** A change request whose `updatedAt` is older than this is stale. */
  readonly staleAfterDays: number;
  /** The bot's notion of now; tests pass the double's clock. */
  readonly now: Date;
  /** How the bot waits before retrying after a 429 (tests record the wait instead). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** How many times a call is retried after a 429. */
  readonly retries?: number;
}

export interface ReminderReport {
  /** Change requests that got a reminder now. */
  readonly reminded: string[];
  /** Stale change requests that already had the bot's reminder. */
  readonly alreadyReminded: string[];
  /** Change requests whose reminder could not be posted, with the reason. */
  readonly failed: { readonly id: string; readonly reason: string }[];
}

export const REMINDER_PREFIX = "Reminder:";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function remindStaleChangeRequests(
  api: GitBookAPI,
  options: ReminderOptions,
): Promise<ReminderReport> {
  const retry = retrying(options.sleep ?? sleep, options.retries ?? 3);
  const report: ReminderReport = { reminded: [], alreadyReminded: [], failed: [] };
  for (const changeRequest of await openChangeRequests(api, options.spaceId, retry)) {
    const idleDays = (options.now.getTime() - Date.parse(changeRequest.updatedAt)) / DAY_MS;
    if (idleDays < options.staleAfterDays) continue;
    try {
      const { data: comments } = await retry(() =>
        api.spaces.listCommentsInChangeRequest(options.spaceId, changeRequest.id),
      );
      if (comments.items.some((comment) => textOf(comment.body).startsWith(REMINDER_PREFIX))) {
        report.alreadyReminded.push(changeRequest.id);
        continue;
      }
      const days = Math.floor(idleDays);
      await retry(() =>
        api.spaces.postCommentInChangeRequest(options.spaceId, changeRequest.id, {
          body: {
            markdown: `${REMINDER_PREFIX} "${changeRequest.subject ?? "Untitled"}" has had no activity for ${days} days.`,
          },
        }),
      );
      report.reminded.push(changeRequest.id);
    } catch (error) {
      report.failed.push({
        id: changeRequest.id,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return report;
}

async function openChangeRequests(api: GitBookAPI, spaceId: string, retry: Retry): Promise<ChangeRequest[]> {
  const all: ChangeRequest[] = [];
  let page: string | undefined;
  do {
    const { data } = await retry(() =>
      api.spaces.listChangeRequestsForSpace(spaceId, {
        status: ChangeRequestStatus.Open,
        ...(page ? { page } : {}),
      }),
    );
    all.push(...data.items);
    page = data.next?.page;
  } while (page);
  return all;
}

type Retry = <T>(call: () => Promise<T>) => Promise<T>;

/** Retries a call refused with 429, after the server's `Retry-After` (seconds). */
function retrying(wait: (ms: number) => Promise<void>, retries: number): Retry {
  return async (call) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof GitBookAPIError) || error.code !== 429 || attempt >= retries) throw error;
        const seconds = Number(error.response.headers.get("retry-after") ?? "1");
        await wait((Number.isFinite(seconds) ? seconds : 1) * 1000);
      }
    }
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The text of a comment's body: its markdown, or the text of its JSON document. */
function textOf(node: unknown): string {
  if (typeof node !== "object" || node === null) return "";
  const { markdown, document, text, leaves, nodes } = node as {
    markdown?: unknown;
    document?: unknown;
    text?: unknown;
    leaves?: unknown[];
    nodes?: unknown[];
  };
  if (typeof markdown === "string") return markdown;
  if (typeof text === "string") return text;
  return [document, ...(leaves ?? []), ...(nodes ?? [])].map(textOf).join("");
}
