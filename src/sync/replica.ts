import { worldOf } from "../docsbase.js";
import type { Client } from "../core/client.js";
import type { MergeConflict } from "../core/content-tree/merge.js";
import { requireRevision } from "../core/content-tree/revisions.js";
import type { PageVersionRecord } from "../core/content-tree/tables.js";
import { renderingFor } from "../core/link-references/markdown-links.js";
import type { World } from "../core/shared/world.js";
import type { ReadTransaction } from "../core/storage/port.js";
import type { Operations } from "../core/operations.js";
import { type ReplicaSpaceRecord, replicaOriginsTable, replicaSpacesTable } from "../core/replicas/tables.js";
import { spacesTable } from "../core/spaces/tables.js";
import { hashToken } from "../core/users/tokens.js";
import { type PulledFile, pendingBetween, pushEntries, rebase, writeMirror } from "./local.js";
import {
  type RemoteChangeRequest,
  type RemoteFile,
  type RemotePage,
  Remote,
  RemoteError,
  ReplicaOfflineError,
  mapLimit,
} from "./remote.js";
import {
  type RemoteSpace,
  type RemoteUser,
  ensureLocalSpace,
  ensureOrigin,
  moveHead,
  readState,
  writeState,
} from "./state.js";
import { ReplicaEvents } from "./events.js";
import type { PullResult, PushResult, Replica, ReplicaOptions, ReplicaStatus } from "./types.js";

const OPEN = new Set(["open", "draft"]);

/**
 * A replica of spaces of a remote docsbase in a local docsbase: pull them, edit them locally (the
 * same operations, in process or through the local handler), push the edits back as one change
 * request. See docs/offline.md.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { indexedDbStorage } from "docsbase/adapters/indexeddb";
 * import { createReplica } from "docsbase/sync";
 *
 * const docsbase = createDocsbase({ storage: indexedDbStorage({ name: "docs" }) });
 * const replica = await createReplica({ docsbase, remote: "https://docs.example.com", token });
 * await replica.pull(spaceId);
 * await replica.client.updatePage({ spaceId, pageId, body: { markdown: "# Edited offline\n" } });
 * await replica.push(spaceId, { subject: "Offline edits" });
 * ```
 */
