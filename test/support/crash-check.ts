import type { CommentModel, Model, Tracked } from "./crash-workload.js";
import type { ApiClient } from "./serve-process.js";

/**
 * What the crash test checks after a restart (test/crash.test.ts): every acknowledged write is
 * there with its acknowledged content; change-request numbers are unique and contiguous from 1;
 * each space's counters, each change request's `comments` and each comment's `replies` equal a
 * recount through the list operations; and no more unacknowledged objects exist than creates were
 * in flight. Each problem found is returned as a sentence naming the object and both values.
 *
 * It then makes the model agree with the server: a write that was in flight at the kill is settled
 * to what the server kept, and the unacknowledged objects found are remembered, so that the next
 * cycle checks against what is now known.
 */

const CHANGE_REQUEST_STATUSES = ["draft", "open", "archived", "merged"] as const;

/** Objects seen in earlier checks that no acknowledgement accounts for (kept writes whose answer was lost). */
export interface Seen {
  readonly changeRequests: Set<string>;
  readonly comments: Set<string>;
  readonly replies: Set<string>;
}

export const newSeen = (): Seen => ({ changeRequests: new Set(), comments: new Set(), replies: new Set() });

/** Settles `tracked` to `actual` when it is the acknowledged or the pending value; a problem otherwise. */
function settle<T>(tracked: Tracked<T>, actual: T, what: string, problems: string[]): void {
  if (actual !== tracked.acked && (tracked.pending === undefined || actual !== tracked.pending)) {
    const pending =
      tracked.pending === undefined ? "" : ` (or the unacknowledged ${JSON.stringify(tracked.pending)})`;
    problems.push(
      `${what}: acknowledged ${JSON.stringify(tracked.acked)}${pending}, found ${JSON.stringify(actual)}`,
    );
  }
  tracked.acked = actual;
  tracked.pending = undefined;
}

/** Checks one comment thread (a space's or a change request's); returns the ids of its comments. */
async function checkThread(
  api: ApiClient,
  path: string,
  openCounter: number,
  what: string,
  problems: string[],
  replyIds: Set<string>,
): Promise<Map<string, any>> {
  const comments = await api.listAll(`${path}/comments?status=all&format=markdown`);
  const open = comments.filter((comment) => comment.status === "open").length;
  if (open !== openCounter)
    problems.push(`${what}: counts ${openCounter} open comments, recount finds ${open}`);
  const byId = new Map<string, any>();
  for (const comment of comments) {
    const replies = await api.listAll(`${path}/comments/${comment.id}/replies?format=markdown`);
    if (replies.length !== comment.replies) {
      problems.push(
        `${what}: comment ${comment.id} counts ${comment.replies} replies, recount finds ${replies.length}`,
      );
    }
    byId.set(comment.id, { ...comment, replyList: replies });
    for (const reply of replies) replyIds.add(reply.id);
  }
  return byId;
}

function checkComment(model: CommentModel, found: any, what: string, problems: string[]): void {
  if (!found && model.status.acked !== "deleted" && model.status.pending !== "deleted") {
    problems.push(`${what}: acknowledged (${model.status.acked}), missing after restart`);
  }
  // A missing comment is reported above (or was deleted): settling it only records that.
  settle(
    model.status,
    found ? (found.status as "open" | "resolved") : "deleted",
    `${what} status`,
    found ? problems : [],
  );
  if (!found) return;
  if (found.body?.markdown !== model.markdown) {
    problems.push(
      `${what}: acknowledged body ${JSON.stringify(model.markdown)}, found ${JSON.stringify(found.body)}`,
    );
  }
  const replies = new Map<string, any>((found.replyList as any[]).map((reply) => [reply.id, reply]));
  for (const reply of model.replies) {
    const stored = replies.get(reply.id);
    if (!stored) problems.push(`${what}: acknowledged reply ${reply.id} is missing`);
    else if (stored.body?.markdown !== reply.markdown) {
      problems.push(
        `${what}: reply ${reply.id} acknowledged ${JSON.stringify(reply.markdown)}, found ${JSON.stringify(stored.body)}`,
      );
    }
  }
}

