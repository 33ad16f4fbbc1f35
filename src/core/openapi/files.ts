import { parseDocument } from "yaml";
import { isOutboundError } from "../net/outbound-error.js";
import type { FetchFunction } from "../net/outbound.js";
import { type Budget, Failure, parseFailure } from "./failure.js";
import { measureParsed } from "./measure.js";
import { MAX_FILE_BYTES, MAX_PROCESSING_MS, MAX_REPORTED_ERRORS, MAX_TOTAL_BYTES } from "./limits.js";

/** Reading one file of a spec: fetching it within the limits, and parsing it. */

export function countBytes(text: string, where: string, budget: Budget) {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_FILE_BYTES) {
    throw new Failure("FETCH_ERROR", [
      { message: `${where}: larger than the limit of ${MAX_FILE_BYTES} bytes`, code: "FETCH_ERROR" },
    ]);
  }
  budget.bytes += bytes;
  if (budget.bytes > MAX_TOTAL_BYTES) {
    throw new Failure("FETCH_ERROR", [
      {
        message: `${where}: the document and its references exceed the limit of ${MAX_TOTAL_BYTES} bytes`,
        code: "FETCH_ERROR",
      },
    ]);
  }
}

/** GETs one file through the guarded fetch; fails with FETCH_TIMEOUT or FETCH_ERROR naming `where`. */
export async function fetchFile(
  fetch: FetchFunction,
  url: string,
  where: string,
  budget: Budget,
): Promise<{ url: string; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5" },
      signal: budget.deadline,
    });
  } catch (error) {
    if (budget.deadline.aborted) {
      const message = `${where}: ${url}: the processing passed its deadline (at most ${MAX_PROCESSING_MS} ms)`;
      throw new Failure("FETCH_TIMEOUT", [{ message, code: "FETCH_TIMEOUT" }]);
    }
    if (isOutboundError(error)) {
      const code = error.code === "timeout" ? "FETCH_TIMEOUT" : "FETCH_ERROR";
      const detail = error.code === "too_large" ? `larger than the outbound limit` : error.message;
      throw new Failure(code, [{ message: `${where}: ${url}: ${detail} (${error.code})`, code }]);
    }
    throw new Failure("FETCH_ERROR", [
      { message: `${where}: ${url}: ${String(error)}`, code: "FETCH_ERROR" },
    ]);
  }
  if (!response.ok) {
    throw new Failure("FETCH_ERROR", [
      { message: `${where}: ${url}: the server answered ${response.status}`, code: "FETCH_ERROR" },
    ]);
  }
  const text = await response.text();
  countBytes(text, `${where}: ${url}`, budget);
  return { url: response.url || url, text };
}

/**
 * Parses JSON, else YAML (1.2, a superset of JSON); a failure names the line and column. The value
 * counts against the budget's resolved bytes, and its nesting is bounded (`measureParsed`).
 */
export function parseText(text: string, where: string, budget: Budget): unknown {
  const value = parseJSONOrYAML(text, where);
  measureParsed(value, where, budget);
  return value;
}

function parseJSONOrYAML(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: YAML below.
  }
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length) {
    throw new Failure(
      "PARSE_ERROR",
      document.errors.slice(0, MAX_REPORTED_ERRORS).map((error) => {
        const at = error.linePos?.[0];
        return {
          message: `${where}${at ? `:${at.line}:${at.col}` : ""}: ${error.message.split("\n")[0]}`,
          code: "PARSE_ERROR",
        };
      }),
    );
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw parseFailure(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
