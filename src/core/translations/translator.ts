/**
 * A translation engine (docs/translations.md, "Engines"): any async function from texts in one
 * language to the same number of texts in another, in the same order. docsbase sends it only
 * plain-text segments (never code, URLs, link targets or `{{ expressions }}`), in batches.
 *
 * @example
 * ```ts
 * const upper: Translator = async ({ texts }) => texts.map((text) => text.toUpperCase());
 * createDocsbase({ storage, translator: upper });
 * ```
 */
export type Translator = (
  request: TranslationRequest,
  context: TranslatorContext,
) => Promise<readonly string[]>;

export interface TranslationRequest {
  /** Plain-text segments, each trimmed and non-empty; the answer has one text per segment. */
  readonly texts: readonly string[];
  /** Language of the texts: the reference's `TranslationLanguage` (`en`, `pt-br`...). */
  readonly from: string;
  /** Language to translate into, of the same enumeration. */
  readonly to: string;
  /** The translation's `instructions`, as markdown; empty when it has none. */
  readonly instructions: string;
}

/** What docsbase lends an engine: its guarded outbound fetch (docs/architecture.md, "Outbound HTTP"). */
export interface TranslatorContext {
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}
