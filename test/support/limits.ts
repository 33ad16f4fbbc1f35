import { expect } from "vitest";
import { isDocsbaseError } from "../../src/core/shared/errors.js";
import { MAX_ID_LENGTH } from "../../src/core/shared/schema.js";
import { STATUS_OF } from "../../src/http/status.js";

/**
 * Helpers of the input-limit tests (docs/api.md, "Limits"): each folder's `limits.test.ts` sends
 * one over-limit value per kind of bounded field and checks the answer and the stored state.
 */

/** An id one character past the bound. */
export const LONG_ID = "i".repeat(MAX_ID_LENGTH + 1);
/** An id exactly at the bound: accepted by validation (and then usually not found). */
export const LONGEST_ID = "i".repeat(MAX_ID_LENGTH);

interface Answer {
  readonly status: number;
  // Bodies are whatever the test expects, as in the test double.
  readonly body: any;
}

/**
 * A typed client call's outcome as the HTTP answer it stands for, so that the helpers below take
 * both: a refusal's status and error body (from its `DocsbaseError`), or 200 and the result.
 */
export async function answerOf(call: Promise<unknown>): Promise<Answer> {
  try {
    return { status: 200, body: await call };
  } catch (error) {
    if (!isDocsbaseError(error)) throw error;
    const status = STATUS_OF[error.code];
    return { status, body: { error: { code: status, message: error.message } } };
  }
}

/** Asserts a 400 whose message names `field` (`body.logo`, `path.spaceId`, `query.page`...). */
export function expectRefused(answer: Answer, field: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error.code).toBe(400);
  expect(answer.body.error.message).toContain(`${field}:`);
}

/**
 * Sends each refused request, asserting a 400 naming its field, and that `observe` (reads through
 * the API of what the request would change) answers the same before and after all of them.
 */
export async function expectRefusedUnchanged(
  observe: () => Promise<unknown>,
  attempts: readonly (readonly [send: () => Promise<Answer>, field: string])[],
): Promise<void> {
  const before = await observe();
  for (const [send, field] of attempts) expectRefused(await send(), field);
  expect(await observe()).toEqual(before);
}
