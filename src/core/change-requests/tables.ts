import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The reference `ChangeRequestStatus`. */
export const changeRequestStatus = z.enum(["draft", "open", "archived", "merged"]);
export type ChangeRequestStatus = z.infer<typeof changeRequestStatus>;

export const changeRequestRecord = z.object({
  id: z.string(),
  space: z.string(),
  organization: z.string(),
  /** Incremental per space, from 1. */
  number: z.number(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  status: changeRequestStatus,
  subject: z.string(),
  description: z.record(z.string(), z.unknown()).optional(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Head revision of the change request. */
  revision: z.string(),
  revisionInitial: z.string(),
  revisionMergedAncestor: z.string().optional(),
  revisionMerged: z.string().optional(),
  /** Users who wrote content in the change request. */
  contributors: z.array(z.string()),
  comments: z.number(),
  /** Id of an associated conversations issues cluster (list filter). */
  conversationsIssuesCluster: z.string().optional(),
});
export type ChangeRequestRecord = z.infer<typeof changeRequestRecord>;

export const changeRequestsTable = defineTable({
  name: "changeRequests",
  key: "id",
  indexes: {
    bySpaceNumber: ["space", "number"],
    bySpaceStatus: ["space", "status", "number"],
    byOrganization: ["organization", "seq"],
    byOrganizationStatus: ["organization", "status", "seq"],
  },
  record: changeRequestRecord,
});
