import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import noTypeImportCycle from "./eslint-rules/no-type-import-cycle.js";

/**
 * Lint for what the compiler and prettier do not check: typescript-eslint's recommended rules and
 * no import cycles (STYLE.md, habit 9; issue 7, item 9). Formatting is prettier's, so no stylistic
 * rule is on. The rules are the syntactic set, not the type-aware one: `tsc` already type-checks in
 * `npm test`, a type-aware run took about 55 s on two cores against about 11 s for this one, and
 * most of what it adds is `no-unsafe-*` on JSON bodies in tests.
 */
export default defineConfig(
  // Build output (tsup, typedoc) and test coverage are generated.
  {
    ignores: [
      "dist/",
      "docs/api/",
      "api-reference/",
      "coverage/",
      "test/.docs-examples*/",
      // examples/browser's bundles (its build.js).
      "examples/browser/public/build/",
      "examples/browser/public/service-worker.js",
    ],
  },
  {
    // examples/browser: scripts of a page and a service worker, and a Node build script.
    files: ["examples/browser/**/*.js"],
    languageOptions: {
      globals: Object.fromEntries(
        [
          ...["self", "location", "document", "navigator", "localStorage", "fetch", "Request", "URL"],
          ...["setInterval", "console", "process"],
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `const { secret: _, ...rest } = record` is how a field is left out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // `import { z } from "zod"` takes zod's namespace object whole, so a bundler keeps all of zod
    // (its messages in 64 locales, JSON Schema conversion both ways): 444 KiB of a browser
    // bundle where `import * as z` keeps the 103 KiB docsbase uses (docs/browser.md).
    files: ["src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: 'import * as z from "zod": the named `z` keeps all of zod in a browser bundle.',
        },
      ],
    },
  },
  {
    // Tests read JSON response bodies, whose shape the assertions check; typing each one adds nothing.
    files: ["**/*.test.ts", "test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    plugins: { "import-x": importX, docsbase: { rules: { "no-type-import-cycle": noTypeImportCycle } } },
    settings: {
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      // Imports name the emitted `./x.js`; the source is `./x.ts`, as with tsc's NodeNext resolution.
      "import-x/resolver-next": [
        createNodeResolver({ extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } }),
      ],
    },
    rules: {
      // Value-import cycles. It skips `import type`, hence the rule below for the cycles those close.
      // A package cannot import our sources back, so walking node_modules (zod, mdast...) finds no
      // cycle and took most of the lint time (20 s of 26).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "docsbase/no-type-import-cycle": "error",
    },
  },
);
