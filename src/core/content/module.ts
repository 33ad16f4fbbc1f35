import { defineModule } from "../module.js";
import { pageDocumentOperations } from "./page-document.js";
import { contentReadOperations } from "./reads.js";
import { reusableContentOperations } from "./reusable-contents.js";
import { templateOperations } from "./templates.js";
import { contentWriteOperations } from "./writes.js";

/**
 * The content API of a space and of its change requests: reads of revisions, pages and files, the
 * content writes, and templates. What it reads and writes is stored by the `content-tree` module.
 */
export const contentModule = defineModule({
  name: "content",
  tables: [],
  operations: {
    ...contentReadOperations,
    ...pageDocumentOperations,
    ...reusableContentOperations,
    ...contentWriteOperations,
    ...templateOperations,
  },
});
