import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { companyMessages } from '../../src/companies/companiesService';
import { approvalMessages } from '../../src/companies/companyApprovals';
import { orders, outbox, type OrderRow } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { tooManyUnpaidOrders } from '../../src/services/ordersService';
import { actorOf, addPartAs, expectAppError, partRow, placeOrderAs, signUp, testCard } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { captureLogs } from '../support/logs';
import { generousOrderLimits, startTestApp, type TestApp } from '../support/testApp';

/**
 * Issue 35 point 2: a buyer's limit per order; a checkout above it is placed awaiting approval (holding stock as
 * an unpaid order does), the company's admins are emailed and approve or decline it, each transition once.
 */
describe.each(databaseKinds)('approvals (%s)', (kind) => {
  let app: TestApp;
  let shopAdmin: Actor;
  const contact = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka' };

  beforeAll(async () => {
    app = await startTestApp(kind, { orders: { ...generousOrderLimits, unpaidPerCustomer: 3 } });
    shopAdmin = await actorOf(app, await signUp(app, { admin: true }));
  });
  afterAll(() => app?.close());

  const services = () => app.server.services;
  const db = () => app.server.database.db;
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;
  const account = async () => {
    const user = await signUp(app, { verified: true });
    return { user, actor: await actorOf(app, user) };
  };
  const addMember = async (companyId: string, by: Actor, role: 'buyer' | 'company_admin' = 'buyer') => {
    const member = await account();
    const invitation = await services().companies.inviteToCompany(by, companyId, { email: member.user.email, role });
    await services().companies.acceptInvitation(member.actor, invitation.id);
    return member;
  };
  /** A company with an admin, a second admin and a buyer limited to $100 per order. */
  const newCompany = async () => {
    const owner = await account();
    const view = await services().companies.createCompany(owner.actor, { name: `Moto ${unique()}`, taxId: 'BIN-1' });
    const id = view.company.id;
    const second = await addMember(id, owner.actor, 'company_admin');
    const buyer = await addMember(id, owner.actor, 'buyer');
    await services().companies.setBuyerLimit(owner.actor, id, buyer.actor.userId, 100);
    return { id, owner, second, buyer };
  };
  const newPart = () => addPartAs(app, shopAdmin, { price: 10, minOrder: 1, available: 100 });
  /** The buyer checks out `amount` units of each part ($10 each). */
  const checkout = async (buyer: Actor, lines: { partId: string; amount: number }[]) => {
    for (const line of lines) await services().cart.addToCart(buyer, line.partId, line.amount);
    return (await services().cart.checkout(buyer, contact)).orders as OrderRow[];
  };
  const statuses = async (placed: OrderRow[]) =>
    (
      await db()
        .select({ status: orders.status })
        .from(orders)
        .where(
          inArray(
            orders.id,
            placed.map((o) => o.id),
          ),
        )
    ).map((o) => o.status);
  const mail = (kind: string, key: string) =>
    db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, kind), like(outbox.dedupeKey, `${kind}:${key}%`)));

  it('a buyer sets no limit for an admin; limits are checked and tied to the field', async () => {
    const { id, owner, buyer, second } = await newCompany();
    const view = await services().companies.company(owner.actor, id);
    expect(view.members.find((m) => m.userId === buyer.actor.userId)?.orderLimitCents).toBe(10_000);
    for (const bad of [0, -5, 1.234, 'ten', 1e12, { a: 1 }]) {
      const refused = await expectAppError(
        services().companies.setBuyerLimit(owner.actor, id, buyer.actor.userId, bad),
        'BAD_USER_INPUT',
      );
      expect(refused.fields).toEqual({ orderLimit: companyMessages.limitInvalid });
    }
    const admin = await expectAppError(
      services().companies.setBuyerLimit(owner.actor, id, second.actor.userId, 50),
      'BAD_USER_INPUT',
    );
    expect(admin.fields).toEqual({ orderLimit: companyMessages.limitOnlyBuyers });
    // A buyer cannot set limits (their own neither); another company's admin neither.
    await expectAppError(services().companies.setBuyerLimit(buyer.actor, id, buyer.actor.userId, null), 'FORBIDDEN');
    const other = await newCompany();
    await expectAppError(
      services().companies.setBuyerLimit(other.owner.actor, id, buyer.actor.userId, null),
      'FORBIDDEN',
    );
    // A shop admin may; '250.50' as text too; null clears it.
    await services().companies.setBuyerLimit(shopAdmin, id, buyer.actor.userId, '250.50');
    expect(
      (await services().companies.company(owner.actor, id)).members.find((m) => m.userId === buyer.actor.userId)
        ?.orderLimitCents,
    ).toBe(25_050);
    await services().companies.setBuyerLimit(owner.actor, id, buyer.actor.userId, null);
    expect(
      (await services().companies.company(owner.actor, id)).members.find((m) => m.userId === buyer.actor.userId)
        ?.orderLimitCents,
    ).toBeNull();
  });

  it('within the limit a checkout is unpaid; above it awaiting approval, holding stock and counted by the caps; it cannot be paid', async () => {
    const { id, owner, second, buyer } = await newCompany();
    const [a, b] = [await newPart(), await newPart()];
    const within = await checkout(buyer.actor, [{ partId: a.id, amount: 10 }]); // $100: at the limit
    expect(within.map((o) => o.status)).toEqual(['unpaid']);
    const above = await checkout(buyer.actor, [
      { partId: a.id, amount: 5 },
      { partId: b.id, amount: 6 },
    ]); // $110
    expect(above.map((o) => o.status)).toEqual(['awaiting_approval', 'awaiting_approval']);
    expect((await partRow(app, a.id)).available).toBe(85);
    expect((await partRow(app, b.id)).available).toBe(94);
    // A single order above the limit waits too.
    const single = await placeOrderAs(app, buyer.actor, b.id, { orderAmount: 11 });
    expect(single.status).toBe('awaiting_approval');
    // The cap on unpaid orders (3 here) counts them as unpaid.
    const capped = await expectAppError(placeOrderAs(app, buyer.actor, a.id, { orderAmount: 1 }), 'CONFLICT');
    expect(capped.message).toBe(tooManyUnpaidOrders(3));
    // Not payable: a clear 409 on every way to pay.
    const payment = await expectAppError(services().payments.createPaymentIntent(buyer.actor, above[0].id), 'CONFLICT');
    expect(payment.message).toBe(approvalMessages.awaitingNotPayable);
    // Emails: the buyer told it waits, both company admins asked; no "pay by" email.
    const key = above[0].checkoutId ?? '';
    expect(await mail('order_awaiting_approval', key)).toHaveLength(1);
    expect((await mail('approval_requested', key)).map((m) => m.toAddress).sort()).toEqual(
      [owner.user.email, second.user.email].sort(),
    );
    expect(await mail('order_placed', key)).toHaveLength(0);
    // The company's admins see both in their list (newest first); a buyer does not.
    const listed = await services().approvals.companyApprovals(owner.actor, id);
    expect(listed.total).toBe(2);
    expect(listed.items.map((i) => i.id)).toEqual([single.id, key]);
    expect(listed.items[1]).toMatchObject({ totalCents: 11_000, buyer: { userId: buyer.actor.userId } });
    expect(listed.items[1].orders).toHaveLength(2);
    await expectAppError(services().approvals.companyApprovals(buyer.actor, id), 'FORBIDDEN');
    expect((await services().approvals.companyApprovals(owner.actor, id, { offset: 1, limit: 1 })).items).toHaveLength(
      1,
    );
    await expectAppError(services().approvals.companyApprovals(owner.actor, id, { limit: 51 }), 'BAD_USER_INPUT');

    // Approved: unpaid with a fresh pay-by time, the buyer emailed, and now it can be paid.
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() + interval '1 minute'` })
      .where(eq(orders.checkoutId, key));
    const approved = await services().approvals.approveCheckout(second.actor, key);
    expect(approved.orders.map((o) => o.status)).toEqual(['unpaid', 'unpaid']);
    expect(approved.expiresAt.getTime() - Date.now()).toBeGreaterThan(30 * 60_000);
    expect(await mail('order_approved', key)).toHaveLength(1);
    const intent = await services().payments.createPaymentIntent(buyer.actor, above[0].id);
    const paid = await services().payments.payWithTestCard(buyer.actor, intent.id, testCard());
    expect(paid.succeeded).toBe(true);

    // Declined: the stock goes back, the buyer is emailed, it can never be paid, and may be deleted.
    const before = (await partRow(app, b.id)).available;
    const declined = await services().approvals.declineCheckout(owner.actor, single.id);
    expect(declined.orders.map((o) => o.status)).toEqual(['declined']);
    expect((await partRow(app, b.id)).available).toBe(before + 11);
    expect(await mail('order_declined', single.id)).toHaveLength(1);
    const refused = await expectAppError(services().payments.createPaymentIntent(buyer.actor, single.id), 'CONFLICT');
    expect(refused.message).toBe(approvalMessages.declinedNotPayable);
    await services().orders.cancelOrder(buyer.actor, single.id);
    expect((await partRow(app, b.id)).available).toBe(before + 11);
    expect((await services().approvals.companyApprovals(owner.actor, id)).total).toBe(0);
  });

  it('approve racing decline: exactly one wins, once, with one email', async () => {
    const { owner, second, buyer } = await newCompany();
    const part = await newPart();
    const placed = await checkout(buyer.actor, [{ partId: part.id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    const results = await Promise.allSettled([
      services().approvals.approveCheckout(owner.actor, key),
      services().approvals.declineCheckout(second.actor, key),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).toBe('CONFLICT');
    const [status] = await statuses(placed);
    expect(lost.reason.message).toBe(
      status === 'unpaid' ? approvalMessages.approvedAlready : approvalMessages.declinedAlready,
    );
    expect((await mail('order_approved', key)).length + (await mail('order_declined', key)).length).toBe(1);
    expect((await partRow(app, part.id)).available).toBe(status === 'unpaid' ? 80 : 100);
  });

  it('two company admins approving at once: one approval', async () => {
    const { owner, second, buyer } = await newCompany();
    const placed = await checkout(buyer.actor, [{ partId: (await newPart()).id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    const results = await Promise.allSettled([
      services().approvals.approveCheckout(owner.actor, key),
      services().approvals.approveCheckout(second.actor, key),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as Error).message).toBe(
      approvalMessages.approvedAlready,
    );
    expect(await mail('order_approved', key)).toHaveLength(1);
  });

  it('approve racing the buyer’s cancel: one wins; the stock comes back at most once', async () => {
    const { owner, buyer } = await newCompany();
    const part = await newPart();
    const placed = await checkout(buyer.actor, [{ partId: part.id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    const [approve, cancel] = await Promise.allSettled([
      services().approvals.approveCheckout(owner.actor, key),
      services().orders.cancelOrder(buyer.actor, placed[0].id),
    ]);
    if (approve.status === 'fulfilled' && cancel.status === 'fulfilled') {
      // The cancel read the order once it was approved: an unpaid order's cancel, after the approval.
      expect(await statuses(placed)).toEqual([]);
      expect((await partRow(app, part.id)).available).toBe(100);
      expect(await mail('order_approved', key)).toHaveLength(1);
    } else if (approve.status === 'fulfilled') {
      expect((cancel as PromiseRejectedResult).reason.message).toBe(approvalMessages.approvedMeanwhile);
      expect((await partRow(app, part.id)).available).toBe(80);
    } else {
      expect(approve.reason.message).toBe(approvalMessages.cancelledAlready);
      expect((await partRow(app, part.id)).available).toBe(100);
    }
    // The buyer's cancel of a whole awaiting checkout (two lines) deletes it all.
    const [p, q] = [await newPart(), await newPart()];
    const two = await checkout(buyer.actor, [
      { partId: p.id, amount: 6 },
      { partId: q.id, amount: 6 },
    ]);
    await services().orders.cancelOrder(buyer.actor, two[1].id);
    expect(await statuses(two)).toEqual([]);
    expect([(await partRow(app, p.id)).available, (await partRow(app, q.id)).available]).toEqual([100, 100]);
  });

  it('approve racing the expiry: one wins; a due checkout cannot be approved and is swept', async () => {
    const { owner, buyer } = await newCompany();
    const part = await newPart();
    const placed = await checkout(buyer.actor, [{ partId: part.id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.checkoutId, key));
    const logs = captureLogs();
    try {
      const [approve, swept] = await Promise.allSettled([
        services().approvals.approveCheckout(owner.actor, key),
        services().orders.expireDueOrders(),
      ]);
      // Due: approval refuses whichever ran first; the sweep expires it, once.
      expect(approve.status).toBe('rejected');
      expect((approve as PromiseRejectedResult).reason.message).toBe(approvalMessages.expiredAlready);
      expect(swept.status).toBe('fulfilled');
      expect(await services().orders.expireDueOrders()).toBe(0);
    } finally {
      logs.restore();
    }
    expect(await statuses(placed)).toEqual(['expired']);
    expect((await partRow(app, part.id)).available).toBe(100);
    // The buyer is told it expired unapproved, not that it went unpaid.
    const [told] = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'order_expired'), eq(outbox.dedupeKey, `order_expired:${placed[0].id}`)));
    expect(told.subject).toContain('expired before your company approved it');

    // Not yet due: an approval and a sweep at once leave it approved, and the sweep does not take it.
    const next = await checkout(buyer.actor, [{ partId: part.id, amount: 20 }]);
    const nextKey = next[0].checkoutId ?? '';
    const [approved] = await Promise.all([
      services().approvals.approveCheckout(owner.actor, nextKey),
      services().orders.expireDueOrders(),
    ]);
    expect(approved.orders[0].status).toBe('unpaid');
    expect((await partRow(app, part.id)).available).toBe(80);
  });

  it('a removed company admin cannot approve, nor another company’s admin nor buyer, nor a customer without a company', async () => {
    const { id, owner, second, buyer } = await newCompany();
    const placed = await checkout(buyer.actor, [{ partId: (await newPart()).id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    await services().companies.removeMember(owner.actor, id, second.actor.userId);
    const removed = await expectAppError(services().approvals.approveCheckout(second.actor, key), 'FORBIDDEN');
    expect(removed.message).toBe(companyMessages.notMember);
    const other = await newCompany();
    await expectAppError(services().approvals.approveCheckout(other.owner.actor, key), 'FORBIDDEN');
    await expectAppError(services().approvals.declineCheckout(other.buyer.actor, key), 'FORBIDDEN');
    await expectAppError(services().approvals.companyApprovals(other.owner.actor, id), 'FORBIDDEN');
    const loner = await account();
    await expectAppError(services().approvals.approveCheckout(loner.actor, key), 'FORBIDDEN');
    await expectAppError(services().approvals.declineCheckout(loner.actor, key), 'FORBIDDEN');
    await expectAppError(services().approvals.companyApprovals(loner.actor, id), 'FORBIDDEN');
    await expectAppError(services().companies.setBuyerLimit(loner.actor, id, buyer.actor.userId, 10), 'FORBIDDEN');
    // A buyer of the company neither sees the list nor decides; a shop admin sees it.
    await expectAppError(services().approvals.declineCheckout(buyer.actor, key), 'FORBIDDEN');
    expect((await services().approvals.companyApprovals(shopAdmin, id)).total).toBe(1);
    // The buyer themselves cannot approve their own order.
    await expectAppError(services().approvals.approveCheckout(buyer.actor, key), 'FORBIDDEN');
    await expectAppError(services().approvals.approveCheckout(owner.actor, 'not-an-id'), 'NOT_FOUND');
    expect(await statuses(placed)).toEqual(['awaiting_approval']);
    // A shop admin may decide.
    await services().approvals.declineCheckout(shopAdmin, key);
    expect(await statuses(placed)).toEqual(['declined']);
  });

  it('an admin removed while approving: the removal and the approval go one after the other', async () => {
    const { id, owner, second, buyer } = await newCompany();
    const placed = await checkout(buyer.actor, [{ partId: (await newPart()).id, amount: 20 }]);
    const key = placed[0].checkoutId ?? '';
    const [approve, removal] = await Promise.allSettled([
      services().approvals.approveCheckout(second.actor, key),
      services().companies.removeMember(owner.actor, id, second.actor.userId),
    ]);
    expect(removal.status).toBe('fulfilled');
    const [status] = await statuses(placed);
    // Approved before the removal, or refused after it: never approved by a non-member.
    expect(status).toBe(approve.status === 'fulfilled' ? 'unpaid' : 'awaiting_approval');
  });
});
