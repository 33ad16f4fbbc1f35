import type { TranslationRequest, Translator, TranslatorContext } from "./translator.js";

/**
 * A translation engine speaking LibreTranslate's HTTP API (docs/translations.md, "LibreTranslate"):
 * `POST <url>/translate` with `{q, source, target, format: "text", api_key?}`, `q` an array of
 * texts, answered `{translatedText: string[]}`. Texts go in batches of at most `batchSize` texts
 * and `maxBatchCharacters` characters (a longer text goes alone), one request after another,
 * through the guarded outbound fetch docsbase lends the engine. A failed request (a non-2xx
 * status, a body that is not such an answer, a network failure) fails the whole call, with the
 * server's `error` message when it sent one. Runtime-neutral: it uses only `fetch` and JSON.
 *
 * @example
 * ```ts
 * createDocsbase({ storage, translator: libreTranslate({ url: "https://translate.example.com" }) });
 * ```
 */
export interface LibreTranslateOptions {
  /** Base URL of the server; `/translate` is appended. */
  readonly url: string;
  /** Sent as `api_key` when set. */
  readonly apiKey?: string;
  /** Most texts per request. Default 50. */
  readonly batchSize?: number;
  /** Most characters per request, summed over its texts. Default 20,000. */
  readonly maxBatchCharacters?: number;
}

/**
 * The reference's language codes that LibreTranslate spells otherwise; the others are the same
 * (`en`, `fr`, `zh`...). A language the server does not know fails the run with its message.
 */
const LIBRETRANSLATE_CODES: Readonly<Record<string, string>> = { "pt-br": "pt-BR", no: "nb" };

export const libreTranslateCode = (language: string) => LIBRETRANSLATE_CODES[language] ?? language;

export function libreTranslate(options: LibreTranslateOptions): Translator {
  const endpoint = `${options.url.replace(/\/+$/, "")}/translate`;
  const batchSize = options.batchSize ?? 50;
  const maxCharacters = options.maxBatchCharacters ?? 20_000;
  return async (request: TranslationRequest, { fetch }: TranslatorContext) => {
    const out: string[] = [];
    for (const batch of batches(request.texts, batchSize, maxCharacters)) {
      out.push(...(await translateBatch(fetch, endpoint, options.apiKey, request, batch)));
    }
    return out;
  };
}

function* batches(texts: readonly string[], size: number, maxCharacters: number) {
  let batch: string[] = [];
  let characters = 0;
  for (const text of texts) {
    if (batch.length > 0 && (batch.length >= size || characters + text.length > maxCharacters)) {
      yield batch;
      batch = [];
      characters = 0;
    }
    batch.push(text);
    characters += text.length;
  }
  if (batch.length > 0) yield batch;
}

async function translateBatch(
  fetch: TranslatorContext["fetch"],
  endpoint: string,
  apiKey: string | undefined,
  request: TranslationRequest,
  q: readonly string[],
): Promise<string[]> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      q,
      source: libreTranslateCode(request.from),
      target: libreTranslateCode(request.to),
      format: "text",
      ...(apiKey ? { api_key: apiKey } : {}),
    }),
  });
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const message = (body as { error?: unknown } | undefined)?.error;
  if (!response.ok) {
    throw new Error(
      `LibreTranslate answered ${response.status}${typeof message === "string" ? `: ${message}` : ""}`,
    );
  }
  const translated = (body as { translatedText?: unknown } | undefined)?.translatedText;
  if (
    !Array.isArray(translated) ||
    translated.length !== q.length ||
    translated.some((text) => typeof text !== "string")
  ) {
    throw new Error(`LibreTranslate answered no list of ${q.length} texts`);
  }
  return translated as string[];
}
