import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { format, resolveConfig } from "prettier";
import { operations } from "../src/core/operations.js";

/**
 * Writes docs/coverage.md: which operations of the reference OpenAPI document (`@gitbook/api`'s,
 * the version installed) docsbase serves, grouped by the reference's tags, and the operations
 * docsbase serves that the reference does not have (its extensions). "Served" is derived: an
 * operation is served when the registry declares its `operationId`. Run it after adding an
 * operation or updating `@gitbook/api`:
 *
 *     npm run coverage
 *
 * test/coverage-document.test.ts regenerates the file in memory and fails when it differs.
 */

const root = join(import.meta.dirname, "..");

/** The generated file, relative to the repository. */
export const COVERAGE_FILE = "docs/coverage.md";

/** The command that rewrites it. */
export const COVERAGE_COMMAND = "npm run coverage";

const METHODS = ["get", "post", "put", "patch", "delete"];

/** The heading of the reference operations that have no tag. */
const UNTAGGED = "(no tag)";

interface Document {
  readonly tags?: readonly { readonly name: string }[];
  readonly paths: Record<string, Record<string, { operationId?: string; tags?: string[] } | undefined>>;
}

/** What the registry declares of an operation, as far as coverage needs it. */
interface Declared {
  readonly method: string;
  readonly path: string;
  readonly summary: string;
}

/** One operation of the reference, filed under its first tag, and whether docsbase serves it. */
export interface ReferenceRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  readonly served: boolean;
}

/** One operation docsbase serves that the reference does not have. */
export interface ExtensionRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
}

/** The reference's operations (in the document's order) and the registry's extensions (in its order). */
export interface Coverage {
  readonly version: string;
  readonly reference: readonly ReferenceRow[];
  readonly extensions: readonly ExtensionRow[];
}

/** The coverage of `document` by `registry`, keyed by operation id. */
export function coverageOf(
  document: Document,
  registry: Readonly<Record<string, Declared>>,
  version: string,
): Coverage {
  const reference: ReferenceRow[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation || !METHODS.includes(method) || !operation.operationId) continue;
      reference.push({
        operationId: operation.operationId,
        method,
        path,
        tag: operation.tags?.[0] ?? UNTAGGED,
        served: Object.hasOwn(registry, operation.operationId),
      });
    }
  }
  const referenceIds = new Set(reference.map((row) => row.operationId));
  const extensions = Object.entries(registry)
    .filter(([operationId]) => !referenceIds.has(operationId))
    .map(([operationId, { method, path, summary }]) => ({ operationId, method, path, summary }));
  return { version, reference, extensions };
}

/** The three counts the README and the document state. */
export function coverageCounts(coverage: Coverage) {
  const served = coverage.reference.filter((row) => row.served).length;
  return {
    reference: coverage.reference.length,
    served,
    notServed: coverage.reference.length - served,
    extensions: coverage.extensions.length,
  };
}

/** The coverage of the installed `@gitbook/api`'s document by docsbase's registry. */
export function installedCoverage(): Coverage {
  const reference = join(root, "node_modules", "@gitbook", "api");
  const { version } = JSON.parse(readFileSync(join(reference, "package.json"), "utf8")) as {
    version: string;
  };
  const document = JSON.parse(readFileSync(join(reference, "spec", "openapi.json"), "utf8")) as Document;
  return Object.assign(coverageOf(document, operations, version), { tags: document.tags });
}

/** The text of docs/coverage.md, formatted as the repository's prettier formats it. */
export async function coverageMarkdown(coverage: Coverage & { tags?: Document["tags"] }): Promise<string> {
  const counts = coverageCounts(coverage);
  const code = (text: string) => `\`${text}\``;
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const route = (method: string, path: string) => code(`${method.toUpperCase()} ${path}`);

  // Tags in the order the document declares them, then any it uses without declaring, untagged last.
  const order = [
    ...(coverage.tags ?? []).map((tag) => tag.name),
    ...coverage.reference.map((row) => row.tag),
  ];
  const tags = [...new Set(order)].filter((tag) => tag !== UNTAGGED);
  tags.push(UNTAGGED);

  const lines = [
    "# Coverage of the GitBook API",
    "",
    `<!-- Generated by \`${COVERAGE_COMMAND}\` from the registry and @gitbook/api@${coverage.version}'s OpenAPI document. Do not edit. -->`,
    "",
    `docsbase serves **${counts.served}** of the **${counts.reference}** operations of the reference API`,
    `(\`@gitbook/api\` ${coverage.version}'s OpenAPI document); the other **${counts.notServed}** are not served:`,
    "a call of one answers 501 naming the operation. docsbase also serves",
    `**${counts.extensions}** operations of its own, its extensions, which the official client does not have;`,
    "`GET /v1/openapi.json` marks each of them `x-docsbase-extension: true`.",
    "",
    "| Operations                    | Count |",
    "| ----------------------------- | ----: |",
    `| reference operations, served  | ${counts.served} |`,
    `| reference operations, not served | ${counts.notServed} |`,
    `| extensions (docsbase's own)   | ${counts.extensions} |`,
    "",
    "Paths are under `/v1`. An operation is served when docsbase's registry declares its",
    "`operationId`; this page is generated from the registry, so it changes with it.",
    "",
    "## Reference operations, by tag",
    "",
    "Each operation is listed once, under its first tag in the reference document.",
  ];
  for (const tag of tags) {
    const rows = coverage.reference.filter((row) => row.tag === tag);
    if (rows.length === 0) continue;
    const served = rows.filter((row) => row.served).length;
    lines.push("", `### ${tag}`, "", `${served} of ${rows.length} served.`, "");
    lines.push("| Operation | Method and path | Served |", "| --- | --- | --- |");
    for (const row of rows)
      lines.push(
        `| ${code(row.operationId)} | ${route(row.method, row.path)} | ${row.served ? "yes" : "no"} |`,
      );
  }
  lines.push(
    "",
    "## Extensions",
    "",
    "Operations docsbase serves that the reference does not have. The official client has no method",
    "for them; call them over HTTP, or in process through `docsbase.as(...)` (one typed method per",
    "operation, these included).",
    "",
  );
  for (const row of coverage.extensions)
    lines.push(`- ${code(row.operationId)}, ${route(row.method, row.path)}: ${oneLine(row.summary)}`);
  lines.push("");
  const file = join(root, COVERAGE_FILE);
  return format(lines.join("\n"), { ...(await resolveConfig(file)), filepath: file });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(join(root, COVERAGE_FILE), await coverageMarkdown(installedCoverage()));
  console.log(`wrote ${COVERAGE_FILE}`);
}
