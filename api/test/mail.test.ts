import { eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/database';
import { orders, outbox, type OrderRow, type OutboxRow } from '../src/db/schema';
import { startServer, type RunningServer } from '../src/server';
import type { Actor } from '../src/services/actor';
import { escapeHtml } from '@partsyard/common';
import { money, receiptEmail, utcTime } from '../src/services/emails';
import { expireDueOrdersIn } from '../src/services/expiry';
import { backoffMs, claimDueMail, renewLease, startMailer, type Mailer } from '../src/services/mailer';
import { enqueueEmail } from '../src/services/outbox';
import { actorOf, addPartAs, expectAppError, placeOrderAs, signUp, testCard } from './services/helpers';
import { databaseKinds } from './support/env';
import { captureLogs } from './support/logs';
import { freePort } from './support/ports';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtpCatcher';
import { startTestApp, testConfig, type TestApp, type TestUser } from './support/testApp';

/**
 * Order emails (issue 14, point 4): every change that tells the customer something writes its email to the
 * outbox in the change's own transaction, and the mail worker delivers the outbox over SMTP: retried with
 * backoff while the server is down, never lost across a restart, never sent twice by workers racing.
 * The SMTP server is a real one (smtp-server) in this process.
 */

describe.each(databaseKinds)('order emails (%s)', (kind) => {
  let app: TestApp;
  let admin: Actor;
  let customerUser: TestUser;
  let customer: Actor;
  const mailers: Mailer[] = [];
  const catchers: SmtpCatcher[] = [];

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await actorOf(app, await signUp(app, { admin: true }));
    customerUser = await signUp(app, { name: 'Rider <b>One</b>' });
    customer = await actorOf(app, customerUser);
  });
  afterEach(async () => {
    for (const mailer of mailers.splice(0)) await mailer.stop();
    for (const catcher of catchers.splice(0)) await catcher.close();
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;
  const services = () => app.server.services;
  /** The outbox rows written since `since` (a row count), of one kind. */
  const mailOf = async (kindName: string, to = customerUser.email): Promise<OutboxRow[]> =>
    db()
      .select()
      .from(outbox)
      .where(sql`${outbox.kind} = ${kindName} and ${outbox.toAddress} = ${to}`)
      .orderBy(outbox.createdAt);
  const unsent = async () =>
    (
      await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.sentAt} is null`)
    ).length;
  /** Everything queued so far counts as sent: each test below sees only its own messages. */
  const markAllSent = () =>
    db()
      .update(outbox)
      .set({ sentAt: sql`now()` })
      .where(sql`${outbox.sentAt} is null`);
  const quietly = async <T>(work: () => Promise<T>): Promise<T> => {
    const logs = captureLogs();
    try {
      return await work();
    } finally {
      logs.restore();
    }
  };
  const mailer = (smtpUrl: string, options: { backoffMs?: number; database?: Database; leaseMs?: number } = {}) => {
    const worker = startMailer(options.database?.db ?? db(), {
      smtpUrl,
      from: 'PartsYard <orders@partsyard.test>',
      pollIntervalMs: null,
      backoffMs: options.backoffMs ?? 20,
      timeoutMs: 3000,
      ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    });
    mailers.push(worker);
    return worker;
  };
  const queueTestMail = async (count: number, label: string) => {
    for (let i = 0; i < count; i++) {
      await enqueueEmail(db(), {
        kind: 'test',
        to: `reader-${i}@example.test`,
        subject: `${label} ${i}`,
        html: `<p>${label} ${i}</p>`,
        text: `${label} ${i}`,
        dedupeKey: `${label}:${i}`,
      });
    }
  };

  it('placing an order queues "order placed" with the lines, the total and the pay-by time', async () => {
    const part = await addPartAs(app, admin, { name: 'Chain & Sprocket <Kit>', price: 4.25, minOrder: 2 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 6, name: 'Rider <b>One</b>' });
    const [mail] = await mailOf('order_placed');
    expect(mail.subject).toContain('pay by');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(utcTime(order.expiresAt));
      expect(body).toContain(money(order.totalCents));
      expect(body).toContain(money(425));
    }
    expect(mail.text).toContain('Chain & Sprocket <Kit>: 6 x $4.25 = $25.50');
    // User text is escaped in the HTML body, and nothing is loaded from elsewhere.
    expect(mail.html).toContain(escapeHtml('Chain & Sprocket <Kit>'));
    expect(mail.html).not.toContain('<Kit>');
    expect(mail.html).not.toContain('<b>One</b>');
    expect(mail.html).not.toMatch(/<img|src=|url\(|https?:\/\//i);
  });

  it('paying queues the receipt with the lines, unit prices, total and transaction id; shipping queues "shipped"', async () => {
    const part = await addPartAs(app, admin, { name: 'Oil Filter', price: 3.1, minOrder: 1 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 7 });
    const intent = await services().payments.createPaymentIntent(customer, order.id);
    await services().payments.payWithTestCard(customer, intent.id, testCard());
    await services().payments.confirmPayment(customer, order.id, intent.id);
    // Confirmed again (the webhook, the sweep): still one receipt.
    await services().payments.confirmPayment(customer, order.id, intent.id);
    const receipts = (await mailOf('payment_receipt')).filter((m) => m.text.includes(intent.id));
    expect(receipts).toHaveLength(1);
    expect(receipts[0].text).toContain('Oil Filter: 7 x $3.10 = $21.70');
    expect(receipts[0].text).toContain(`Transaction id: ${intent.id}`);
    expect(receipts[0].text).toContain('Total paid: $21.70');
    expect(receipts[0].html).toContain(intent.id);

    await services().orders.markShipped(admin, order.id);
    await services().orders.markShipped(admin, order.id); // shipping again changes nothing
    const shipped = (await mailOf('order_shipped')).filter((m) => m.dedupeKey === `order_shipped:${order.id}`);
    expect(shipped).toHaveLength(1);
    expect(shipped[0].text).toContain('We have shipped 7 x Oil Filter.');
  });

  it('the receipt builder takes several orders paid by one transaction id (a checkout)', () => {
    const line = (id: string, partName: string, amount: number, unit: number) => ({
      id,
      email: 'buyer@example.test',
      name: 'Buyer',
      address: 'Road 1',
      partName,
      orderAmount: amount,
      unitPriceCents: unit,
      totalCents: amount * unit,
      expiresAt: new Date(),
    });
    const mail = receiptEmail({
      transactionId: 'pi_test_many',
      orders: [line('a1111111-x', 'Pads', 10, 1250), line('b2222222-x', 'Chain', 2, 4999)],
    });
    expect(mail.to).toBe('buyer@example.test');
    expect(mail.text).toContain('Pads: 10 x $12.50 = $125.00');
    expect(mail.text).toContain('Chain: 2 x $49.99 = $99.98');
    expect(mail.text).toContain('Total paid: $224.98');
    expect(mail.dedupeKey).toBe('payment_receipt:pi_test_many');
  });

  it('the expiry sweep queues "expired" in its transaction; a rolled-back sweep queues nothing', async () => {
    const part = await addPartAs(app, admin, { name: 'Brake Lever', price: 9, minOrder: 1 });
    const order = await placeOrderAs(app, customer, part.id, { orderAmount: 2 });
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.id, order.id));
    const expiredMail = async () =>
      (await mailOf('order_expired')).filter((m) => m.dedupeKey === `order_expired:${order.id}`);
    // The sweep's transaction fails after expiring the order: the order is unpaid again and no email exists.
    await expect(
      db().transaction(async (tx) => {
        expect(await expireDueOrdersIn(tx, eq(orders.id, order.id))).toHaveLength(1);
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    expect(await expiredMail()).toHaveLength(0);
    await quietly(() => services().orders.expireDueOrders());
    const [mail] = await expiredMail();
    expect(mail.text).toContain('Brake Lever: 2 x $9.00 = $18.00');
    expect(mail.text).toContain('went back on sale');
  });

  it('the contact form queues a confirmation with none of the sender’s text in it; a refused message queues nothing', async () => {
    const email = `writer-${Date.now()}@example.test`;
    // What a script would have the shop mail to a stranger: an offer and a link, in the message and the names.
    const message = 'Cheap watches at http://spam.example/buy <a href="http://spam.example">here</a>';
    const kept = await services().contact.sendMessage({
      firstName: 'Win a prize',
      lastName: 'at spam.example',
      phone: '',
      email,
      message,
    });
    expect(kept.message).toBe(message); // kept whole for the admins
    const [mail] = await mailOf('contact_confirmation', email);
    expect(mail.subject).toBe('We have received your message');
    for (const body of [mail.subject, mail.text, mail.html]) {
      expect(body).not.toMatch(/watches|spam\.example|prize/i);
    }
    expect(mail.text).toContain('If you did not write to us');
    await expectAppError(
      services().contact.sendMessage({ firstName: '', lastName: 'Uddin', email: 'x@example.test', message: 'Hi' }),
      'BAD_USER_INPUT',
    );
    expect(await mailOf('contact_confirmation', 'x@example.test')).toHaveLength(0);
  });

  it('with the SMTP server down nothing is lost: the mail is retried with backoff and goes out once it is up', async () => {
    await markAllSent();
    await queueTestMail(3, 'down-then-up');
    const port = await freePort();
    const worker = mailer(`smtp://127.0.0.1:${port}`, { backoffMs: 5000 });
    const down = await quietly(() => worker.runOnce());
    expect(down).toEqual({ sent: 0, retried: 3, failed: 0 });
    const waiting = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.sentAt} is null`);
    expect(waiting).toHaveLength(3);
    for (const row of waiting) {
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(row.lockedUntil).toBeNull();
      // Retried after the backoff (5 s here, less up to 20 % jitter), not at once.
      expect(row.nextAttemptAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(3500);
    }
    // Not due yet (backoff): a run right away sends nothing and tries nothing.
    expect(await worker.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    const catcher = await startSmtpCatcher({ port });
    catchers.push(catcher);
    // Time passes: the retry is due.
    await db()
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(sql`${outbox.sentAt} is null`);
    expect(await quietly(() => worker.runOnce())).toEqual({ sent: 3, retried: 0, failed: 0 });
    expect(catcher.messages.map((m) => m.subject).sort()).toEqual([
      'down-then-up 0',
      'down-then-up 1',
      'down-then-up 2',
    ]);
    expect(await unsent()).toBe(0);
    const ids = waiting.map((r) => r.id);
    const sent = await db().select().from(outbox).where(inArray(outbox.id, ids));
    for (const row of sent) expect(row.attempts).toBe(2);
    // The Message-ID is the outbox row's: a receiver can tell a repeated delivery.
    expect(catcher.messages.map((m) => m.messageId).sort()).toEqual(ids.map((id) => `<${id}@partsyard.test>`).sort());
  });

  it('the backoff doubles per attempt up to its cap, with at most 20 % taken off', () => {
    for (const [attempts, full] of [
      [1, 5000],
      [2, 10_000],
      [3, 20_000],
      [10, 2_560_000],
      [11, 3_600_000],
      [50, 3_600_000],
    ]) {
      const wait = backoffMs(attempts, 5000, 3_600_000);
      expect(wait).toBeLessThanOrEqual(full);
      expect(wait).toBeGreaterThanOrEqual(full * 0.8);
    }
  });

  it('two workers racing (two replicas) send every message exactly once', async () => {
    await markAllSent();
    await queueTestMail(24, 'race');
    const catcher = await startSmtpCatcher({ delayMs: 5 });
    catchers.push(catcher);
    // On PostgreSQL the second worker has its own pool, as another process would.
    const other: Database =
      app.config.database.kind === 'postgres'
        ? await openDatabase({ ...app.config.database, poolSize: 2 })
        : { ...app.server.database, close: async () => undefined };
    try {
      const runs = await quietly(() =>
        Promise.all([mailer(catcher.url).runOnce(), mailer(catcher.url, { database: other }).runOnce()]),
      );
      expect(runs[0].sent + runs[1].sent).toBe(24);
      // With claims in batches of 5, both workers got some (they really raced).
      expect(runs[0].sent).toBeGreaterThan(0);
      expect(runs[1].sent).toBeGreaterThan(0);
    } finally {
      for (const worker of mailers.splice(0)) await worker.stop();
      await other.close();
    }
    const subjects = catcher.messages.map((m) => m.subject);
    expect(subjects).toHaveLength(24);
    expect(new Set(subjects).size).toBe(24);
    expect(await unsent()).toBe(0);
  });

  it('a relay slower than the lease, and a second worker meanwhile: every message is delivered exactly once', async () => {
    await markAllSent();
    await queueTestMail(4, 'slow relay');
    // The relay answers each message's DATA 1.5 s late; a claim holds a message 0.5 s unless renewed.
    const catcher = await startSmtpCatcher({ delayMs: 1500 });
    catchers.push(catcher);
    const other: Database =
      app.config.database.kind === 'postgres'
        ? await openDatabase({ ...app.config.database, poolSize: 2 })
        : { ...app.server.database, close: async () => undefined };
    const first = mailer(catcher.url, { leaseMs: 500 });
    const second = mailer(catcher.url, { leaseMs: 500, database: other });
    /** A worker's runs one after another until nothing is left unsent (a replica's timer, quickened). */
    const keepRunning = async (worker: Mailer) => {
      const total = { sent: 0, retried: 0, failed: 0 };
      while ((await unsent()) > 0) {
        const run = await worker.runOnce();
        total.sent += run.sent;
        total.retried += run.retried;
        total.failed += run.failed;
        await new Promise((r) => setTimeout(r, 50));
      }
      return total;
    };
    const logs = captureLogs();
    let runs: { sent: number; retried: number; failed: number }[];
    try {
      // The second starts while the first is sending its first message, the rest of its claim's leases run out.
      runs = await Promise.all([
        keepRunning(first),
        new Promise((r) => setTimeout(r, 700)).then(() => keepRunning(second)),
      ]);
    } finally {
      logs.restore();
      for (const worker of mailers.splice(0)) await worker.stop();
      await other.close();
    }
    const subjects = catcher.messages.map((m) => m.subject).sort();
    expect(subjects).toEqual(['slow relay 0', 'slow relay 1', 'slow relay 2', 'slow relay 3']);
    expect(runs[0].sent + runs[1].sent).toBe(4);
    expect(runs.every((r) => r.retried === 0 && r.failed === 0)).toBe(true);
    // Both sent some: the second really took messages the first had claimed.
    expect(runs[0].sent).toBeGreaterThan(0);
    expect(runs[1].sent).toBeGreaterThan(0);
    expect(logs.events('email_lease_lost').length).toBeGreaterThan(0);
    expect(logs.events('email_sent_lease_lost')).toEqual([]);
  });

  it('a worker whose claim was taken over can no longer renew its lease, so it does not send', async () => {
    await markAllSent();
    await queueTestMail(1, 'fenced');
    const [lost] = await claimDueMail(db(), 10, 60_000);
    // Its lease runs out and another worker claims the message.
    await db()
      .update(outbox)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, lost.id));
    const [taken] = await claimDueMail(db(), 10, 60_000);
    expect(taken.id).toBe(lost.id);
    expect(taken.leaseToken).not.toBe(lost.leaseToken);
    expect(await renewLease(db(), lost, 60_000)).toBe(false);
    expect(await renewLease(db(), taken, 60_000)).toBe(true);
  });

  it('a message claimed by a worker that died is sent by another once its lease runs out', async () => {
    await markAllSent();
    await queueTestMail(1, 'orphan');
    // A worker claims it and dies before sending.
    expect(await claimDueMail(db(), 10, 60_000)).toHaveLength(1);
    const catcher = await startSmtpCatcher();
    catchers.push(catcher);
    const worker = mailer(catcher.url);
    expect((await worker.runOnce()).sent).toBe(0); // still leased
    // Time passes: the lease runs out.
    await db()
      .update(outbox)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(sql`${outbox.sentAt} is null`);
    expect((await quietly(() => worker.runOnce())).sent).toBe(1);
    expect(catcher.messages.map((m) => m.subject)).toEqual(['orphan 0']);
  });

  it('a restart keeps queued mail: a server stopped with mail queued, the next one started delivers it', async () => {
    await markAllSent();
    const catcher = await startSmtpCatcher();
    catchers.push(catcher);
    const deadPort = await freePort();
    const own = (): Promise<Database> | Database =>
      app.config.database.kind === 'postgres'
        ? openDatabase({ ...app.config.database, poolSize: 2 })
        : { ...app.server.database, close: async () => undefined };
    const replica = async (smtpUrl: string): Promise<RunningServer> =>
      startServer(
        testConfig({
          database: app.config.database,
          mail: { smtpUrl, from: 'PartsYard <orders@partsyard.test>', pollIntervalMs: 50 },
        }),
        { database: await own() },
      );
    // The first process cannot reach its mail server; a customer writes meanwhile; it stops.
    const first = await replica(`smtp://127.0.0.1:${deadPort}`);
    const email = `restart-${Date.now()}@example.test`;
    await first.services.contact.sendMessage({ firstName: 'Ana', lastName: 'Lee', phone: '', email, message: 'Hi' });
    await quietly(async () => {
      // Twice: the first may be a run of its timer that began before the message was written.
      await first.mailer?.runOnce();
      await first.mailer?.runOnce();
      await first.close();
    });
    const [queued] = await mailOf('contact_confirmation', email);
    expect(queued.sentAt).toBeNull();
    expect(queued.attempts).toBeGreaterThanOrEqual(1);
    // Time passes (its retry is due); the next process, with its mail server up, delivers it by its own timer.
    await db()
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.id, queued.id));
    const second = await replica(catcher.url);
    try {
      await quietly(async () => {
        const start = Date.now();
        while (!catcher.messages.length && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 50));
      });
    } finally {
      await second.close();
    }
    expect(catcher.messages.map((m) => m.to)).toEqual([[email]]);
    expect((await mailOf('contact_confirmation', email))[0].sentAt).not.toBeNull();
  });

  it('a sweep expiring many orders of one customer queues one email (its long key stored as a hash)', async () => {
    const part = await addPartAs(app, admin, { name: 'Washer', price: 1, minOrder: 1, available: 1000 });
    const placed: OrderRow[] = [];
    for (let i = 0; i < 30; i++) placed.push(await placeOrderAs(app, customer, part.id, { orderAmount: 1 }));
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(
        inArray(
          orders.id,
          placed.map((o) => o.id),
        ),
      );
    expect(await quietly(() => services().orders.expireDueOrders())).toBe(30);
    const mail = (await mailOf('order_expired')).filter((m) => m.subject.startsWith('30 of your'));
    expect(mail).toHaveLength(1);
    expect(mail[0].dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(mail[0].text).toContain('Total: $30.00');
  });

  it('a permanent refusal (5xx to the recipient) is marked failed and not retried', async () => {
    await markAllSent();
    await queueTestMail(1, 'refused');
    const { SMTPServer } = await import('smtp-server');
    const port = await freePort();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    const worker = mailer(`smtp://127.0.0.1:${port}`);
    try {
      const run = await quietly(() => worker.runOnce());
      expect(run).toEqual({ sent: 0, retried: 0, failed: 1 });
      const [row] = await db().select().from(outbox).where(eq(outbox.dedupeKey, 'refused:0'));
      expect(row.failedAt).not.toBeNull();
      expect(row.lastError).toMatch(/No such mailbox/);
    } finally {
      await worker.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
