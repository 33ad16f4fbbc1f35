import { defineModule } from "../module.js";
import { ANALYZE_CONVERSATION_JOB, analyzeConversation } from "./analysis.js";
import { clusterOperations } from "./clusters.js";
import { conversationOperations } from "./conversations.js";
import { issueOperations } from "./issues.js";
import {
  clustersTable,
  clusterTermsTable,
  conversationsTable,
  issuesTable,
  termCountsTable,
  termStatsTable,
  termTotalsTable,
} from "./tables.js";

/** Conversations, the issues found in them and their clusters (docs/conversations.md). */
export const conversationsModule = defineModule({
  name: "conversations",
  tables: [
    conversationsTable,
    issuesTable,
    clustersTable,
    termStatsTable,
    termTotalsTable,
    termCountsTable,
    clusterTermsTable,
  ],
  operations: { ...conversationOperations, ...issueOperations, ...clusterOperations },
  jobs: { [ANALYZE_CONVERSATION_JOB]: analyzeConversation },
});
