import { describe, expect, it } from "vitest";
import { type Snapshot, TransactionQueue } from "./queue.js";

/** A snapshot of connection `db` that records when it opens and ends in `events`. */
function snapshotOf(db: object, events: string[], name = "s"): Snapshot & { failOpen: number } {
  const snapshot = {
    db,
    /** How many of the next opens fail. */
    failOpen: 0,
    open() {
      if (snapshot.failOpen-- > 0) throw new Error("cannot open");
      events.push(`open ${name}`);
    },
    close: () => events.push(`close ${name}`),
    abandon: () => events.push(`abandon ${name}`),
  };
  return snapshot;
}

const step = (events: string[], name: string, result?: unknown) => async () => {
  events.push(name);
  await Promise.resolve();
  return result ?? name;
};

/** A queue, a snapshot of one connection, and the events they record. */
function setup() {
  const events: string[] = [];
  return { events, queue: new TransactionQueue(), snapshot: snapshotOf({}, events) };
}

describe("TransactionQueue", () => {
  it("runs the reads of one connection waiting together in one snapshot, in order", async () => {
    const { events, queue, snapshot } = setup();
    const answers = await Promise.all([
      queue.read(snapshot, step(events, "r1")),
      queue.read(snapshot, step(events, "r2")),
      queue.read(snapshot, step(events, "r3")),
    ]);
    expect(answers).toEqual(["r1", "r2", "r3"]);
    expect(events).toEqual(["open s", "r1", "r2", "r3", "close s"]);
  });

  it("starts a read on an idle queue after the turn of the event loop, with the reads asked meanwhile", async () => {
    const { events, queue, snapshot } = setup();
    const first = queue.read(snapshot, step(events, "r1"));
    // Asked later in the same turn (as requests read in one poll phase are): they share a snapshot.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const second = queue.read(snapshot, step(events, "r2"));
    await Promise.all([first, second]);
    await queue.exclusive(async () => {});
    expect(events).toEqual(["open s", "r1", "r2", "close s"]);
  });

  it("gives a read that comes while a snapshot is open the next snapshot", async () => {
    const { events, queue, snapshot } = setup();
    let later: Promise<unknown> | undefined;
    await queue.read(snapshot, async () => {
      events.push("r1");
      later = queue.read(snapshot, step(events, "r2"));
    });
    await later;
    await queue.exclusive(async () => {});
    expect(events).toEqual(["open s", "r1", "close s", "open s", "r2", "close s"]);
  });

  it("ends a snapshot at exclusive work, and keeps the order things came in", async () => {
    const { events, queue, snapshot } = setup();
    await Promise.all([
      queue.read(snapshot, step(events, "r1")),
      queue.exclusive(step(events, "w")),
      queue.read(snapshot, step(events, "r2")),
      queue.read(snapshot, step(events, "r3")),
    ]);
    expect(events).toEqual(["open s", "r1", "close s", "w", "open s", "r2", "r3", "close s"]);
  });

  it("shares no snapshot between two connections on one lock", async () => {
    const events: string[] = [];
    const queue = new TransactionQueue();
    const one = snapshotOf({}, events, "one");
    const two = snapshotOf({}, events, "two");
    await Promise.all([
      queue.read(one, step(events, "r1")),
      queue.read(two, step(events, "r2")),
      queue.read(one, step(events, "r3")),
    ]);
    expect(events).toEqual([
      "open one",
      "r1",
      "close one",
      "open two",
      "r2",
      "close two",
      "open one",
      "r3",
      "close one",
    ]);
  });

  it("answers the other reads when one fails, in a snapshot opened again after it", async () => {
    const { events, queue, snapshot } = setup();
    const results = await Promise.allSettled([
      queue.read(snapshot, step(events, "r1")),
      queue.read(snapshot, async () => {
        events.push("r2");
        throw new Error("no such table");
      }),
      queue.read(snapshot, step(events, "r3")),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error("no such table"));
    expect(events).toEqual(["open s", "r1", "r2", "abandon s", "open s", "r3", "close s"]);
  });

  it("rejects a read whose snapshot cannot open, and opens one again for the next", async () => {
    const { events, queue, snapshot } = setup();
    snapshot.failOpen = 1;
    const first = queue.read(snapshot, step(events, "r1"));
    const second = queue.read(snapshot, step(events, "r2"));
    await expect(first).rejects.toThrow("cannot open");
    await expect(second).resolves.toBe("r2");
    expect(events).toEqual(["open s", "r2", "close s"]);
  });
});
