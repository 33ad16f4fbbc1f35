import type { ApiClient, Answer } from "./serve-process.js";
import { mulberry32 } from "../../src/testing/faults.js";

/**
 * Concurrent writers for the crash test (test/crash.test.ts) and the model of what the server
 * acknowledged. Each writer sends one request at a time and only ever changes objects it created,
 * so the acknowledged state of each object is exact; the one request a writer has in flight when
 * the server is killed is recorded as `pending` (it may or may not have been committed).
 */

/** A seeded generator (mulberry32, the test double's): the same seed gives the same choices. */
export const seededRandom = mulberry32;

/** A value as acknowledged, and the one an unacknowledged write in flight asked for, if any. */
export interface Tracked<T> {
  acked: T;
  pending?: T | undefined;
}

export type ChangeRequestStatus = "draft" | "open" | "archived";
export type CommentStatus = "open" | "resolved" | "deleted";

export interface ChangeRequestModel {
  readonly writer: number;
  readonly space: string;
  readonly id: string;
  readonly number: number;
  readonly subject: string;
  readonly status: Tracked<ChangeRequestStatus>;
}

export interface CommentModel {
  readonly writer: number;
  readonly space: string;
  /** The change request's id, or undefined for a comment on the space. */
  readonly changeRequest: string | undefined;
  readonly id: string;
  readonly markdown: string;
  readonly status: Tracked<CommentStatus>;
  readonly replies: { id: string; markdown: string }[];
}

export interface PageModel {
  readonly writer: number;
  readonly space: string;
  readonly changeRequest: string | undefined;
  readonly id: string;
  readonly title: string;
  readonly markdown: Tracked<string>;
}

/** Creates whose answer never came: each may or may not have been committed. */
export interface UncertainCreates {
  changeRequests: number;
  comments: number;
  replies: number;
  pages: number;
}

/** Everything acknowledged over all cycles. */
export class Model {
  readonly changeRequests: ChangeRequestModel[] = [];
  readonly comments: CommentModel[] = [];
  readonly pages: PageModel[] = [];
  uncertain: UncertainCreates = { changeRequests: 0, comments: 0, replies: 0, pages: 0 };
  /** Acknowledged writes, all cycles. */
  acknowledged = 0;
  /** Answers that were neither 2xx nor a refusal to retry later (429): each is a failure. */
  readonly unexpected: string[] = [];

  constructor(readonly spaces: readonly string[]) {}
}

/** One write: what to send, and what its acknowledgement (or its loss) means for the model. */
interface Write {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** Called with the 2xx answer. */
  readonly acknowledge: (answer: Answer) => void;
  /** The creation this write would make, counted as uncertain when its answer is lost. */
  readonly creates?: keyof UncertainCreates;
  /** The tracked value this write changes: its `pending` is set while in flight. */
  readonly changes?: { tracked: Tracked<any>; to: unknown };
}

const threadPath = (space: string, changeRequest: string | undefined) =>
  changeRequest ? `/spaces/${space}/change-requests/${changeRequest}` : `/spaces/${space}`;

const contentPath = (space: string, changeRequest: string | undefined) =>
  `${threadPath(space, changeRequest)}/content`;

