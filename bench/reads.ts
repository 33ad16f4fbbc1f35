/**
 * What the read benchmarks share (bench/reusable-contents.ts, written-links.ts, mentions.ts): a
 * test double holding one owner's organization and space, and the timing of a list of reads.
 */
import { createTestDocsbase } from "../src/testing/double.js";

/** A test double (memory storage) with a user who owns an organization "Acme" and a space "Docs" in it. */
export async function ownedSpace() {
  const test = await createTestDocsbase();
  const owner = test.as(await test.createUser("Owner"));
  const organizationId = (await owner.createOrganization({ body: { title: "Acme" } })).id;
  const spaceId = (await owner.createSpace({ organizationId, body: { title: "Docs" } })).id;
  return { test, owner, organizationId, spaceId };
}

/** A labelled read to time. */
export type TimedRead = readonly [label: string, read: () => Promise<unknown>];

/**
 * Runs every read once (what the first read converts or memoizes), then each `times` times in a
 * row, and prints its mean time per read, labels padded to `width`.
 */
export async function timeReads(cases: readonly TimedRead[], times: number, width = 50): Promise<void> {
  for (const [, read] of cases) await read();
  for (const [label, read] of cases) {
    const start = performance.now();
    for (let index = 0; index < times; index++) await read();
    const each = (performance.now() - start) / times;
    console.log(`${`${label}:`.padEnd(width)} ${each.toFixed(3)} ms per read`);
  }
}
