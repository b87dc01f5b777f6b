import { check, reviewSchema } from '@partsyard/common';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { orders, reviews, users, type ReviewRow } from '../db/schema';
import { accountGone, badInput, conflict, forbidden, notFound } from '../errors';
import { prepareLight, sqlState, violatedConstraint } from '../db/database';
import type { Actor } from './actor';
import { authorize } from './rights';
import { page, pageSizes } from './paging';
import type { PartsService } from './partsService';

/** Every column of a review: the fields of the latest reviews' light statement (the home page's). */
const reviewColumns = getTableColumns(reviews);

export function createReviewsService(deps: { db: Db; parts: PartsService }) {
  const { db, parts } = deps;
  const latest = prepareLight<ReviewRow>(
    db,
    'reviews_latest',
    db
      .select(reviewColumns)
      .from(reviews)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(sql.placeholder('limit')),
    reviewColumns,
  );
  return {
    /** Latest reviews, newest first. */
    async listReviews(limit: number | null | undefined): Promise<ReviewRow[]> {
      return latest.execute({ limit: page(0, limit, pageSizes.reviews).limit });
    },

    /**
     * Adds a review by the caller, who must have a paid order for the part. Name, email and avatar are the
     * caller's profile's; one review per part and customer.
     */
    async addReview(actor: Actor | null, input: { partId?: unknown; text?: unknown }): Promise<ReviewRow> {
      const caller = authorize('reviews.addReview', actor);
      const result = check(reviewSchema, input);
      if (!result.ok) throw badInput(result.errors);
      const part = await parts.getPart(typeof input.partId === 'string' ? input.partId : '');
      const [paidOrder] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.userId, caller.userId),
            eq(orders.partId, part.id),
            inArray(orders.status, ['paid', 'shipped']),
          ),
        )
        .limit(1);
      if (!paidOrder) throw forbidden('You can only add a review for paid orders.');
      const [user] = await db.select().from(users).where(eq(users.id, caller.userId));
      if (!user) throw notFound('User');
      try {
        const [review] = await db
          .insert(reviews)
          .values({
            userId: user.id,
            partId: part.id,
            name: user.name || user.email || '',
            email: user.email ?? '',
            avatar: user.avatar,
            text: result.value.text,
            partName: part.name,
            partImage: part.image,
          })
          .returning();
        return review;
      } catch (error) {
        if (sqlState(error) === '23505') throw conflict('You have already reviewed this part');
        // The account or the part was deleted between the checks above and the insert.
        if (sqlState(error) === '23503') {
          throw violatedConstraint(error) === 'reviews_user_id_users_id_fk' ? accountGone() : notFound('Part');
        }
        throw error;
      }
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
