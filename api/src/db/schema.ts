import { sql } from 'drizzle-orm';
import type { PriceTier } from '@partsyard/common';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';
import { brands, categories } from '../catalog/catalogSchema';

/**
 * Tables of the shop. Money is integer cents in 64-bit columns (`cents`: read as JS numbers, exact far beyond any
 * total the shared rules allow, which stop at one card payment's limit). Constraints keep the data valid even if code is wrong:
 * stock never below 0, minOrder at least 1, no negative prices, one user per Firebase account and per email, one payment per
 * transaction id, and foreign keys between them.
 */

/**
 * An index column for `order by <column> desc`: PostgreSQL sorts `desc` with NULLS FIRST, so the index must
 * too (Drizzle's `.desc()` alone means DESC NULLS LAST, which the planner cannot use for that order).
 */
const newest = (column: ExtraConfigColumn) => column.desc().nullsFirst();

/** Money: whole cents, bigint in the database. */
const cents = (name: string) => bigint(name, { mode: 'number' });

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The Firebase account's email at its last sign-in, lower-case: an attribute of the account, never a key
     * that grants anything. Null once Firebase has given the address to another account (usersService.signIn).
     */
    email: text('email'),
    /** Whether Firebase said the address was verified at the last sign-in; roles go to verified accounts only. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The identity: the Firebase account's uid (null only on rows no sign-in can reach). */
    firebaseUid: text('firebase_uid'),
    name: text('name').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    phone: text('phone').notNull().default(''),
    education: text('education').notNull().default(''),
    location: text('location').notNull().default(''),
    linkedIn: text('linked_in').notNull().default(''),
    role: text('role', { enum: ['admin', 'customer'] })
      .notNull()
      .default('customer'),
    /**
     * Where an admin's role came from: `admin_emails` (the ADMIN_EMAILS setting: it goes when the address leaves
     * the list) or `granted` (by another admin, or the demo seed: it stays until an admin revokes it). Null for
     * customers, and for admins of databases older than this column until the next start sorts them.
     */
    adminSource: text('admin_source', { enum: ['admin_emails', 'granted'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_firebase_uid_key').on(t.firebaseUid),
    index('users_created_at_idx').on(newest(t.createdAt), newest(t.id)),
    check('users_role_check', sql`${t.role} in ('admin', 'customer')`),
    check(
      'users_admin_source_check',
      sql`${t.adminSource} is null or (${t.role} = 'admin' and ${t.adminSource} in ('admin_emails', 'granted'))`,
    ),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/** Numbers the shop's own SKUs (`PY-000001`...) for parts added without one. */
export const partSkuSequence = pgSequence('parts_sku_seq');

export const parts = pgTable(
  'parts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * Our own number for the part, unique once normalised (`skuNormalised`); a part added without one gets the
     * next `PY-` number (migration 0017 gave every earlier part one).
     */
    sku: text('sku')
      .notNull()
      .default(sql`'PY-' || lpad(nextval('parts_sku_seq')::text, 6, '0')`),
    /** `part_number_normalised(sku)` (docs/catalog.md), COLLATE "C" (set in migration 0017) for prefix look-ups. */
    skuNormalised: text('sku_normalised')
      .notNull()
      .generatedAlwaysAs(sql`part_number_normalised(sku)`),
    brandId: uuid('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    /** Fits any bike: shown with every vehicle, and says so. */
    universal: boolean('universal').notNull().default(false),
    /** Supersession: this part is replaced by that one (catalog/supersession.ts follows the chain). */
    replacedById: uuid('replaced_by_id').references((): AnyPgColumn => parts.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    image: text('image').notNull().default(''),
    priceCents: cents('price_cents').notNull(),
    minOrder: integer('min_order').notNull(),
    available: integer('available').notNull(),
    /** Units taken by orders that were not cancelled; ranks popular parts. */
    sold: integer('sold').notNull().default(0),
    /**
     * Quantity breaks: from `minUnits` units on, each unit costs `priceCents` (ascending by minUnits, each price
     * below the one before and below the base price). The pricing rule is `unitPriceCents` in common/pricing.ts.
     */
    priceTiers: jsonb('price_tiers').$type<PriceTier[]>().notNull().default([]),
    /** Sold in packs of this many units: an order's amount must be a multiple of it (1: any whole number). */
    packSize: integer('pack_size').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check('parts_pack_size_check', sql`${t.packSize} >= 1`),
    check('parts_price_check', sql`${t.priceCents} >= 0`),
    check('parts_min_order_check', sql`${t.minOrder} >= 1`),
    check('parts_available_check', sql`${t.available} >= 0`),
    check('parts_sold_check', sql`${t.sold} >= 0`),
    check('parts_not_replaced_by_itself_check', sql`${t.replacedById} <> ${t.id}`),
    check('parts_sku_check', sql`length(${t.sku}) <= 100 and ${t.skuNormalised} <> ''`),
    uniqueIndex('parts_sku_key').on(t.skuNormalised),
    // Quick order's suggestions for a number nobody carries (ordering/quickOrderSuggestions.ts): the SKUs that
    // share the longest ending with it, read in order from this btree as `parts_sku_key` gives the longest start.
    index('parts_sku_reversed_idx').on(sql`reverse(${t.skuNormalised})`),
    index('parts_brand_idx').on(t.brandId),
    index('parts_category_idx').on(t.categoryId),
    index('parts_replaced_by_idx').on(t.replacedById),
    index('parts_created_at_idx').on(newest(t.createdAt), newest(t.id)),
    index('parts_popular_idx').on(newest(t.sold), newest(t.createdAt)),
    // The catalog search, `lower(name) like '%text%'`: a leading wildcard needs trigrams (pg_trgm), not a btree.
    index('parts_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // The catalog's search (catalog/catalogSearch.ts): every word typo-tolerant (`%>`, word similarity) against the
    // name and description together; one index answers all the words of a search.
    index('parts_search_trgm_idx').using('gin', sql`lower(${t.name} || ' ' || ${t.description}) gin_trgm_ops`),
    // The catalog by name (catalog/catalogQuery.ts), and the universal parts every bike's catalog holds.
    index('parts_name_idx').on(t.name, t.id),
    index('parts_universal_idx')
      .on(t.categoryId)
      .where(sql`${t.universal}`),
  ],
);

/** Where a dispute (chargeback) of a payment stands. */
export const disputeStatuses = ['open', 'won', 'lost'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the user is deleted; paid orders are kept for the books, without the customer's details. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer's email when the order was placed: shown, never used to find orders ('' once deleted). */
    email: text('email').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull().default(''),
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    partName: text('part_name').notNull(),
    partImage: text('part_image').notNull().default(''),
    orderAmount: integer('order_amount').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    totalCents: cents('total_cents').notNull(),
    /**
     * unpaid -> paid -> shipped; unpaid -> expired when `expiresAt` passes unpaid (its stock went back then).
     * A company buyer's checkout above their limit (issue 35) is placed `awaiting_approval`: it holds its stock as
     * an unpaid order does (same caps, same expiry); approved it becomes unpaid, declined `declined` (stock back).
     */
    status: text('status', { enum: ['unpaid', 'paid', 'shipped', 'expired', 'awaiting_approval', 'declined'] })
      .notNull()
      .default('unpaid'),
    transactionId: text('transaction_id'),
    /**
     * The checkout that placed this order with others (one cart, one transaction, one payment for the sum); null
     * for an order placed alone. The orders of a checkout share their expiry and, once paid, the transaction id.
     */
    checkoutId: uuid('checkout_id'),
    createdAt: createdAt(),
    /**
     * When an unpaid order's reservation runs out: placed at now() + UNPAID_ORDER_EXPIRY by the app. The
     * default only serves rows written outside it (and gave the orders unpaid at the upgrade an hour to pay).
     */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`now() + interval '1 hour'`),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    shippedAt: timestamp('shipped_at', { withTimezone: true, mode: 'date' }),
    /**
     * How much of this order's payment the gateway has given back (a refund made in Stripe's dashboard, say): its
     * share of the payment's refunded total (services/refunds.ts). 0 when none; `totalCents` when in full.
     */
    refundedCents: cents('refunded_cents').notNull().default(0),
    /** Where a dispute (chargeback) of its payment stands: open, won (the payment stands), lost; null: none. */
    dispute: text('dispute_status', { enum: disputeStatuses }),
    /** True when the unit price is the buyer's company price (issue 35 point 3), lower than the list price. */
    companyPriced: boolean('company_priced').notNull().default(false),
  },
  (t) => [
    check('orders_amount_check', sql`${t.orderAmount} > 0`),
    check(
      'orders_price_check',
      sql`${t.unitPriceCents} >= 0 and ${t.totalCents} = ${t.unitPriceCents} * ${t.orderAmount}`,
    ),
    check(
      'orders_status_check',
      sql`${t.status} in ('unpaid', 'paid', 'shipped', 'expired', 'awaiting_approval', 'declined')`,
    ),
    check('orders_refunded_check', sql`${t.refundedCents} between 0 and ${t.totalCents}`),
    check('orders_dispute_check', sql`${t.dispute} in ('open', 'won', 'lost')`),
    check(
      'orders_paid_has_transaction_check',
      sql`(${t.status} in ('unpaid', 'expired', 'awaiting_approval', 'declined')) = (${t.transactionId} is null)`,
    ),
    // One payment pays one order, or every order of one checkout (which share the transaction id).
    uniqueIndex('orders_transaction_id_key')
      .on(t.transactionId)
      .where(sql`${t.checkoutId} is null`),
    index('orders_transaction_id_idx').on(t.transactionId),
    index('orders_checkout_idx')
      .on(t.checkoutId)
      .where(sql`${t.checkoutId} is not null`),
    index('orders_user_created_idx').on(t.userId, newest(t.createdAt), newest(t.id)),
    index('orders_created_at_idx').on(newest(t.createdAt), newest(t.id)),
    index('orders_status_created_idx').on(t.status, newest(t.createdAt), newest(t.id)),
    index('orders_part_idx').on(t.partId),
    // The admin overview's revenue per day and top parts read paid orders by when they were paid.
    // Migration 0011 adds INCLUDE (status, total_cents, order_amount, part_id), which Drizzle cannot express:
    // the admin overview reads its 30 days of paid orders from the index alone.
    index('orders_paid_at_idx')
      .on(t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    // Orders holding stock (unpaid, or awaiting a company's approval: `holdsStock` in services/expiry.ts).
    // The expiry sweep (unpaid orders due) and the cap (a customer's unpaid orders not yet due).
    index('orders_unpaid_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('unpaid', 'awaiting_approval')`),
    index('orders_unpaid_user_idx')
      .on(t.userId, t.expiresAt)
      .where(sql`${t.status} in ('unpaid', 'awaiting_approval')`),
    // Whether a part has unpaid orders due (their stock can come back before an order is refused): the first
    // entry of the part here, read with every order of it (ordersService, part_to_order).
    index('orders_unpaid_part_idx')
      .on(t.partId, t.expiresAt)
      .where(sql`${t.status} in ('unpaid', 'awaiting_approval')`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    partName: text('part_name').notNull(),
    transactionId: text('transaction_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    gateway: text('gateway', { enum: ['test', 'stripe'] }).notNull(),
    /** The checkout of the order paid (issue 14), null for an order placed alone. */
    checkoutId: uuid('checkout_id'),
    createdAt: createdAt(),
  },
  (t) => [
    // One transaction pays one order, or every order of one checkout: one row per order, all with its id.
    uniqueIndex('payments_transaction_id_key')
      .on(t.transactionId)
      .where(sql`${t.checkoutId} is null`),
    index('payments_transaction_id_idx').on(t.transactionId),
    uniqueIndex('payments_order_id_key').on(t.orderId),
    index('payments_user_created_idx').on(t.userId, newest(t.createdAt)),
    check('payments_amount_check', sql`${t.amountCents} > 0`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    partId: uuid('part_id').references(() => parts.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    avatar: text('avatar').notNull().default(''),
    text: text('text').notNull(),
    partName: text('part_name').notNull().default(''),
    partImage: text('part_image').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('reviews_created_at_idx').on(newest(t.createdAt), newest(t.id)),
    index('reviews_part_idx').on(t.partId),
    uniqueIndex('reviews_user_part_key').on(t.userId, t.partId),
    check('reviews_text_check', sql`length(trim(${t.text})) > 0`),
  ],
);

/** Payment intents of the built-in test gateway (Stripe keeps its own). */
export const testPaymentIntents = pgTable(
  'test_payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: ['requires_payment_method', 'succeeded', 'canceled'] })
      .notNull()
      .default('requires_payment_method'),
    orderId: uuid('order_id').notNull(),
    lastError: text('last_error'),
    /** When the shop gave the payment back (status stays 'succeeded', as Stripe's does). */
    refundedAt: timestamp('refunded_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('test_payment_intents_amount_check', sql`${t.amountCents} > 0`),
    check(
      'test_payment_intents_status_check',
      sql`${t.status} in ('requires_payment_method', 'succeeded', 'canceled')`,
    ),
    index('test_payment_intents_order_idx').on(t.orderId),
  ],
);

/**
 * Every payment intent this shop created at its gateway (Stripe or the test gateway), and what became of it:
 * `open` until its money is accounted for: `recorded` (it paid its order), `refunded`, or `canceled` (never
 * charged, and cancelled at the gateway once its order could no longer be paid). The reconciliation sweep asks
 * the gateway about open intents whose `nextCheckAt` has come (a charged intent whose customer never came
 * back to confirm, a refund that failed), so no charge stays unaccounted for. No foreign key to orders: a
 * cancelled order is deleted, and its intents must still be settled.
 */
export const gatewayIntents = pgTable(
  'gateway_intents',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id').notNull(),
    /**
     * Who the intent was created for (the order's or checkout's owner; null for rows written before issue 32, or
     * once the user is deleted): only they may confirm it once its order is gone, or be handed it again.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    gateway: text('gateway', { enum: ['test', 'stripe'] }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['open', 'recorded', 'refunded', 'canceled'] })
      .notNull()
      .default('open'),
    /** When the shop first saw it succeed (each money event is logged once). */
    succeededAt: timestamp('succeeded_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    /** When the reconciliation sweep is next due to ask the gateway about it (while open). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true, mode: 'date' }).notNull(),
    checks: integer('checks').notNull().default(0),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('gateway_intents_status_check', sql`${t.status} in ('open', 'recorded', 'refunded', 'canceled')`),
    check('gateway_intents_gateway_check', sql`${t.gateway} in ('test', 'stripe')`),
    check('gateway_intents_settled_check', sql`(${t.status} = 'open') = (${t.settledAt} is null)`),
    index('gateway_intents_order_idx').on(t.orderId),
    // Deleting a user sets their intents' owner null (the foreign key) without reading the whole ledger.
    index('gateway_intents_user_idx').on(t.userId),
    index('gateway_intents_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} = 'open'`),
  ],
);

/**
 * The gateway's webhook events about a payment's aftermath (refunds, disputes) this shop has applied, by the
 * gateway's event id: an event delivered again (Stripe retries, or sends one twice) is applied once.
 */
export const gatewayEvents = pgTable('gateway_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  paymentIntentId: text('payment_intent_id').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A signed-in customer's cart, kept on the server so every device sees the same one: one line per part, with
 * the amount wanted and the unit price the customer saw when adding it (the cart names a price change).
 */
export const cartLines = pgTable(
  'cart_lines',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partId: uuid('part_id')
      .notNull()
      .references(() => parts.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    /** The unit price (with its quantity break) when the line was added or its amount last set. */
    seenUnitPriceCents: cents('seen_unit_price_cents').notNull(),
    addedAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'cart_lines_pkey', columns: [t.userId, t.partId] }),
    check('cart_lines_amount_check', sql`${t.amount} > 0`),
    index('cart_lines_part_idx').on(t.partId),
  ],
);

/**
 * Visitor carts merged at sign-in, by the id the browser chose when it started the merge (issue 32): a merge sent
 * again (a reload while its answer was on its way) is answered with the first one's notes and merges nothing
 * twice. Kept 30 days (pruned by the user's next merge).
 */
export const cartMerges = pgTable(
  'cart_merges',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mergeId: uuid('merge_id').notNull(),
    /** What the merge told the customer (CartMergeNote): a repeat answers the same. */
    notes: jsonb('notes').$type<{ partId: string; message: string }[]>().notNull(),
    mergedAt: timestamp('merged_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'cart_merges_pkey', columns: [t.userId, t.mergeId] })],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_at_idx').on(newest(t.createdAt), newest(t.id))],
);

/**
 * The transactional outbox of order emails (issue 14): a message is written in the same transaction as the
 * change it tells about (a rolled-back change leaves none), and the mail worker (api/src/services/mailer.ts)
 * delivers it. A worker claims a row by setting `lockedUntil` (a lease) and a fresh `leaseToken` in one
 * statement under `FOR UPDATE SKIP LOCKED`, so two workers never hold one message; an unsent row whose lease ran
 * out (its worker died) is claimed again, and the worker that lost it can no longer renew, send or mark it (every
 * later write names the token). `dedupeKey` makes enqueueing the same message twice a no-op.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    dedupeKey: text('dedupe_key'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    /** Which claim holds the lease: a new uuid per claim, checked by each write of the worker holding it. */
    leaseToken: uuid('lease_token'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Set when the mail server refused the message for good (a 5xx answer): not tried again. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    /**
     * Files sent with the message (an invoice's PDF): name, type and content in base64; null for none. Kept with
     * the message, so what is sent is what was written in the change's transaction.
     */
    attachments: jsonb('attachments').$type<OutboxAttachment[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbox_dedupe_key_idx').on(t.dedupeKey),
    index('outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
  ],
);

/**
 * Rate limit counters shared by every replica (production mode without REDIS_URL): rate-limiter-flexible's
 * PostgreSQL store, one row per rule and key (`<rule>:<key>`), `points` attempts in the window that ends at
 * `expire` (epoch milliseconds). Rows of windows ended an hour ago are deleted every 5 minutes.
 */
export const rateLimitCounters = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * How many orders each status holds, kept by triggers in the same transaction as every write to `orders`
 * (migration 0010): All Orders' total without counting 100,000 rows on every page. Spread over slots (the
 * writing backend's pid modulo 32) so that concurrent transactions do not queue on one counter row; a total
 * is the sum of a status's slots.
 */
export const orderCounts = pgTable(
  'order_counts',
  {
    status: text('status').notNull(),
    slot: integer('slot').notNull(),
    orders: bigint('orders', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'order_counts_pkey', columns: [t.status, t.slot] })],
);

export type PriceTierRow = PriceTier;
export type CartLineRow = typeof cartLines.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type PartRow = typeof parts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
export type TestPaymentIntentRow = typeof testPaymentIntents.$inferSelect;
export type GatewayIntentRow = typeof gatewayIntents.$inferSelect;
export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
/** A file an outbox message carries. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** The bytes, base64. */
  contentBase64: string;
}