export async function createReplica(options: ReplicaOptions): Promise<Replica> {
  const world = await worldOf(options.docsbase);
  const base = options.remote.replace(/\/+$/, "");
  const concurrency = options.concurrency ?? 8;
  const events = new ReplicaEvents();
  let online = true;
  const remote = new Remote(base, options.token, options.fetch ?? globalThis.fetch.bind(globalThis), {
    reached: () => {
      if (online) return;
      online = true;
      events.emit("online", {});
    },
    unreachable: (error) => {
      online = false;
      events.emit("offline", { error });
    },
  });

  // The user is known from an earlier session when offline; asked of the remote the first time.
  // (Another token than the one it was learnt from asks again: it may be another user's.)
  let origin = await world.storage.read((tx) => tx.get(replicaOriginsTable, base));
  if (origin?.remoteToken !== hashToken(options.token)) {
    const user = await remote.call<RemoteUser>("GET", "/user");
    origin = await world.storage.write((tx) => ensureOrigin(tx, world, base, user, options.token));
  }
  const { user, localToken } = origin;
  const client = options.docsbase.as({ userId: user }) as Client<Operations>;

  const requireState = async (space: string) => {
    const state = await world.storage.read((tx) => readState(tx, space));
    if (!state || state.remote !== base)
      throw new RemoteError(404, `space: "${space}" was never pulled from ${base}`);
    return state;
  };

  const statusOf = async (state: ReplicaSpaceRecord): Promise<ReplicaStatus> => {
    const pending = await world.storage.read(async (tx) => {
      const head = (await tx.get(spacesTable, state.space))!.revision;
      const [from, to] = await Promise.all([
        requireRevision(tx, world, state.pushed),
        requireRevision(tx, world, head),
      ]);
      return pendingBetween(from, to);
    });
    return {
      space: state.space,
      remoteRevision: state.remoteRevision,
      pulledAt: state.pulledAt,
      pending,
      ...(state.changeRequest ? { changeRequest: state.changeRequest } : {}),
    };
  };

  const pull = async (spaceId: string): Promise<PullResult> => {
    // A push left unanswered is settled first: its body was built on the local revisions this pull
    // would rebase, so it must reach the server (or be refused) before they move.
    if ((await world.storage.read((tx) => readState(tx, spaceId)))?.push) await push(spaceId);
    const known = await world.storage.read((tx) => readState(tx, spaceId));
    const space = await remote.call<RemoteSpace>("GET", `/spaces/${encodeURIComponent(spaceId)}`);
    const unchanged = (state: ReplicaSpaceRecord) => ({
      space: spaceId,
      revision: state.remoteRevision,
      changed: false,
      pages: state.pageCount,
      files: Object.keys(state.files).length,
    });
    const settled = !known?.changeRequest || OPEN.has(known.changeRequest.status);
    if (known && known.remoteRevision === space.revision && settled) {
      events.emit("pulled", { space: spaceId, revision: space.revision, changed: false });
      return unchanged(known);
    }
    const at = `/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(space.revision)}`;
    const [changeRequest, organizationTitle, tree, files] = await Promise.all([
      known?.changeRequest && OPEN.has(known.changeRequest.status)
        ? remote.call<RemoteChangeRequest>(
            "GET",
            `/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(known.changeRequest.id)}`,
          )
        : undefined,
      known
        ? ""
        : remote
            .call<{ title: string }>("GET", `/orgs/${encodeURIComponent(space.organization)}`)
            .then((organization) => organization.title),
      remote
        .call<{ pages: RemotePage[] }>("GET", `${at}/pages`)
        .then((answer) => withMarkdown(at, answer.pages, known)),
      listFiles(`${at}/files`),
    ]);
    const pulledFiles = await mapLimit(files, concurrency, async (file): Promise<PulledFile> => {
      if (known?.files[file.id] === file.downloadURL) return { id: file.id, unchanged: true };
      const bytes = await remote.download(file.downloadURL);
      return {
        id: file.id,
        name: file.name,
        contentType: file.contentType,
        hash: await sha256Hex(bytes),
        data: base64Of(bytes),
        size: bytes.length,
      };
    });
    const pageCount = countPages(tree);
    await world.storage.write(async (tx) => {
      const state = await readState(tx, spaceId);
      const mirrorBase = state ? await requireRevision(tx, world, state.mirror) : null;
      const mirror = await writeMirror(tx, world, spaceId, mirrorBase, tree, pulledFiles);
      let pushed = mirror;
      let record = state?.changeRequest;
      let pendingBase = state?.pendingBase;
      if (!state) {
        await ensureLocalSpace(tx, world, user, { space, organizationTitle }, mirror.id);
      } else {
        const local = (await tx.get(spacesTable, spaceId))!;
        const [current, previous] = await Promise.all([
          requireRevision(tx, world, local.revision),
          requireRevision(tx, world, state.pushed),
        ]);
        const status = changeRequest?.status ?? record?.status;
        if (changeRequest && record) record = { ...record, status: changeRequest.status };
        let head;
        if (status === "merged") {
          // The pushed changes are in the remote revision now: only later local work stays pending.
          head = await rebase(tx, world, previous, current, mirror);
        } else if (status === "archived") {
          // The change request was closed unmerged: what it held is pending again.
          head = await rebase(tx, world, mirrorBase!, current, mirror);
        } else {
          // Still open (or none): the pushed changes stay out of pending, rebased like the rest.
          pushed = (await rebase(tx, world, mirrorBase!, previous, mirror)).revision;
          head = await rebase(tx, world, previous, current, pushed);
        }
        // Pending work that collided with the remote's is pushed against the revision it was written
        // on, not this one: pushed against this one it would silently undo the remote's edit.
        if (head.collided) pendingBase = state.pendingBase ?? state.remoteRevision;
        else if (head.revision.id === pushed.id) pendingBase = undefined;
        await moveHead(tx, world, spaceId, head.revision.id);
      }
      const next: ReplicaSpaceRecord = {
        space: spaceId,
        remote: base,
        remoteRevision: space.revision,
        pulledAt: world.clock().toISOString(),
        mirror: mirror.id,
        pushed: pushed.id,
        pageCount,
        files: Object.fromEntries(files.map((file) => [file.id, file.downloadURL])),
        ...(state?.push ? { push: state.push } : {}),
        ...(pendingBase ? { pendingBase } : {}),
        ...(record && OPEN.has(record.status) ? { changeRequest: record } : {}),
      };
      await writeState(tx, next);
    });
    events.emit("pulled", { space: spaceId, revision: space.revision, changed: true });
    return { space: spaceId, revision: space.revision, changed: true, pages: pageCount, files: files.length };
  };

  /** Every page of the tree with its markdown: fetched one by one only where the list left it out. */
  const withMarkdown = async (
    at: string,
    pages: RemotePage[],
    known: ReplicaSpaceRecord | undefined,
  ): Promise<RemotePage[]> => {
    const missing = new Map<string, string | undefined>();
    const walk = (list: readonly RemotePage[]) => {
      for (const page of list) {
        if (page.markdown === undefined) missing.set(page.id, page.updatedAt);
        walk(page.pages ?? []);
      }
    };
    walk(pages);
    if (missing.size === 0) return pages;
    // A page whose `updatedAt` is the one pulled before did not change: its body is the local one.
    const fetched = known
      ? await world.storage.read((tx) => unchangedBodies(tx, world, known.mirror, missing))
      : new Map<string, string>();
    const toFetch = [...missing.keys()].filter((id) => !fetched.has(id));
    const read = await mapLimit(toFetch, concurrency, async (id) => {
      const page = await remote.call<RemotePage>(
        "GET",
        `${at}/page/${encodeURIComponent(id)}?format=markdown`,
      );
      return [id, page.markdown ?? ""] as const;
    });
    for (const [id, markdown] of read) fetched.set(id, markdown);
    const fill = (list: readonly RemotePage[]): RemotePage[] =>
      list.map((page) => ({
        ...page,
        markdown: page.markdown ?? fetched.get(page.id) ?? "",
        pages: fill(page.pages ?? []),
      }));
    return fill(pages);
  };

  const listFiles = async (path: string): Promise<RemoteFile[]> => {
    const files: RemoteFile[] = [];
    let page: string | undefined;
    do {
      const query = `?limit=100${page ? `&page=${encodeURIComponent(page)}` : ""}`;
      const answer = await remote.call<{ items: RemoteFile[]; next?: { page: string } }>("GET", path + query);
      files.push(...answer.items);
      page = answer.next?.page;
    } while (page);
    return files;
  };

  const update = async (state: ReplicaSpaceRecord, body?: unknown): Promise<PushResult> => {
    const changeRequest = state.changeRequest!;
    const outcome = await remote.call<{ result: "update" | "conflicts"; conflicts?: MergeConflict[] }>(
      "POST",
      `/spaces/${encodeURIComponent(state.space)}/change-requests/${encodeURIComponent(changeRequest.id)}/update`,
      body,
    );
    const { conflicts: _previous, ...rest } = changeRequest;
    const recorded = {
      ...rest,
      result: outcome.result,
      ...(outcome.conflicts?.length ? { conflicts: outcome.conflicts } : {}),
    };
    await world.storage.write(async (tx) => {
      const current = await readState(tx, state.space);
      if (current?.changeRequest?.id === changeRequest.id)
        await writeState(tx, { ...current, changeRequest: recorded });
    });
    const result: PushResult = {
      changeRequest: { id: changeRequest.id, number: changeRequest.number, url: changeRequest.url },
      result: outcome.result,
      ...(outcome.conflicts?.length ? { conflicts: outcome.conflicts } : {}),
    };
    if (outcome.result === "conflicts") {
      events.emit("conflict", {
        space: state.space,
        changeRequest: result.changeRequest,
        conflicts: outcome.conflicts ?? [],
      });
    }
    return result;
  };

  const push = async (
    spaceId: string,
    pushOptions: { readonly subject?: string } = {},
  ): Promise<PushResult | undefined> => {
    const known = await requireState(spaceId);
    // Its change request was merged or archived since the last pull: the pull settles what the
    // pushed changes became (in the remote revision, or pending again) before anything new goes.
    if (known.changeRequest && !OPEN.has(known.changeRequest.status) && !known.push) await pull(spaceId);
    // The push id, its body and the local revision it covers are stored before the request goes.
    const inFlight = await world.storage.write(async (tx) => {
      const state = (await readState(tx, spaceId))!;
      if (state.push) return state;
      const head = (await tx.get(spacesTable, spaceId))!.revision;
      if (head === state.pushed) return undefined;
      const [from, to] = await Promise.all([
        requireRevision(tx, world, state.pushed),
        requireRevision(tx, world, head),
      ]);
      const entries = await pushEntries(tx, world, from, to);
      if (!entries.pages && !entries.files) return undefined;
      const extending = state.changeRequest && OPEN.has(state.changeRequest.status);
      const body = {
        ...(extending
          ? { changeRequest: state.changeRequest!.id }
          : {
              revision: state.pendingBase ?? state.remoteRevision,
              ...(pushOptions.subject ? { subject: pushOptions.subject } : {}),
            }),
        ...entries,
      };
      const next: ReplicaSpaceRecord = {
        ...state,
        push: { id: `push_${world.ids()}`, head, body: JSON.stringify(body) },
      };
      await writeState(tx, next);
      return next;
    });
    if (!inFlight?.push) return undefined;
    const { push: sent } = inFlight;
    let answer: RemoteChangeRequest;
    try {
      answer = await remote.call<RemoteChangeRequest>(
        "PUT",
        `/spaces/${encodeURIComponent(spaceId)}/pushes/${encodeURIComponent(sent.id)}`,
        sent.body,
      );
    } catch (error) {
      // Refused (not unanswered): a retry would be refused alike; the next push starts afresh.
      if (!(error instanceof RemoteError) || error.status >= 500 || error.status === 429) throw error;
      const extended = (JSON.parse(sent.body) as { changeRequest?: string }).changeRequest;
      const current = extended
        ? await remote
            .call<RemoteChangeRequest>(
              "GET",
              `/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(extended)}`,
            )
            .catch(() => undefined)
        : undefined;
      await world.storage.write(async (tx) => {
        const state = await readState(tx, spaceId);
        if (state?.push?.id !== sent.id) return;
        const { push: _dropped, ...rest } = state;
        const closed = current && !OPEN.has(current.status) && rest.changeRequest;
        await writeState(
          tx,
          closed ? { ...rest, changeRequest: { ...closed, status: current.status } } : rest,
        );
      });
      // The change request it extended was merged or archived on the server meanwhile: push again,
      // which pulls first and then opens a new one.
      if (error.status === 409 && current && !OPEN.has(current.status)) return push(spaceId, pushOptions);
      throw error;
    }
    // The push may have been stored without this subject (a sync() that found the remote
    // unreachable) and is retried with its stored body: the subject asked for now is set after.
    // Before the state moves on, so that a failure here leaves the push to be retried whole.
    if (pushOptions.subject !== undefined && answer.subject !== pushOptions.subject) {
      await remote.call(
        "PATCH",
        `/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(answer.id)}`,
        { subject: pushOptions.subject },
      );
    }
    const recorded = {
      id: answer.id,
      number: answer.number,
      status: answer.status,
      url: answer.urls.app,
    };
    const state = await world.storage.write(async (tx) => {
      const current = (await readState(tx, spaceId))!;
      const { push: _done, pendingBase: _settled, ...rest } = current;
      const next: ReplicaSpaceRecord = { ...rest, pushed: sent.head, changeRequest: recorded };
      await writeState(tx, next);
      return next;
    });
    const result = await update(state);
    events.emit("pushed", { space: spaceId, changeRequest: result.changeRequest, result: result.result });
    return result;
  };

  const replica: Replica = {
    user,
    token: localToken,
    client,
    get online() {
      return online;
    },
    pull,
    push,
    async resolve(spaceId, resolutions) {
      const state = await requireState(spaceId);
      if (!state.changeRequest)
        throw new RemoteError(404, `space: "${spaceId}" has no change request to resolve`);
      return update(state, { resolutions });
    },
    async status(spaceId) {
      return statusOf(await requireState(spaceId));
    },
    async spaces() {
      const states = await world.storage.read((tx) =>
        tx.list(replicaSpacesTable, { index: "byRemote", where: [base] }),
      );
      return Promise.all(states.map(statusOf));
    },
    async sync() {
      const states = await world.storage.read((tx) =>
        tx.list(replicaSpacesTable, { index: "byRemote", where: [base] }),
      );
      try {
        for (const state of states) {
          await push(state.space);
          await pull(state.space);
        }
      } catch (error) {
        if (!(error instanceof ReplicaOfflineError)) throw error;
      }
      return replica.spaces();
    },
    on: (event, listener) => events.on(event, listener),
  };
  return replica;
}

/**
 * The bodies, as the API renders them, of the pages of the local mirror whose `updatedAt` is the
 * remote's (`updatedAt` by page id): unchanged since the last pull.
 */
async function unchangedBodies(
  tx: ReadTransaction,
  world: World,
  mirror: string,
  updatedAt: ReadonlyMap<string, string | undefined>,
): Promise<Map<string, string>> {
  const revision = await requireRevision(tx, world, mirror);
  const versions: PageVersionRecord[] = [];
  for (const [id, at] of updatedAt) {
    const version = at === undefined ? undefined : await revision.page(id);
    if (version && version.updatedAt === at) versions.push(version);
  }
  const rendering = await renderingFor(world, revision, versions);
  return new Map(versions.map((version) => [version.page, rendering.markdown(version)]));
}

const countPages = (pages: readonly RemotePage[]): number =>
  pages.reduce((total, page) => total + 1 + countPages(page.pages ?? []), 0);

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
