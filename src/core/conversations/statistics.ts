import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { termCountsTable, type TermTotalsRecord, termTotalsTable } from "./tables.js";

/**
 * The organization's term statistics, one row per term (docs/conversations.md, "Cost"): a job
 * reads and writes the rows of its own conversation's terms only, never the whole vocabulary.
 */

/** The inverse document frequencies of the terms loaded; a term not loaded counts as rare. */
export interface TermWeights {
  readonly documents: number;
  idf(term: string): number;
}

/** Smoothed inverse document frequency, never below 1. */
export function inverseFrequency(documents: number, frequency: number): number {
  return Math.log((1 + documents) / (1 + frequency)) + 1;
}

const termKey = (organization: string, term: string) => `${organization}/${term}`;

export async function readTotals(tx: ReadTransaction, organization: string): Promise<TermTotalsRecord> {
  return (await tx.get(termTotalsTable, organization)) ?? { organization, documents: 0, indexed: false };
}

/** The weights of `terms` (one read per term); any other term weighs as one seen once. */
export async function loadWeights(
  tx: ReadTransaction,
  organization: string,
  documents: number,
  terms: Iterable<string>,
): Promise<TermWeights> {
  const frequencies = new Map<string, number>();
  for (const term of new Set(terms)) {
    frequencies.set(term, (await tx.get(termCountsTable, termKey(organization, term)))?.documents ?? 0);
  }
  return { documents, idf: (term) => inverseFrequency(documents, frequencies.get(term) ?? 1) };
}

/** Replaces one conversation's counted terms (`before`, absent if never counted) by `after`. */
export async function recountTerms(
  tx: WriteTransaction,
  totals: TermTotalsRecord,
  before: readonly string[] | undefined,
  after: readonly string[],
): Promise<TermTotalsRecord> {
  const { organization } = totals;
  const change = new Map<string, number>();
  for (const term of before ?? []) change.set(term, (change.get(term) ?? 0) - 1);
  for (const term of after) change.set(term, (change.get(term) ?? 0) + 1);
  for (const [term, delta] of change) {
    if (!delta) continue;
    const key = termKey(organization, term);
    const documents = ((await tx.get(termCountsTable, key))?.documents ?? 0) + delta;
    if (documents > 0) await tx.put(termCountsTable, { key, organization, term, documents });
    else await tx.delete(termCountsTable, key);
  }
  const documents = Math.max(0, totals.documents - (before?.length ? 1 : 0) + (after.length ? 1 : 0));
  const updated = { ...totals, documents };
  await tx.put(termTotalsTable, updated);
  return updated;
}
