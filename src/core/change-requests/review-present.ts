import { CommentPresenter } from "../comments/present.js";
import { commentsTable } from "../comments/tables.js";
import type { BodyFormat } from "../comments/schemas.js";
import type { Thread } from "../comments/thread.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { UserPresenter } from "../users/present.js";
import type { RequestedReviewer, Review } from "./review-schemas.js";
import type { RequestedReviewerRecord, ReviewRecord } from "./review-tables.js";
import { changeRequestLocation } from "./schemas.js";
import type { ChangeRequestRecord } from "./tables.js";

/**
 * A review is outdated once the change request's revision moved on from the one it was made
 * against, or once its reviewer submitted a newer review.
 */
export const isReviewOutdated = (
  review: ReviewRecord,
  changeRequest: Pick<ChangeRequestRecord, "revision">,
) => review.superseded || review.revision !== changeRequest.revision;

/**
 * Presents the reviews and requested reviewers of one change request as the caller sees them,
 * loading each user once; a review's comment is presented by the comments module, in `format`.
 */
export class ReviewPresenter {
  private readonly users: UserPresenter;
  private readonly comments: CommentPresenter;

  constructor(
    private readonly tx: ReadTransaction,
    private readonly world: World,
    private readonly thread: Thread & { readonly changeRequest: ChangeRequestRecord },
    format?: BodyFormat,
  ) {
    this.users = new UserPresenter(tx, world);
    this.comments = new CommentPresenter(tx, world, thread, format);
  }

  async presentReview(record: ReviewRecord): Promise<Review> {
    // The comment is the author's to delete; the review then shows none.
    const comment = record.comment ? await this.tx.get(commentsTable, record.comment) : undefined;
    return {
      object: "change-request-review",
      id: record.id,
      revision: record.revision,
      reviewer: await this.users.presentUser(record.reviewer),
      ...(record.requestedBy ? { requestedBy: await this.users.presentUser(record.requestedBy) } : {}),
      status: record.status,
      outdated: isReviewOutdated(record, this.thread.changeRequest),
      ...(comment ? { comment: await this.comments.presentComment(comment) } : {}),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      urls: {
        location: `${changeRequestLocation(this.world, this.thread.changeRequest)}/reviews/${record.id}`,
      },
    };
  }

  async presentRequestedReviewer(record: RequestedReviewerRecord): Promise<RequestedReviewer> {
    return {
      object: "change-request-requested-reviewer",
      revision: record.revision,
      requestedBy: await this.users.presentUser(record.requestedBy),
      createdAt: record.createdAt,
      kind: "user",
      user: await this.users.presentUser(record.user),
    };
  }
}
