import type { Revision } from "../content-tree/revisions.js";
import { pageFilePath } from "./paths.js";
import type { LinkAnswers, LinkQuestions } from "./references.js";

/**
 * What converting links needs to know about a revision's content. Asynchronous, so that a content
 * whose pages load lazily can answer; {@link resolverFor} is the one place that answers from the
 * whole page tree of today's revisions.
 */
export interface LinkLookup {
  /** The tree path of a page (`guides/install`), or undefined when the page is not in the content. */
  pathOf(page: string): Promise<string | undefined>;
  hasChildren(page: string): Promise<boolean>;
  /** The page at a tree path; "" is the first page of the space. */
  pageIdByPath(path: string): Promise<string | undefined>;
  /** The file with this name (the first by id when names repeat). */
  fileIdByName(name: string): Promise<string | undefined>;
  fileNameOf(file: string): Promise<string | undefined>;
}

/** The lookups of a revision: each reads only the tree nodes and versions it needs. */
export function resolverFor(content: Revision): LinkLookup {
  let names: Promise<Map<string, string>> | undefined;
  const byName = () =>
    (names ??= content.files().then((files) => {
      const map = new Map<string, string>();
      // The first by id when names repeat, as the links list resolves them.
      for (const [id, version] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (!map.has(version.name)) map.set(version.name, id);
      }
      return map;
    }));
  return {
    pathOf: (page) => content.path(page),
    hasChildren: async (page) => (await content.children(page)).length > 0,
    pageIdByPath: async (path) =>
      path === "" ? (await content.children(""))[0]?.page : (await content.pageAtPath(path))?.page,
    fileIdByName: async (name) => (await byName()).get(name),
    fileNameOf: async (file) => (await content.file(file))?.name,
  };
}

export async function pageFileOf(lookup: LinkLookup, page: string): Promise<string | undefined> {
  const path = await lookup.pathOf(page);
  return path === undefined ? undefined : pageFilePath(path, await lookup.hasChildren(page));
}

/** Answers every question at once (an adapter with round trips may batch them). */
export async function answerQuestions(questions: LinkQuestions, lookup: LinkLookup): Promise<LinkAnswers> {
  const entries = <K>(keys: Set<K>, find: (key: K) => Promise<string | undefined>) =>
    Promise.all([...keys].map(async (key) => [key, await find(key)] as const)).then(
      (pairs) => new Map(pairs.filter((pair): pair is readonly [K, string] => pair[1] !== undefined)),
    );
  const [pageByPath, fileByName, pageFiles, fileNames] = await Promise.all([
    entries(questions.pagePaths, (path) => lookup.pageIdByPath(path)),
    entries(questions.fileNames, (name) => lookup.fileIdByName(name)),
    entries(questions.pageIds, (page) => pageFileOf(lookup, page)),
    entries(questions.fileIds, (file) => lookup.fileNameOf(file)),
  ]);
  return { pageByPath, fileByName, pageFiles, fileNames };
}

/** Questions of several conversions, asked once. */
export function mergeQuestions(target: LinkQuestions, more: LinkQuestions): LinkQuestions {
  for (const key of ["pagePaths", "fileNames", "pageIds", "fileIds"] as const) {
    for (const value of more[key]) target[key].add(value);
  }
  return target;
}
