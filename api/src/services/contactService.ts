import { check, contactSchema } from '@partsyard/common';
import { count, desc } from 'drizzle-orm';
import type { Db } from '../db/database';
import { contactMessages, type ContactMessageRow } from '../db/schema';
import { badInput } from '../errors';
import { logger } from '../logger';
import type { Client, RateLimiter } from '../rateLimits';
import type { Actor } from './actor';
import { authorize } from './rights';
import { page, pageSizes, pageWithTotal } from './paging';
import { contactConfirmationEmail } from './emails';
import { enqueueEmail } from './outbox';

export function createContactService(db: Db, rateLimits: RateLimiter) {
  return {
    /**
     * Keeps a message from the home page's contact form for the admins to read (rate limited per client address),
     * and confirms it to the address given. Anyone may give any address, so the confirmation carries none of the
     * sender's text (the form would otherwise mail strangers what a script wrote), and an address gets a few a
     * day at most (RATE_LIMIT_CONTACT_PER_RECIPIENT): past that the message is still kept, unconfirmed, and the
     * answer is the same.
     */
    async sendMessage(input: unknown, client?: Client): Promise<ContactMessageRow> {
      await rateLimits.contactFrom(client);
      const result = check(contactSchema, input);
      if (!result.ok) throw badInput(result.errors);
      const email = result.value.email.toLowerCase();
      const confirm = await rateLimits.contactConfirmationTo(email);
      const message = await db.transaction(async (tx) => {
        const [kept] = await tx
          .insert(contactMessages)
          .values({ ...result.value, email, phone: result.value.phone ?? '' })
          .returning();
        if (confirm) await enqueueEmail(tx, contactConfirmationEmail(kept));
        return kept;
      });
      if (!confirm) {
        logger.info('a contact message was kept without a confirmation: its address had all it may get today', {
          event: 'contact_confirmation_withheld',
          contactMessageId: message.id,
        });
      }
      return message;
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
