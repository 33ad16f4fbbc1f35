import { readFileSync, statSync } from "node:fs";
import ts from "typescript";

/**
 * `import-x/no-cycle` skips type-only imports (hard-coded in eslint-plugin-import-x 4.x, no option),
 * so a cycle closed by an `import type` goes unreported there. Type-only cycles still tangle modules
 * (issue 7, item 9), so this rule reports exactly those: at each type-only import or re-export it
 * follows every import of the imported file (value, type, re-export, dynamic) and reports when the
 * path leads back. Cycles made of value imports only are left to `import-x/no-cycle`.
 */
export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid a type-only import that closes a dependency cycle." },
    schema: [],
    messages: { cycle: "Dependency cycle through a type-only import: {{route}}" },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!isProjectFile(filename)) return {};
    const check = (node) => {
      if (!isTypeOnly(node)) return;
      const target = resolve(node.source.value, filename);
      const route = target && routeBack(target, filename);
      if (route)
        context.report({
          node,
          messageId: "cycle",
          data: { route: describe([filename, ...route], context.cwd) },
        });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

function isTypeOnly(node) {
  if (!node.source) return false;
  if (node.type === "ImportDeclaration") {
    const specifiers = node.specifiers;
    return (
      node.importKind === "type" ||
      (specifiers.length > 0 && specifiers.every((specifier) => specifier.importKind === "type"))
    );
  }
  if (node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((specifier) => specifier.exportKind === "type");
}

/** The shortest import path from `start` to `goal` (both included), or undefined when there is none. */
function routeBack(start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file === goal) {
      const route = [];
      for (let step = file; step !== undefined; step = previous.get(step)) route.unshift(step);
      return route;
    }
    for (const next of localImports(file)) {
      if (previous.has(next)) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** Bundler resolution maps the project's `./x.js` specifiers to `./x.ts` files, as tsc does. */
const RESOLUTION = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };

/** Only relative specifiers can close a cycle among the project's own files. */
function resolve(specifier, from) {
  if (!specifier.startsWith(".")) return undefined;
  const { resolvedModule } = ts.resolveModuleName(specifier, from, RESOLUTION, ts.sys);
  if (!resolvedModule || resolvedModule.isExternalLibraryImport) return undefined;
  return isProjectFile(resolvedModule.resolvedFileName) ? resolvedModule.resolvedFileName : undefined;
}

/** Keyed by modification time, so an editor's long-lived ESLint process sees edits. */
const importsByFile = new Map();

function localImports(file) {
  const modified = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (modified === undefined) return [];
  const cached = importsByFile.get(file);
  if (cached?.modified === modified) return cached.imports;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const imports = importedFiles.map((reference) => resolve(reference.fileName, file)).filter(Boolean);
  importsByFile.set(file, { modified, imports });
  return imports;
}

function isProjectFile(path) {
  return /\.[cm]?[jt]s$/.test(path) && !/\.d\.[cm]?ts$/.test(path) && !path.includes("/node_modules/");
}

function describe(route, cwd) {
  const root = cwd + "/";
  return route.map((path) => (path.startsWith(root) ? path.slice(root.length) : path)).join(" → ");
}
