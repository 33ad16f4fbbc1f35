import type { IndexValue, ReadTransaction, WriteTransaction } from "../storage/port.js";
import { type JobQueueRecord, type JobRecord, jobQueuesTable, jobsTable } from "./tables.js";

/**
 * Fairness of the job queue (docs/security.md, "Job queue fairness"). Every organization's jobs
 * form a queue of their own; a runner claims from the queues in turns, all in storage, so that
 * drains of one instance and of several instances sharing the storage keep the same turns:
 *
 * - among the queues with a due job, the one whose turn came first goes: a queue's turn
 *   (`readyAt`) is the later of its earliest waiting job's `runAt` and when it last started a job,
 *   so an organization that just started a job goes behind every organization already waiting;
 *   queues ready at the same instant go by fewer jobs started;
 * - an organization that holds {@link MAX_RUNNING_PER_ORGANIZATION} running leases gets no further
 *   job until one of them ends (or its lease runs out), even when drains are idle: with 4 drains
 *   per instance, 2 are always left for other organizations, so a slow tenant cannot take them all
 *   before another tenant's job falls due.
 *
 * Jobs queued by versions before queues have no `organization`: they run in the shared queue's
 * turn once one of them is the earliest waiting job of the whole queue.
 */

/** Running leases an organization holds at most, across every drain of every instance. */
export const MAX_RUNNING_PER_ORGANIZATION = 2;

/** Queues read per page while looking for the next turn. */
const PAGE = 16;

/**
 * Brings an organization's queue record up to date with its jobs, after they changed in `tx`:
 * its turn follows its earliest waiting job, and `started` (an ISO time) records a job started.
 */
export async function refreshQueue(
  tx: WriteTransaction,
  organization: string,
  started?: string,
): Promise<void> {
  const current = await tx.get(jobQueuesTable, organization);
  const [head] = await tx.list(jobsTable, { index: "byOrganizationRunAt", where: [organization], limit: 1 });
  const lastStartedAt = started ?? current?.lastStartedAt;
  const readyAt = head?.runAt && lastStartedAt && lastStartedAt > head.runAt ? lastStartedAt : head?.runAt;
  if (current && !started && current.readyAt === readyAt) return;
  await tx.put(jobQueuesTable, {
    organization,
    starts: (current?.starts ?? 0) + (started ? 1 : 0),
    ...(lastStartedAt ? { lastStartedAt } : {}),
    ...(readyAt ? { readyAt } : {}),
  });
}

/** The job a runner should start at `now` (an ISO time), if one is due. */
export async function nextDueJob(tx: WriteTransaction, now: string): Promise<JobRecord | undefined> {
  const queued = await nextQueue(tx, now);
  // A job queued before queues waits in none: it goes in the shared queue's turn once earliest.
  const [earliest] = await tx.list(jobsTable, { index: "byRunAt", limit: 1 });
  if (earliest?.runAt && earliest.runAt <= now && earliest.organization === undefined) {
    const shared = await tx.get(jobQueuesTable, "");
    const turn =
      shared?.lastStartedAt && shared.lastStartedAt > earliest.runAt ? shared.lastStartedAt : earliest.runAt;
    if (!queued || turn < (queued.readyAt ?? "")) return earliest;
  }
  if (!queued) return undefined;
  const [job] = await tx.list(jobsTable, {
    index: "byOrganizationRunAt",
    where: [queued.organization],
    limit: 1,
  });
  return job;
}

/**
 * The queue whose turn it is: the first ready one, in turn order, whose organization holds fewer
 * than {@link MAX_RUNNING_PER_ORGANIZATION} running leases.
 */
async function nextQueue(tx: WriteTransaction, now: string): Promise<JobQueueRecord | undefined> {
  let after: IndexValue[] | undefined;
  for (;;) {
    const page = await tx.list(jobQueuesTable, {
      index: "byReadyAt",
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    for (const queue of page) {
      if (!queue.readyAt || queue.readyAt > now) return undefined;
      // A turn that no longer matches its jobs (they changed outside `refreshQueue`) is mended.
      const [head] = await tx.list(jobsTable, {
        index: "byOrganizationRunAt",
        where: [queue.organization],
        limit: 1,
      });
      if (!head?.runAt || head.runAt > now) {
        await refreshQueue(tx, queue.organization);
        continue;
      }
      if ((await runningLeases(tx, queue.organization, now)) < MAX_RUNNING_PER_ORGANIZATION) return queue;
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last?.readyAt) return undefined;
    after = [last.readyAt, last.starts, last.organization];
  }
}

/** How many jobs of `organization` run under a lease at `now`, counted up to the cap. */
async function runningLeases(tx: ReadTransaction, organization: string, now: string): Promise<number> {
  const latest = await tx.list(jobsTable, {
    index: "byOrganizationLease",
    where: [organization],
    reverse: true,
    limit: MAX_RUNNING_PER_ORGANIZATION,
  });
  return latest.filter((job) => job.leasedUntil !== undefined && job.leasedUntil > now).length;
}
