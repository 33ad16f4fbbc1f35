import { defineModule } from "../module.js";
import { embedOperations } from "./embed.js";

/** Embeds: what a page shows of a URL it embeds, read from the URL's page. */
export const embedsModule = defineModule({
  name: "embeds",
  tables: [],
  operations: { ...embedOperations },
});