/** The next write of `writer`, chosen with `random` among what its objects allow. */
function nextWrite(model: Model, writer: number, random: () => number, label: string): Write {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const space = pick(model.spaces)!;
  const mine = <T extends { writer: number }>(items: readonly T[]) =>
    items.filter((item) => item.writer === writer);
  const editable = mine(model.changeRequests).filter((cr) => cr.status.acked !== "archived");
  const comments = mine(model.comments).filter((comment) => comment.status.acked !== "deleted");
  const pages = mine(model.pages).filter(
    (page) => !page.changeRequest || editable.some((cr) => cr.id === page.changeRequest),
  );
  const roll = random();

  if (roll < 0.12 && editable.length > 0) {
    const cr = pick(editable)!;
    const to = pick((["draft", "open", "archived"] as const).filter((status) => status !== cr.status.acked))!;
    return {
      method: "PATCH",
      path: `/spaces/${cr.space}/change-requests/${cr.id}`,
      body: { status: to },
      changes: { tracked: cr.status, to },
      acknowledge: () => (cr.status.acked = to),
    };
  }
  if (roll < 0.22 && comments.length > 0) {
    const comment = pick(comments)!;
    const to: CommentStatus = comment.status.acked === "open" ? "resolved" : "open";
    return {
      method: "PUT",
      path: `${threadPath(comment.space, comment.changeRequest)}/comments/${comment.id}`,
      body: { resolved: to === "resolved" },
      changes: { tracked: comment.status, to },
      acknowledge: () => (comment.status.acked = to),
    };
  }
  if (roll < 0.27 && comments.length > 0) {
    const comment = pick(comments)!;
    return {
      method: "DELETE",
      path: `${threadPath(comment.space, comment.changeRequest)}/comments/${comment.id}`,
      changes: { tracked: comment.status, to: "deleted" },
      acknowledge: () => (comment.status.acked = "deleted"),
    };
  }
  if (roll < 0.42 && comments.length > 0) {
    const comment = pick(comments)!;
    const markdown = `Reply ${label}`;
    return {
      method: "POST",
      path: `${threadPath(comment.space, comment.changeRequest)}/comments/${comment.id}/replies`,
      body: { body: { markdown } },
      creates: "replies",
      acknowledge: ({ body }) => comment.replies.push({ id: body.id, markdown }),
    };
  }
  if (roll < 0.5 && pages.length > 0) {
    const page = pick(pages)!;
    const markdown = `Edited ${label}`;
    return {
      method: "PATCH",
      path: `${contentPath(page.space, page.changeRequest)}/page/${page.id}`,
      body: { markdown },
      changes: { tracked: page.markdown, to: markdown },
      acknowledge: () => (page.markdown.acked = markdown),
    };
  }
  if (roll < 0.62) {
    const cr = random() < 0.3 ? pick(editable) : undefined;
    const at = cr?.space ?? space;
    const title = `Page ${label}`;
    const markdown = `Body of ${label}`;
    return {
      method: "POST",
      path: `${contentPath(at, cr?.id)}/pages`,
      body: { title, markdown },
      creates: "pages",
      acknowledge: ({ body }) =>
        model.pages.push({
          writer,
          space: at,
          changeRequest: cr?.id,
          id: body.id,
          title,
          markdown: { acked: markdown },
        }),
    };
  }
  if (roll < 0.82) {
    const cr = random() < 0.4 ? pick(editable) : undefined;
    const at = cr?.space ?? space;
    const markdown = `Comment ${label}`;
    return {
      method: "POST",
      path: `${threadPath(at, cr?.id)}/comments`,
      body: { body: { markdown } },
      creates: "comments",
      acknowledge: ({ body }) =>
        model.comments.push({
          writer,
          space: at,
          changeRequest: cr?.id,
          id: body.id,
          markdown,
          status: { acked: "open" },
          replies: [],
        }),
    };
  }
  const status = random() < 0.7 ? "open" : "draft";
  const subject = `CR ${label}`;
  return {
    method: "POST",
    path: `/spaces/${space}/change-requests`,
    body: { subject, status },
    creates: "changeRequests",
    acknowledge: ({ body }) =>
      model.changeRequests.push({
        writer,
        space,
        id: body.id,
        number: body.number,
        subject,
        status: { acked: status },
      }),
  };
}

export interface WriterOptions {
  readonly api: ApiClient;
  readonly model: Model;
  readonly writer: number;
  readonly random: () => number;
  /** Distinguishes this cycle's content from earlier cycles'. */
  readonly cycle: number;
  /** Most writes this writer attempts in the cycle. */
  readonly maxWrites: number;
  /** True once the server is being killed: no new write starts. */
  readonly stopped: () => boolean;
  /** Called after each acknowledged write (may kill the server). */
  readonly onAcknowledged: () => void;
}

/** Runs one writer until it is stopped, its server is gone, or it made `maxWrites` attempts. */
export async function runWriter(options: WriterOptions): Promise<void> {
  const { api, model, writer } = options;
  for (let attempt = 0; attempt < options.maxWrites && !options.stopped(); attempt++) {
    const write = nextWrite(model, writer, options.random, `c${options.cycle}-w${writer}-${attempt}`);
    if (write.changes) write.changes.tracked.pending = write.changes.to;
    let answer: Answer;
    try {
      answer = await api.send(write.method, write.path, write.body);
    } catch (error) {
      // The answer is lost: the change stays pending, a creation is uncertain.
      if (write.creates) model.uncertain[write.creates]++;
      if (!options.stopped()) {
        model.unexpected.push(`${write.method} ${write.path} failed before the kill: ${String(error)}`);
      }
      return;
    }
    if (write.changes) write.changes.tracked.pending = undefined;
    if (answer.status >= 200 && answer.status < 300) {
      write.acknowledge(answer);
      model.acknowledged++;
      options.onAcknowledged();
    } else if (answer.status !== 429) {
      model.unexpected.push(
        `${write.method} ${write.path} answered ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
  }
}
