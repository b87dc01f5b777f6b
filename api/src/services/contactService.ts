import { check, contactSchema } from '@partsyard/common';
import { count, desc } from 'drizzle-orm';
import type { Db } from '../db/database';
import { contactMessages, type ContactMessageRow } from '../db/schema';
import { badInput } from '../errors';
import type { Client, RateLimiter } from '../rateLimits';
import type { Actor } from './actor';
import { authorize } from './rights';
import { page, pageSizes, pageWithTotal } from './paging';
import { contactConfirmationEmail } from './emails';
import { enqueueEmail } from './outbox';

export function createContactService(db: Db, rateLimits: RateLimiter) {
  return {
    /** Keeps a message from the home page's contact form for the admins to read (rate limited per address). */
    async sendMessage(input: unknown, client?: Client): Promise<ContactMessageRow> {
      await rateLimits.contactFrom(client);
      const result = check(contactSchema, input);
      if (!result.ok) throw badInput(result.errors);
      return db.transaction(async (tx) => {
        const [message] = await tx
          .insert(contactMessages)
          .values({ ...result.value, email: result.value.email.toLowerCase(), phone: result.value.phone ?? '' })
          .returning();
        await enqueueEmail(tx, contactConfirmationEmail(message));
        return message;
      });
    },

    async listMessages(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      authorize('contact.listMessages', actor);
      const { offset, limit } = page(args.offset, args.limit, pageSizes.contactMessages);
      return pageWithTotal(
        { offset, limit },
        () =>
          db
            .select()
            .from(contactMessages)
            .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
            .offset(offset)
            .limit(limit),
        async () => (await db.select({ total: count() }).from(contactMessages))[0].total,
      );
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
