import type { RevisionContent } from "../content/revisions.js";
import { pageTree } from "../content/tree.js";
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

const filesByName = new WeakMap<RevisionContent, Map<string, string>>();

/** A lookup of `content`, answered from its page tree. */
export function resolverFor(content: RevisionContent): LinkLookup {
  const tree = () => pageTree(content);
  const names = () => {
    let byName = filesByName.get(content);
    if (!byName) {
      byName = new Map();
      // The first by id when names repeat, as the links list resolves them.
      for (const [id, version] of [...content.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (!byName.has(version.name)) byName.set(version.name, id);
      }
      filesByName.set(content, byName);
    }
    return byName;
  };
  return {
    pathOf: async (page) => tree().byId.get(page)?.path,
    hasChildren: async (page) => (tree().byId.get(page)?.children.length ?? 0) > 0,
    pageIdByPath: async (path) => (path === "" ? tree().roots[0] : tree().byPath.get(path))?.version.page,
    fileIdByName: async (name) => names().get(name),
    fileNameOf: async (file) => content.files.get(file)?.name,
  };
}

/** The file of a page in the Git Sync layout (`a/b.md`, `a/b/README.md`), if it exists. */
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