/** Checks everything against the model (see the file comment); returns the problems found. */
export async function checkAfterRestart(api: ApiClient, model: Model, seen: Seen): Promise<string[]> {
  const problems: string[] = [];
  const foundComments = new Map<string, any>();
  const foundChangeRequests = new Map<string, any>();
  const replyIds = new Set<string>();

  for (const spaceId of model.spaces) {
    const space = await api.send("GET", `/spaces/${spaceId}`);
    if (space.status !== 200) {
      problems.push(`space ${spaceId}: answered ${space.status} after restart`);
      continue;
    }
    const counters = space.body;
    const byStatus = new Map<string, any[]>();
    for (const status of CHANGE_REQUEST_STATUSES) {
      byStatus.set(status, await api.listAll(`/spaces/${spaceId}/change-requests?status=${status}`));
    }
    const all = [...byStatus.values()].flat();
    const recount = {
      changeRequests: all.length,
      changeRequestsOpen: byStatus.get("open")!.length,
      changeRequestsDraft: byStatus.get("draft")!.length,
    };
    for (const [counter, value] of Object.entries(recount)) {
      if (counters[counter] !== value) {
        problems.push(`space ${spaceId}: counter ${counter} is ${counters[counter]}, recount finds ${value}`);
      }
    }
    const numbers = all.map((cr) => cr.number as number).sort((a, b) => a - b);
    const expected = numbers.map((_, index) => index + 1);
    if (JSON.stringify(numbers) !== JSON.stringify(expected)) {
      problems.push(
        `space ${spaceId}: change-request numbers are not 1..${numbers.length}: ${numbers.join(",")}`,
      );
    }

    const path = `/spaces/${spaceId}`;
    const spaceComments = await checkThread(
      api,
      path,
      counters.comments,
      `space ${spaceId}`,
      problems,
      replyIds,
    );
    for (const [id, comment] of spaceComments) foundComments.set(id, comment);
    for (const cr of all) {
      foundChangeRequests.set(cr.id, cr);
      const comments = await checkThread(
        api,
        `${path}/change-requests/${cr.id}`,
        cr.comments,
        `change request #${cr.number} of ${spaceId}`,
        problems,
        replyIds,
      );
      for (const [id, comment] of comments) foundComments.set(id, comment);
    }
  }

  for (const cr of model.changeRequests) {
    const what = `change request ${cr.id} (#${cr.number} of ${cr.space}, writer ${cr.writer})`;
    const found = foundChangeRequests.get(cr.id);
    if (!found) {
      problems.push(`${what}: acknowledged, missing after restart`);
      continue;
    }
    if (found.number !== cr.number || found.subject !== cr.subject || found.space !== cr.space) {
      problems.push(
        `${what}: acknowledged #${cr.number} "${cr.subject}", found #${found.number} "${found.subject}"`,
      );
    }
    settle(cr.status, found.status, `${what} status`, problems);
  }
  for (const comment of model.comments) {
    const where = comment.changeRequest
      ? `change request ${comment.changeRequest}`
      : `space ${comment.space}`;
    checkComment(comment, foundComments.get(comment.id), `comment ${comment.id} on ${where}`, problems);
  }
  for (const page of model.pages) {
    const where = page.changeRequest ? `change request ${page.changeRequest}` : `space ${page.space}`;
    const prefix = page.changeRequest
      ? `/spaces/${page.space}/change-requests/${page.changeRequest}`
      : `/spaces/${page.space}`;
    const read = await api.send("GET", `${prefix}/content/page/${page.id}?format=markdown`);
    const what = `page ${page.id} "${page.title}" in ${where}`;
    if (read.status !== 200) {
      problems.push(`${what}: acknowledged, answered ${read.status} after restart`);
      continue;
    }
    if (read.body.title !== page.title)
      problems.push(`${what}: found title ${JSON.stringify(read.body.title)}`);
    settle(page.markdown, read.body.markdown as string, `${what} markdown`, problems);
  }

  // Unacknowledged objects: at most one per create whose answer was lost.
  const known = {
    changeRequests: new Set(model.changeRequests.map((cr) => cr.id)),
    comments: new Set(model.comments.map((comment) => comment.id)),
    replies: new Set(model.comments.flatMap((comment) => comment.replies.map((reply) => reply.id))),
  };
  const found = {
    changeRequests: foundChangeRequests.keys(),
    comments: foundComments.keys(),
    replies: replyIds.values(),
  };
  for (const kind of ["changeRequests", "comments", "replies"] as const) {
    const extra = [...found[kind]].filter((id) => !known[kind].has(id) && !seen[kind].has(id));
    if (extra.length > model.uncertain[kind]) {
      problems.push(
        `${kind}: ${extra.length} unacknowledged found, only ${model.uncertain[kind]} were in flight at a kill`,
      );
    }
    for (const id of extra) seen[kind].add(id);
  }
  // A lost create that is not there now never will be: its server is gone.
  model.uncertain = { changeRequests: 0, comments: 0, replies: 0, pages: 0 };
  return problems;
}
