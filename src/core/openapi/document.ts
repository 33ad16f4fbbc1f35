import { validate } from "@scalar/openapi-parser";
import type { FetchFunction } from "../net/outbound.js";
import { type Budget, Failure, parseFailure } from "./failure.js";
import { countBytes, fetchFile, parseText } from "./files.js";
import { MAX_PROCESSING_MS, MAX_REPORTED_ERRORS } from "./limits.js";
import { fetchReferences, inline, isObject } from "./references.js";
import type { OpenAPIErrorObject, OpenAPISpecProcessingErrorCode } from "./tables.js";

export * from "./limits.js";

/**
 * Turning a spec's source into a checked document (docs/openapi-specs.md, "Processing"): fetch it
 * through the guarded `fetch` (URL sources), parse it as JSON or YAML, fetch every file its
 * external `$ref`s reach through the same `fetch`, then validate the whole as Swagger 2.0,
 * OpenAPI 3.0 or 3.1 with `@scalar/openapi-parser`. The parser never reaches the network itself:
 * it gets one self-contained document in which each external reference is replaced by what it
 * points to. Pure apart from `fetch`, so it runs on every runtime.
 */

export type ProcessResult =
  | {
      readonly ok: true;
      /** Every file by key, the document first. */
      readonly files: ReadonlyMap<string, unknown>;
      readonly root: string;
      readonly specification: "OpenAPI" | "Swagger";
    }
  | {
      readonly ok: false;
      readonly code: OpenAPISpecProcessingErrorCode;
      readonly errors: readonly OpenAPIErrorObject[];
    };

/**
 * Fetches, parses, resolves and validates a source. `textKey` names a text source's document in
 * the result's files: the URL its content is served at. Never throws for a bad document or an
 * unreachable URL: those are results.
 *
 * @example
 * ```ts
 * const result = await processSource(world.fetch, { url: "https://example.com/openapi.yaml" }, key);
 * if (!result.ok) console.log(result.code, result.errors);
 * ```
 */
export async function processSource(
  fetch: FetchFunction,
  source: { readonly url: string } | { readonly text: string },
  textKey: string,
  /** Stops the processing early (a job's deadline), as its own deadline does. */
  signal?: AbortSignal,
): Promise<ProcessResult> {
  try {
    const files = new Map<string, unknown>();
    const budget: Budget = {
      bytes: 0,
      resolvedBytes: 0,
      files: 0,
      deadline: eitherSignal(AbortSignal.timeout(MAX_PROCESSING_MS), signal),
    };
    let root: string;
    let rootBase: string | undefined;
    if ("url" in source) {
      const fetched = await fetchFile(fetch, source.url, `source.url`, budget);
      root = fetched.url;
      rootBase = fetched.url;
      files.set(root, parseText(fetched.text, root, budget));
    } else {
      root = textKey;
      countBytes(source.text, "source.text", budget);
      files.set(root, parseText(source.text, "source.text", budget));
    }
    const document = files.get(root);
    const specification = kindOf(document);
    if (!specification) {
      throw parseFailure(
        `${root}: not an OpenAPI document: expected "openapi" with a 3.0 or 3.1 version, or "swagger": "2.0"`,
      );
    }
    // The validator would default a missing `info.version` to "0.1.0"; the specifications require it.
    const info = (document as Record<string, unknown>)["info"];
    if (isObject(info) && typeof info["version"] !== "string") {
      throw parseFailure(`${root}#/info: must have required property 'version'`);
    }
    const bases = new Map<string, string | undefined>([[root, rootBase]]);
    await fetchReferences(fetch, files, bases, root, budget);
    const resolved = inline(files, bases, root);
    const result = await validate(resolved as Record<string, unknown>).catch((error: unknown) => {
      // A document the validator cannot handle at all is as invalid as one it rejects.
      throw parseFailure(`${root}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!result.valid) {
      throw new Failure(
        "PARSE_ERROR",
        (result.errors ?? []).slice(0, MAX_REPORTED_ERRORS).map((error) => ({
          message: `${root}${"path" in error && error.path ? `#${String(error.path)}` : ""}: ${error.message}`,
          code: "PARSE_ERROR",
        })),
      );
    }
    return { ok: true, files, root, specification };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, code: error.code, errors: error.errors };
    throw error;
  }
}

/** "OpenAPI" or "Swagger" for a document of a supported version, else undefined. */
function kindOf(document: unknown): "OpenAPI" | "Swagger" | undefined {
  if (!isObject(document)) return undefined;
  if (typeof document["openapi"] === "string" && /^3\.[01](\.\d+)?$/.test(document["openapi"])) {
    return "OpenAPI";
  }
  if (document["swagger"] === "2.0") return "Swagger";
  return undefined;
}

/** A signal that aborts as soon as `first` or `second` does. */
function eitherSignal(first: AbortSignal, second: AbortSignal | undefined): AbortSignal {
  if (!second) return first;
  const either = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) either.abort(signal.reason);
    else signal.addEventListener("abort", () => either.abort(signal.reason), { once: true });
  }
  return either.signal;
}
