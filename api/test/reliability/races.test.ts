import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { orders, parts, payments, users } from '../../src/db/schema';
import { unpayableMessages } from '../../src/services/paymentsService';
import { databaseKinds, type DatabaseKind } from '../support/env';
import { addPart, orderInput } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { deliverWebhook, FakeStripe, stripeSettings } from '../services/fakeStripe';

/**
 * Races over HTTP, as clients cause them: many customers ordering the last units of a part, the client's
 * payment confirmation against Stripe's webhook, a cancel against a payment (the payment that loses is
 * refunded), an admin deleting a part or a user while orders are placed, paid and cancelled. On PostgreSQL
 * the requests run on separate connections at the same time; PGlite has one connection and runs one
 * transaction at a time, so there the same requests serialize (still in any order of arrival) and the
 * properties must hold too.
 */

const title = (kind: DatabaseKind) =>
  kind === 'postgres'
    ? 'races on PostgreSQL (concurrent connections)'
    : 'races on PGlite (one connection: the racing requests serialize)';
if (!databaseKinds.includes('postgres')) {
  console.info('races.test.ts: PostgreSQL runs skipped; set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test');
}

/** Runs `work` for 0..count-1, at most `width` at a time. */
async function inBatches<T>(count: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, k) => work(start + k));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

interface Answer {
  status: number;
  /** The order id of an accepted order. */
  id?: string;
  code?: string;
  message?: string;
  fields?: Record<string, string>;
}

describe.each(databaseKinds)('%s', (kind) => {
  describe(title(kind), () => {
    let fake: FakeStripe;
    let app: TestApp;
    let admin: TestUser;
    let customers: TestUser[];

    beforeAll(async () => {
      fake = new FakeStripe();
      await fake.start();
      app = await startTestApp(kind, { stripe: stripeSettings(fake.port) });
      admin = await app.signUp({ admin: true });
      customers = await inBatches(40, 8, () => app.signUp());
    });
    afterAll(async () => {
      await app?.close();
      await fake?.close();
    });

    const db = () => app.server.database.db;
    const partNow = async (id: string) => (await db().select().from(parts).where(eq(parts.id, id)))[0];
    const orderNow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0];
    const paymentsOf = (orderId: string) => db().select().from(payments).where(eq(payments.orderId, orderId));

    /** Places an order over GraphQL or REST; answers what the client saw. */
    async function order(via: 'graphql' | 'rest', user: TestUser, partId: string, orderAmount: number) {
      const input = orderInput(partId, { orderAmount });
      if (via === 'graphql') {
        const r = await app.gql<{ placeOrder: { id: string } }>(
          'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
          { input },
          user.token,
        );
        const error = r.errors?.[0];
        return {
          status: r.status,
          id: r.data?.placeOrder.id,
          code: error?.extensions?.code,
          message: error?.message,
          fields: error?.extensions?.fields,
        } satisfies Answer;
      }
      const r = await app.rest<{ insertedId?: string; message?: string; errors?: Record<string, string> }>(
        'POST',
        '/orders',
        input,
        user.token,
      );
      return {
        status: r.status,
        id: r.body.insertedId,
        message: r.body.message,
        fields: r.body.errors,
      } satisfies Answer;
    }

    /** Creates the Stripe intent of `user`'s order (as the payment page does); answers its id. */
    async function intentFor(user: TestUser, orderId: string) {
      const intent = await app.gql<{ createPaymentIntent: { id: string } }>(
        'mutation($orderId: ID!) { createPaymentIntent(orderId: $orderId) { id } }',
        { orderId },
        user.token,
      );
      if (!intent.data) throw new Error(`createPaymentIntent failed: ${JSON.stringify(intent.errors)}`);
      return intent.data.createPaymentIntent.id;
    }

    /** An unpaid order of `user` for `amount` units of `partId`; throws if it is refused. */
    async function placed(user: TestUser, partId: string, amount: number) {
      const answer = await order('graphql', user, partId, amount);
      if (!answer.id) throw new Error(`placeOrder failed: ${JSON.stringify(answer)}`);
      return answer.id;
    }

    /** An unpaid order of `user` for `amount` units of a new part with `available` units, and its Stripe intent. */
    async function orderWithIntent(user: TestUser, available: number, amount: number) {
      const partId = await addPart(app, admin.token, { price: 7.5, minOrder: 1, available });
      const orderId = await placed(user, partId, amount);
      return { partId, orderId, intentId: await intentFor(user, orderId) };
    }

    /** Stripe delivering payment_intent.succeeded for the intent, signed as Stripe signs it. */
    const webhook = (intentId: string) => deliverWebhook(app, fake.intents.get(intentId));

    /** The client telling the server it paid: GraphQL confirmPayment, or REST PATCH /order/{id}. */
    async function confirm(via: 'graphql' | 'rest', user: TestUser, orderId: string, intentId: string) {
      if (via === 'graphql') {
        const r = await app.gql<{ confirmPayment: { status: string; transactionId: string } }>(
          'mutation($orderId: ID!, $intentId: ID!) { confirmPayment(orderId: $orderId, paymentIntentId: $intentId) { status transactionId } }',
          { orderId, intentId },
          user.token,
        );
        return {
          status: r.status,
          paid: r.data?.confirmPayment.status === 'PAID',
          code: r.errors?.[0].extensions?.code,
          message: r.errors?.[0].message,
        };
      }
      const r = await app.rest<{ modifiedCount?: number; message?: string }>(
        'PATCH',
        `/order/${orderId}`,
        { transactionId: intentId },
        user.token,
      );
      return { status: r.status, paid: r.status === 200, code: undefined, message: r.body.message };
    }

    /** The customer (or an admin) cancelling: GraphQL cancelOrder, or REST DELETE /order/{id}. */
    async function cancel(via: 'graphql' | 'rest', user: TestUser, orderId: string) {
      if (via === 'graphql') {
        const r = await app.gql<{ cancelOrder: string }>(
          'mutation($id: ID!) { cancelOrder(id: $id) }',
          { id: orderId },
          user.token,
        );
        return {
          status: r.status,
          cancelled: r.data?.cancelOrder === orderId,
          code: r.errors?.[0].extensions?.code,
          message: r.errors?.[0].message,
        };
      }
      const r = await app.rest<{ deletedCount?: number; message?: string }>(
        'DELETE',
        `/order/${orderId}`,
        undefined,
        user.token,
      );
      return { status: r.status, cancelled: r.body.deletedCount === 1, code: undefined, message: r.body.message };
    }

    /** An admin deleting a part: GraphQL deletePart, or REST DELETE /part/{id}. */
    async function deletePart(via: 'graphql' | 'rest', partId: string) {
      if (via === 'graphql') {
        const r = await app.gql<{ deletePart: string }>(
          'mutation($id: ID!) { deletePart(id: $id) }',
          { id: partId },
          admin.token,
        );
        return { status: r.status, deleted: r.data?.deletePart === partId, message: r.errors?.[0].message };
      }
      const r = await app.rest<{ deletedCount?: number; message?: string }>(
        'DELETE',
        `/part/${partId}`,
        undefined,
        admin.token,
      );
      return { status: r.status, deleted: r.body.deletedCount === 1, message: r.body.message };
    }

    /** An admin deleting a user: GraphQL deleteUser, or REST DELETE /user/{id}. */
    async function deleteUser(via: 'graphql' | 'rest', userId: string) {
      if (via === 'graphql') {
        const r = await app.gql<{ deleteUser: string }>(
          'mutation($id: ID!) { deleteUser(id: $id) }',
          { id: userId },
          admin.token,
        );
        return { status: r.status, deleted: r.data?.deleteUser === userId, message: r.errors?.[0].message };
      }
      const r = await app.rest<{ deletedCount?: number; message?: string }>(
        'DELETE',
        `/user/${userId}`,
        undefined,
        admin.token,
      );
      return { status: r.status, deleted: r.body.deletedCount === 1, message: r.body.message };
    }

    /** Unpaid orders without their part or their user, anywhere in the database: there must never be any. */
    const orphans = () =>
      db()
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, 'unpaid'), or(isNull(orders.partId), isNull(orders.userId))));

    /** The units the orders on a part hold now. */
    async function unitsOrdered(partId: string): Promise<number> {
      const [{ units }] = await db()
        .select({ units: sql<number>`coalesce(sum(${orders.orderAmount}), 0)::int` })
        .from(orders)
        .where(eq(orders.partId, partId));
      return units;
    }

    /**
     * Keeps the app's log lines about refunds (warnings on stdout, errors on stderr) out of the test output
     * and answers them; other lines go through.
     */
    function refundLogs() {
      const lines: string[] = [];
      const spies = [process.stdout, process.stderr].map((stream) => {
        const write = stream.write.bind(stream);
        return jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
          const line = String(chunk);
          if (line.includes('refund')) lines.push(line);
          else write(chunk);
          return true;
        });
      });
      return { lines, restore: () => spies.forEach((spy) => spy.mockRestore()) };
    }

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    /**
     * `orderers` placing orders on `partIds` in turn, four at a time, until an order is refused as `refused`
     * says (at most 48 orders): so an admin's delete started meanwhile lands before, during and after orders.
     */
    async function keepOrdering(orderers: TestUser[], partIds: string[], refused: (a: Answer) => boolean) {
      const answers: Answer[] = [];
      for (let k = 0; k < 48; k += 4) {
        const batch = await Promise.all(
          [k, k + 1, k + 2, k + 3].map((n) =>
            order(n % 2 ? 'rest' : 'graphql', orderers[n % orderers.length], partIds[n % partIds.length], 1 + (n % 4)),
          ),
        );
        answers.push(...batch);
        if (batch.some(refused)) break;
      }
      return answers;
    }

    it('200 concurrent orders by 40 customers on a part with limited stock: each is accepted or clearly refused, stock never below 0 and ends at start - accepted', async () => {
      const start = 400;
      const partId = await addPart(app, admin.token, { price: 4.5, minOrder: 2, available: start });
      const amounts = Array.from({ length: 200 }, (_, i) => 2 + ((i * 5) % 7)); // 2..8, about 1000 in all
      expect(amounts.reduce((a, b) => a + b, 0)).toBeGreaterThan(start * 2);

      // Watch the stock while the orders race: it only goes down, and never below 0.
      const seen: number[] = [];
      let racing = true;
      const watcher = (async () => {
        while (racing) {
          seen.push((await partNow(partId)).available);
          await new Promise((r) => setTimeout(r, 2));
        }
      })();
      const answers = await Promise.all(
        amounts.map((amount, i) => order(i % 2 ? 'rest' : 'graphql', customers[i % customers.length], partId, amount)),
      );
      racing = false;
      await watcher;

      const accepted = answers.flatMap((a, i) => (a.id ? [{ id: a.id, amount: amounts[i] }] : []));
      const refused = answers.flatMap((a, i) => (a.id ? [] : [{ answer: a, amount: amounts[i] }]));
      for (const a of answers) expect(a.status).toBeLessThan(500);
      for (const { answer } of refused) {
        // The spec's message for an amount above the stock, per field, as a 400 (REST) or BAD_USER_INPUT.
        expect(answer.fields?.orderAmount).toMatch(/^Only \d+ items available$/);
        expect(answer.message).toBe(answer.fields?.orderAmount);
        if (answer.code !== undefined) expect(answer.code).toBe('BAD_USER_INPUT');
        else expect(answer.status).toBe(400);
      }
      expect(accepted.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);

      const acceptedSum = accepted.reduce((sum, a) => sum + a.amount, 0);
      const after = await partNow(partId);
      expect(after.available).toBe(start - acceptedSum);
      expect(after.sold).toBe(acceptedSum);
      // An order is refused only when it did not fit what was left then (and the stock only went down since).
      for (const { amount } of refused) expect(amount).toBeGreaterThan(after.available);
      expect(seen.length).toBeGreaterThan(0);
      for (const [i, n] of seen.entries()) {
        expect(n).toBeGreaterThanOrEqual(0);
        if (i > 0) expect(n).toBeLessThanOrEqual(seen[i - 1]);
      }
      // The orders written are exactly the accepted ones.
      const written = await db().select().from(orders).where(eq(orders.partId, partId));
      expect(written.map((o) => o.id).sort()).toEqual(accepted.map((a) => a.id).sort());
      const amountOf = new Map(accepted.map((a) => [a.id, a.amount]));
      for (const o of written) {
        expect(o.orderAmount).toBe(amountOf.get(o.id));
        expect(o.totalCents).toBe(450 * o.orderAmount);
      }
    });

    it('the client’s confirmation and Stripe’s webhook racing, 24 rounds: one payment recorded, the order paid once', async () => {
      const rounds = await inBatches(24, 4, async (round) => {
        const customer = customers[round % customers.length];
        const { orderId, intentId } = await orderWithIntent(customer, 20, 3);
        fake.succeed(intentId);
        const racers = [
          () => confirm('graphql', customer, orderId, intentId),
          () => webhook(intentId),
          () => confirm('rest', customer, orderId, intentId),
          () => webhook(intentId),
        ];
        // Each round starts them in another order.
        const order_ = racers.map((_, k) => racers[(k + round) % racers.length]);
        const answers = await Promise.all(order_.map((run) => run()));
        return { orderId, intentId, answers };
      });
      for (const { orderId, intentId, answers } of rounds) {
        for (const a of answers) expect(a.status).toBe(200);
        const confirmations = answers.filter((a): a is Awaited<ReturnType<typeof confirm>> => 'paid' in a);
        for (const c of confirmations) expect(c.paid).toBe(true);
        const rows = await paymentsOf(orderId);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ transactionId: intentId, amountCents: 2250, gateway: 'stripe' });
        expect(await orderNow(orderId)).toMatchObject({ status: 'paid', transactionId: intentId });
        expect(await db().select().from(payments).where(eq(payments.transactionId, intentId))).toHaveLength(1);
      }
    });

    it('concurrent REST confirmations of one payment, 12 rounds: exactly one answers modifiedCount 1, the others 0', async () => {
      const rounds = await inBatches(12, 3, async (round) => {
        const customer = customers[(round * 3) % customers.length];
        const { orderId, intentId } = await orderWithIntent(customer, 20, 2);
        fake.succeed(intentId);
        const answers = await Promise.all(
          Array.from({ length: 5 }, () =>
            app.rest<{ matchedCount?: number; modifiedCount?: number }>(
              'PATCH',
              `/order/${orderId}`,
              { transactionId: intentId },
              customer.token,
            ),
          ),
        );
        const again = await app.rest<{ modifiedCount?: number }>(
          'PATCH',
          `/order/${orderId}`,
          { transactionId: intentId },
          customer.token,
        );
        return { orderId, answers, again };
      });
      for (const { orderId, answers, again } of rounds) {
        for (const a of answers) expect(a.status).toBe(200);
        expect(answers.map((a) => a.body.modifiedCount).sort()).toEqual([0, 0, 0, 0, 1]);
        for (const a of answers) expect(a.body).toMatchObject({ acknowledged: true, matchedCount: 1 });
        expect(again.body.modifiedCount).toBe(0);
        expect(await paymentsOf(orderId)).toHaveLength(1);
      }
    });

    it('a cancel racing a payment, 36 rounds in every order of arrival: the order ends paid or cancelled, never both, the stock agrees, and a payment that lost is refunded exactly once', async () => {
      type Arrival = 'cancel first' | 'payment first' | 'together';
      const arrivals: Arrival[] = ['cancel first', 'payment first', 'together', 'payment first'];
      const outcomes = { paid: 0, cancelled: 0 };
      const logs = refundLogs();
      try {
        const rounds = await inBatches(36, 4, async (round) => {
          const customer = customers[(round * 7) % customers.length];
          const { partId, orderId, intentId } = await orderWithIntent(customer, 30, 4);
          fake.succeed(intentId); // the card is charged at Stripe before either request arrives
          const arrival = arrivals[round % arrivals.length];
          const cancelVia = round % 2 ? 'rest' : 'graphql';
          // The payment comes as the client's confirmation, as the webhook, or as both; the cancel from the
          // customer or an admin.
          const payVia = (['confirm', 'webhook', 'both'] as const)[Math.floor(round / 4) % 3];
          const canceller = (round >> 2) % 2 ? admin : customer;
          const confirmIt = () => confirm(round % 3 ? 'graphql' : 'rest', customer, orderId, intentId);
          const pay = async () => {
            if (payVia === 'confirm') return { confirmed: [await confirmIt()], delivered: [] };
            if (payVia === 'webhook') return { confirmed: [], delivered: [await webhook(intentId)] };
            const [c, w] = await Promise.all([confirmIt(), webhook(intentId)]);
            return { confirmed: [c], delivered: [w] };
          };
          const cancelIt = () => cancel(cancelVia, canceller, orderId);
          let answers: [Awaited<ReturnType<typeof cancel>>, Awaited<ReturnType<typeof pay>>];
          if (arrival === 'together') answers = await Promise.all([cancelIt(), pay()]);
          else if (arrival === 'cancel first') {
            const c = cancelIt();
            await new Promise((r) => setImmediate(r));
            answers = await Promise.all([c, pay()]);
          } else {
            // A payment takes longer than a cancel (the confirmation asks Stripe first): give it a head start
            // of 0 to 45 ms, so that over the rounds the cancel arrives before, during and after its lock.
            const p = pay();
            await sleep((round * 7) % 48);
            answers = [await cancelIt(), await p];
          }
          return { partId, orderId, intentId, answers };
        });

        for (const { partId, orderId, intentId, answers } of rounds) {
          const [cancelled, { confirmed, delivered }] = answers;
          expect(cancelled.status).toBeLessThan(500);
          for (const a of [...confirmed, ...delivered]) expect(a.status).toBeLessThan(500);
          const row = await orderNow(orderId);
          const rows = await paymentsOf(orderId);
          const part = await partNow(partId);
          if (row) {
            // Paid: the cancel was refused, one payment, the stock stays sold, nothing refunded.
            outcomes.paid++;
            expect(row).toMatchObject({ status: 'paid', transactionId: intentId });
            expect(rows).toHaveLength(1);
            expect(part).toMatchObject({ available: 26, sold: 4 });
            expect(cancelled.cancelled).toBe(false);
            expect(cancelled.message).toBe('A paid order cannot be cancelled');
            expect([409, 200]).toContain(cancelled.status);
            for (const c of confirmed) expect(c.paid).toBe(true);
            for (const d of delivered) expect(d.body).toMatchObject({ received: true, recorded: true });
            expect(fake.refundsOf(intentId)).toEqual([]);
          } else {
            // Cancelled: no payment recorded, the stock back exactly once, the payment refused and refunded.
            outcomes.cancelled++;
            expect(rows).toHaveLength(0);
            expect(part).toMatchObject({ available: 30, sold: 0 });
            expect(cancelled.cancelled).toBe(true);
            for (const c of confirmed) {
              expect(c.paid).toBe(false);
              expect(c.message).toBe(unpayableMessages.order_cancelled.refunded);
            }
            for (const d of delivered) {
              expect(d.status).toBe(200);
              expect(d.body).toEqual({ received: true, recorded: false, refunded: true });
            }
            // The money Stripe took for the cancelled order went back once, whoever (or both) noticed.
            const refunds = fake.refundsOf(intentId);
            expect(refunds).toHaveLength(1);
            expect(refunds[0]).toMatchObject({ amount: 3000, reason: 'requested_by_customer' });
          }
          expect(await db().select().from(payments).where(eq(payments.transactionId, intentId))).toHaveLength(
            row ? 1 : 0,
          );
        }
      } finally {
        logs.restore();
      }
      // A refund that failed would be logged as an error; none did.
      expect(logs.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
      console.info(`cancel vs payment on ${kind}: ${JSON.stringify(outcomes)}`);
      expect(outcomes.paid + outcomes.cancelled).toBe(36);
    });

    it('deleting a part while orders are placed on it, paid and cancelled, 12 rounds: no unpaid order outlives its part, paid ones stay, a payment that lost is refunded', async () => {
      const totals = { accepted: 0, refused: 0, paid: 0, refunded: 0 };
      const logs = refundLogs();
      try {
        const rounds = await inBatches(12, 3, async (round) => {
          const partId = await addPart(app, admin.token, { price: 5, minOrder: 1, available: 200 });
          const [holder, payer, canceller] = [0, 1, 2].map((k) => customers[(round * 3 + k) % customers.length]);
          // Before the race: a paid order (it stays), an unpaid one charged at Stripe whose payment races the
          // delete, and one its customer cancels during it.
          const paidOrder = await placed(holder, partId, 4);
          const paidIntent = await intentFor(holder, paidOrder);
          fake.succeed(paidIntent);
          expect((await webhook(paidIntent)).body).toMatchObject({ recorded: true });
          const charged = await placed(payer, partId, 3);
          const chargedIntent = await intentFor(payer, charged);
          fake.succeed(chargedIntent);
          const toCancel = await placed(canceller, partId, 2);

          const orderers = [0, 1, 2, 3].map((k) => customers[(round * 5 + k) % customers.length]);
          const placing = keepOrdering(orderers, [partId], (a) => a.message === 'Part not found');
          const paying = webhook(chargedIntent);
          const cancelling = cancel(round % 2 ? 'rest' : 'graphql', canceller, toCancel);
          await sleep((round * 5) % 30);
          const deleting = deletePart(round % 2 ? 'graphql' : 'rest', partId);
          const [orderAnswers, paid, cancelled, deleted] = await Promise.all([placing, paying, cancelling, deleting]);
          return { partId, paidOrder, charged, chargedIntent, orderAnswers, paid, cancelled, deleted };
        });

        for (const r of rounds) {
          expect(r.deleted).toMatchObject({ status: 200, deleted: true });
          expect(await partNow(r.partId)).toBeUndefined();
          for (const a of [...r.orderAnswers, r.paid, r.cancelled]) expect(a.status).toBeLessThan(500);
          for (const a of r.orderAnswers) {
            if (a.id) {
              // Accepted before the part went: it went with the part (it was unpaid).
              totals.accepted++;
              expect(await orderNow(a.id)).toBeUndefined();
            } else {
              totals.refused++;
              expect(a.message).toBe('Part not found');
              expect(a.code ?? a.status).toBe(a.code ? 'NOT_FOUND' : 404);
            }
          }
          expect(await orderNow(r.paidOrder)).toMatchObject({ status: 'paid', partId: null });
          // The cancel either got there first or found the order gone with the part.
          expect(r.cancelled.cancelled || r.cancelled.message === 'Order not found').toBe(true);
          const charged = await orderNow(r.charged);
          if (charged) {
            totals.paid++;
            expect(charged).toMatchObject({ status: 'paid', partId: null, transactionId: r.chargedIntent });
            expect(await paymentsOf(r.charged)).toHaveLength(1);
            expect(r.paid.body).toMatchObject({ received: true, recorded: true });
            expect(fake.refundsOf(r.chargedIntent)).toEqual([]);
          } else {
            totals.refunded++;
            expect(r.paid.body).toEqual({ received: true, recorded: false, refunded: true });
            expect(fake.refundsOf(r.chargedIntent)).toHaveLength(1);
          }
        }
        expect(await orphans()).toEqual([]);
      } finally {
        logs.restore();
      }
      console.info(`delete part vs orders on ${kind}: ${JSON.stringify(totals)}`);
      // Over the rounds, orders were placed before the part went, and refused after.
      expect(totals.accepted).toBeGreaterThan(0);
      expect(totals.refused).toBeGreaterThanOrEqual(12);
    });

    it('deleting a user while they place orders and a payment of theirs arrives, 8 rounds: no unpaid order outlives its user, and each part’s stock is its start minus the orders left on it', async () => {
      const totals = { accepted: 0, refused: 0, paid: 0, refunded: 0 };
      const start = 100;
      const logs = refundLogs();
      try {
        const rounds = await inBatches(8, 2, async (round) => {
          const victim = await app.signUp();
          const p1 = await addPart(app, admin.token, { price: 3, minOrder: 1, available: start });
          const p2 = await addPart(app, admin.token, { price: 3, minOrder: 1, available: start });
          const other = customers[(round * 11) % customers.length];
          // Before the race: the user's unpaid order (its stock comes back), a paid one (it stays, detached),
          // an unpaid one charged at Stripe whose payment races the delete; another customer's order stays.
          await placed(victim, p1, 3);
          const paidOrder = await placed(victim, p2, 1);
          const paidIntent = await intentFor(victim, paidOrder);
          fake.succeed(paidIntent);
          expect((await webhook(paidIntent)).body).toMatchObject({ recorded: true });
          const charged = await placed(victim, p2, 2);
          const chargedIntent = await intentFor(victim, charged);
          fake.succeed(chargedIntent);
          await placed(other, p1, 5);

          // The user keeps ordering on both parts (the ones whose stock the delete gives back), others too.
          const own = keepOrdering([victim], [p1, p2], (a) => a.status === 401);
          const others = Promise.all(
            Array.from({ length: 4 }, (_, k) =>
              order(k % 2 ? 'graphql' : 'rest', customers[(round * 5 + k) % customers.length], k % 2 ? p2 : p1, 2),
            ),
          );
          // The payment arrives before the delete in half the rounds, just after it in the others.
          const early = round % 2 === 0 ? webhook(chargedIntent) : undefined;
          await sleep((round * 7) % 30);
          const deleting = deleteUser(round % 2 ? 'rest' : 'graphql', victim.userId);
          const paying = early ?? new Promise<void>((r) => setImmediate(r)).then(() => webhook(chargedIntent));
          const [ownAnswers, otherAnswers, paid, deleted] = await Promise.all([own, others, paying, deleting]);
          return { victim, p1, p2, paidOrder, charged, chargedIntent, ownAnswers, otherAnswers, paid, deleted };
        });

        for (const r of rounds) {
          expect(r.deleted).toMatchObject({ status: 200, deleted: true });
          expect(await db().select().from(users).where(eq(users.id, r.victim.userId))).toEqual([]);
          for (const a of [...r.ownAnswers, ...r.otherAnswers, r.paid]) expect(a.status).toBeLessThan(500);
          for (const a of r.ownAnswers) {
            if (a.id) {
              // Placed before the user went: cancelled with them (it was unpaid), its stock given back.
              totals.accepted++;
              expect(await orderNow(a.id)).toBeUndefined();
            } else {
              totals.refused++;
              expect({ status: a.status, message: a.message }).toEqual({
                status: 401,
                message: 'This account no longer exists',
              });
            }
          }
          for (const a of r.otherAnswers) expect(a.id && (await orderNow(a.id))).toMatchObject({ status: 'unpaid' });
          expect(await orderNow(r.paidOrder)).toMatchObject({ status: 'paid', userId: null });
          const charged = await orderNow(r.charged);
          if (charged) {
            totals.paid++;
            expect(charged).toMatchObject({ status: 'paid', userId: null, transactionId: r.chargedIntent });
            expect(await paymentsOf(r.charged)).toMatchObject([{ userId: null }]);
            expect(fake.refundsOf(r.chargedIntent)).toEqual([]);
          } else {
            totals.refunded++;
            expect(r.paid.body).toEqual({ received: true, recorded: false, refunded: true });
            expect(fake.refundsOf(r.chargedIntent)).toHaveLength(1);
          }
          // Every unit is either on an order that is still there or back on the shelf.
          for (const partId of [r.p1, r.p2]) {
            const units = await unitsOrdered(partId);
            expect(await partNow(partId)).toMatchObject({ available: start - units, sold: units });
          }
        }
        expect(await orphans()).toEqual([]);
      } finally {
        logs.restore();
      }
      console.info(`delete user vs their orders on ${kind}: ${JSON.stringify(totals)}`);
      expect(totals.accepted).toBeGreaterThan(0);
      expect(totals.refused).toBeGreaterThanOrEqual(8);
    });
  });
});
