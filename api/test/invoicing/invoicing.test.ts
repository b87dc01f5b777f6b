import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { invoices, invoiceCounter } from '../../src/invoicing/invoicingSchema';
import { invoicingMessages } from '../../src/invoicing/invoicingService';
import { orders, outbox } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { actorOf, addPartAs, expectAppError, placeOrderAs, signUp, testCard } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';
import { expectWellFormedPdf } from './pdfCheck';
import { startMailer } from '../../src/services/mailer';
import { startSmtpCatcher } from '../support/smtpCatcher';

// 20 concurrent payments on account, each a transaction, on a loaded machine.
jest.setTimeout(120_000);

/**
 * Issue 35 point 4: pay on account. Terms and a credit limit on a company; a member's unpaid checkout paid with an
 * invoice while the company owes no more than its limit and nothing is overdue (checked with the company's row
 * held); invoices numbered without gaps; part payments; one reminder per overdue invoice; through the services.
 */
describe.each(databaseKinds)('pay on account (%s)', (kind) => {
  let app: TestApp;
  let shopAdmin: Actor;
  let partId: string;

  beforeAll(async () => {
    app = await startTestApp(kind);
    shopAdmin = await actorOf(app, await signUp(app, { admin: true }));
    // $12.50 each, at least 10: an order of 10 costs $125.00; from 100 on, $9.50 (a break).
    partId = (
      await addPartAs(app, shopAdmin, {
        available: 1_000_000,
        priceTiers: [{ minUnits: 100, price: 9.5 }],
      })
    ).id;
  });
  afterAll(() => app?.close());

  const services = () => app.server.services;
  const invoicing = () => app.server.services.invoicing;
  const db = () => app.server.database.db;
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;
  const account = async () => actorOf(app, await signUp(app, { verified: true }));
  /** A company with its admin and a buyer; terms when `limit` (dollars) is given. */
  const newCompany = async (limit?: number, termsDays = 30) => {
    const admin = await account();
    const id = (
      await services().companies.createCompany(admin, { name: `Moto Works ${unique()}`, taxId: 'BIN 123-456' })
    ).company.id;
    const buyer = await account();
    const invitation = await services().companies.inviteToCompany(admin, id, { email: buyer.email, role: 'buyer' });
    await services().companies.acceptInvitation(buyer, invitation.id);
    if (limit !== undefined) await invoicing().setCompanyTerms(shopAdmin, id, { termsDays, creditLimit: limit });
    return { id, admin, buyer };
  };
  const order = (actor: Actor, amount = 10) => placeOrderAs(app, actor, partId, { orderAmount: amount });
  const numbers = async () =>
    (await db().select({ n: invoices.number }).from(invoices).orderBy(invoices.number)).map((r) => r.n);
  const expectGapless = async () => {
    const all = await numbers();
    expect(all).toEqual(all.map((_, i) => i + 1));
    const [{ next }] = await db().select({ next: invoiceCounter.next }).from(invoiceCounter);
    expect(next).toBe(all.length + 1);
  };

  it('terms are the shop admins’: 15, 30 or 60 days and a limit in dollars; members read them, others do not', async () => {
    const { id, admin, buyer } = await newCompany();
    expect(await invoicing().companyAccount(buyer, id)).toBeNull();
    await expectAppError(invoicing().setCompanyTerms(admin, id, { termsDays: 30, creditLimit: 1000 }), 'FORBIDDEN');
    for (const [input, field] of [
      [{ termsDays: 45, creditLimit: 1000 }, 'termsDays'],
      [{ termsDays: '30x', creditLimit: 1000 }, 'termsDays'],
      [{ termsDays: 30, creditLimit: -1 }, 'creditLimit'],
      [{ termsDays: 30, creditLimit: 1.234 }, 'creditLimit'],
      [{ termsDays: 30, creditLimit: 'lots' }, 'creditLimit'],
    ] as const) {
      const refused = await expectAppError(invoicing().setCompanyTerms(shopAdmin, id, input), 'BAD_USER_INPUT');
      expect(Object.keys(refused.fields ?? {})).toEqual([field]);
    }
    await invoicing().setCompanyTerms(shopAdmin, id, { termsDays: 15, creditLimit: 2500.5 });
    expect(await invoicing().companyAccount(buyer, id)).toMatchObject({
      termsDays: 15,
      creditLimitCents: 250050,
      owedCents: 0,
      availableCents: 250050,
      overdueInvoices: 0,
    });
    await expectAppError(invoicing().companyAccount(await account(), id), 'FORBIDDEN');
    await expectAppError(invoicing().companyAccount(null, id), 'UNAUTHENTICATED');
    await expectAppError(
      invoicing().setCompanyTerms(shopAdmin, 'nope', { termsDays: 15, creditLimit: 1 }),
      'NOT_FOUND',
    );
  });

  it('a member pays a checkout on account: the orders are paid, never expire, an invoice is issued, emailed with its PDF and downloadable', async () => {
    const { id, admin, buyer } = await newCompany(10_000);
    await services().cart.addToCart(buyer, partId, 10);
    const other = (await addPartAs(app, shopAdmin, { available: 1000, price: 4 })).id;
    await services().cart.addToCart(buyer, other, 100);
    const checkout = await services().cart.checkout(buyer, {
      name: 'Ana Rider',
      phone: '01712345678',
      address: 'Road 5',
    });
    const placed = checkout.orders;
    expect(placed).toHaveLength(2);
    const view = await invoicing().payOnAccount(buyer, placed[0].id);
    expect(view.invoice.totalCents).toBe(12500 + 40000);
    expect(view.invoice.companyId).toBe(id);
    expect(view.invoice.dueAt.getTime() - view.invoice.issuedAt.getTime()).toBe(30 * 86_400_000);
    expect((view.lines ?? []).map((l) => [l.partName, l.orderAmount, l.unitPriceCents, l.totalCents])).toHaveLength(2);
    const rows = await db()
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((o) => o.id),
        ),
      );
    expect(
      rows.every(
        (o) => o.status === 'paid' && o.transactionId === `invoice:INV-${String(view.invoice.number).padStart(6, '0')}`,
      ),
    ).toBe(true);
    // Past its pay-by time, an order on account is not expired by the sweep.
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 day'` })
      .where(
        inArray(
          orders.id,
          placed.map((o) => o.id),
        ),
      );
    await services().orders.expireDueOrders();
    expect((await db().select().from(orders).where(eq(orders.id, placed[0].id)))[0].status).toBe('paid');
    // It ships through the admin's usual flow.
    expect((await services().orders.markShipped(shopAdmin, placed[0].id)).changed).toBe(true);
    // Paying again: refused, nothing changes.
    const again = await expectAppError(invoicing().payOnAccount(buyer, placed[1].id), 'CONFLICT');
    expect(again.message).toMatch(/already paid/);
    // Emailed to the buyer and the company admin, the PDF attached.
    const mail = await db()
      .select()
      .from(outbox)
      .where(like(outbox.dedupeKey, `invoice_issued:${view.invoice.id}:%`));
    expect(mail.map((m) => m.toAddress).sort()).toEqual([admin.email, buyer.email].sort());
    const attached = mail[0].attachments?.[0];
    expect(attached?.contentType).toBe('application/pdf');
    expectWellFormedPdf(Buffer.from(attached?.contentBase64 ?? '', 'base64'));
    // Downloadable by the buyer, the company's admins and shop admins; nobody else.
    for (const who of [buyer, admin, shopAdmin]) {
      const { filename, pdf } = await invoicing().invoicePdf(who, view.invoice.id);
      expect(filename).toMatch(/^INV-\d{6}\.pdf$/);
      expect(expectWellFormedPdf(pdf)).toContain('(Tax id: BIN 123-456) Tj');
    }
    const stranger = (await newCompany()).admin;
    await expectAppError(invoicing().invoicePdf(stranger, view.invoice.id), 'FORBIDDEN');
    await expectAppError(invoicing().invoice(await account(), view.invoice.id), 'FORBIDDEN');
    // Another buyer of the same company sees only their own.
    const second = await account();
    const inv = await services().companies.inviteToCompany(admin, id, { email: second.email, role: 'buyer' });
    await services().companies.acceptInvitation(second, inv.id);
    const refused = await expectAppError(invoicing().invoice(second, view.invoice.id), 'FORBIDDEN');
    expect(refused.message).toBe(invoicingMessages.buyersOwnInvoices);
    expect((await invoicing().companyInvoices(second, id, {})).total).toBe(0);
    expect((await invoicing().companyInvoices(admin, id, {})).items.map((i) => i.invoice.id)).toEqual([
      view.invoice.id,
    ]);
    expect((await invoicing().companyInvoices(buyer, id, { status: 'open' })).total).toBe(1);
    expect((await invoicing().companyInvoices(buyer, id, { status: 'paid' })).total).toBe(0);
    await expectAppError(invoicing().companyInvoices(buyer, id, { status: 'late' }), 'BAD_USER_INPUT');
    expect((await invoicing().allInvoices(shopAdmin, {})).total).toBeGreaterThanOrEqual(1);
    await expectAppError(invoicing().allInvoices(admin, {}), 'FORBIDDEN');
    await expectGapless();
  });

  it('is refused, changing nothing, without a company, without terms, for another’s order, and past the credit limit', async () => {
    const loner = await account();
    const lonely = await order(loner);
    expect((await expectAppError(invoicing().payOnAccount(loner, lonely.id), 'FORBIDDEN')).message).toBe(
      invoicingMessages.notMember,
    );
    await expectAppError(invoicing().payOnAccount(shopAdmin, lonely.id), 'FORBIDDEN');
    const noTerms = await newCompany();
    const unpaid = await order(noTerms.buyer);
    expect((await expectAppError(invoicing().payOnAccount(noTerms.buyer, unpaid.id), 'CONFLICT')).message).toBe(
      invoicingMessages.noTerms,
    );
    const { id, admin, buyer } = await newCompany(300);
    // The company admin cannot pay the buyer's order on account (orders are their owner's to pay).
    const buyers = await order(buyer);
    await expectAppError(invoicing().payOnAccount(admin, buyers.id), 'FORBIDDEN');
    await expectAppError(invoicing().payOnAccount(buyer, lonely.id), 'FORBIDDEN');
    await expectAppError(invoicing().payOnAccount(buyer, 'not-an-id'), 'NOT_FOUND');
    await invoicing().payOnAccount(buyer, buyers.id); // $125 of $300
    await invoicing().payOnAccount(buyer, (await order(buyer)).id); // $250
    const third = await order(buyer);
    const over = await expectAppError(invoicing().payOnAccount(buyer, third.id), 'CONFLICT');
    expect(over.message).toBe(invoicingMessages.overLimit(25000, 30000, 12500));
    expect((await db().select().from(orders).where(eq(orders.id, third.id)))[0].status).toBe('unpaid');
    expect(await invoicing().companyAccount(admin, id)).toMatchObject({ owedCents: 25000, availableCents: 5000 });
    // A member removed is refused at once.
    await services().companies.removeMember(admin, id, buyer.userId);
    await expectAppError(invoicing().payOnAccount(buyer, third.id), 'FORBIDDEN');
    await expectGapless();
  });

  it('20 checkouts at once never take the company past its limit, and their invoices are numbered without gaps', async () => {
    // $1,000: eight orders of $125 fit; twenty are tried at once by twenty buyers.
    const { id, admin } = await newCompany(1000);
    const buyers: Actor[] = [];
    for (let i = 0; i < 20; i += 1) {
      const buyer = await account();
      const invitation = await services().companies.inviteToCompany(admin, id, { email: buyer.email, role: 'buyer' });
      await services().companies.acceptInvitation(buyer, invitation.id);
      buyers.push(buyer);
    }
    const placed = await Promise.all(buyers.map((b) => order(b)));
    const results = await Promise.allSettled(placed.map((o, i) => invoicing().payOnAccount(buyers[i], o.id)));
    const paid = results.filter((r) => r.status === 'fulfilled');
    expect(paid).toHaveLength(8);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as Error).message).toMatch(/past its credit limit/);
    const account_ = await invoicing().companyAccount(admin, id);
    expect(account_).toMatchObject({ owedCents: 100000, availableCents: 0 });
    const ofCompany = await db().select().from(invoices).where(eq(invoices.companyId, id));
    expect(ofCompany.reduce((s, i) => s + i.totalCents, 0)).toBe(100000);
    await expectGapless();
  });

  it('racing a cancel, one wins; an order past its pay-by time is refused as expired; the numbers stay gapless', async () => {
    const { buyer } = await newCompany(100_000);
    for (let i = 0; i < 5; i += 1) {
      const racing = await order(buyer);
      const [paid, cancelled] = await Promise.allSettled([
        invoicing().payOnAccount(buyer, racing.id),
        services().orders.cancelOrder(buyer, racing.id),
      ]);
      expect([paid.status, cancelled.status].filter((s) => s === 'fulfilled')).toHaveLength(1);
      const [row] = await db().select().from(orders).where(eq(orders.id, racing.id));
      if (paid.status === 'fulfilled') expect(row?.status).toBe('paid');
      else expect(row).toBeUndefined();
    }
    const late = await order(buyer);
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.id, late.id));
    const refused = await expectAppError(invoicing().payOnAccount(buyer, late.id), 'CONFLICT');
    expect(refused.message).toMatch(/expired/);
    await expectGapless();
  });

  it('a card charged for an order paid on account meanwhile is refunded, the order staying on its invoice', async () => {
    const { buyer } = await newCompany(100_000);
    const racing = await order(buyer);
    const intent = await services().payments.createPaymentIntent(buyer, racing.id);
    await services().payments.payWithTestCard(buyer, intent.id, testCard());
    const { invoice } = await invoicing().payOnAccount(buyer, racing.id);
    const refused = await expectAppError(services().payments.confirmPayment(buyer, racing.id, intent.id), 'CONFLICT');
    expect(refused.message).toMatch(/refunded/);
    const [row] = await db().select().from(orders).where(eq(orders.id, racing.id));
    expect(row.transactionId).toBe(`invoice:INV-${String(invoice.number).padStart(6, '0')}`);
  });

  it('a payment on account rolled back after taking its number gives the number back', async () => {
    const { buyer } = await newCompany(10_000);
    const first = await invoicing().payOnAccount(buyer, (await order(buyer)).id);
    // The invoice's lines fail to be written for this one order (a trigger), after the number was taken.
    const doomed = await order(buyer);
    await db().execute(
      sql.raw(`create or replace function fail_invoice_line() returns trigger language plpgsql as $$
      begin if new.order_id = '${doomed.id}' then raise exception 'no lines today'; end if; return new; end $$`),
    );
    await db().execute(
      sql`create trigger fail_invoice_line before insert on invoice_lines for each row execute function fail_invoice_line()`,
    );
    try {
      await expect(invoicing().payOnAccount(buyer, doomed.id)).rejects.toThrow();
    } finally {
      await db().execute(sql`drop trigger fail_invoice_line on invoice_lines`);
      await db().execute(sql`drop function fail_invoice_line()`);
    }
    expect((await db().select().from(orders).where(eq(orders.id, doomed.id)))[0].status).toBe('unpaid');
    const next = await invoicing().payOnAccount(buyer, doomed.id);
    expect(next.invoice.number).toBe(first.invoice.number + 1);
    await expectGapless();
  });

  it('admins record part payments up to what is outstanding; paid in full, the invoice is paid', async () => {
    const { id, admin, buyer } = await newCompany(10_000);
    const { invoice } = await invoicing().payOnAccount(buyer, (await order(buyer)).id); // $125.00
    await expectAppError(invoicing().recordInvoicePayment(admin, invoice.id, { amount: 10 }), 'FORBIDDEN');
    for (const [input, field] of [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 'x' }, 'amount'],
      [{ amount: 125.01 }, 'amount'],
      [{ amount: 10, receivedOn: '2026-02-30' }, 'receivedOn'],
      [{ amount: 10, receivedOn: '2999-01-01' }, 'receivedOn'],
      [{ amount: 10, note: 'x'.repeat(501) }, 'note'],
    ] as const) {
      const refused = await expectAppError(
        invoicing().recordInvoicePayment(shopAdmin, invoice.id, input),
        'BAD_USER_INPUT',
      );
      expect(Object.keys(refused.fields ?? {})).toEqual([field]);
    }
    const part = await invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 40, note: 'Bank transfer 1' });
    expect(part.invoice.paidCents).toBe(4000);
    expect(part.status).toBe('open');
    const tooMuch = await expectAppError(
      invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 90 }),
      'BAD_USER_INPUT',
    );
    expect(tooMuch.fields?.amount).toBe(invoicingMessages.amountTooMuch(8500));
    // Two admins recording the rest at once: one of them does.
    const both = await Promise.allSettled([
      invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 85, receivedOn: '2026-01-02' }),
      invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 85 }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const done = await invoicing().invoice(admin, invoice.id);
    expect(done.status).toBe('paid');
    expect(done.invoice.paidCents).toBe(12500);
    expect((done.payments ?? []).map((p) => p.amountCents)).toEqual([4000, 8500]);
    await expectAppError(invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 1 }), 'CONFLICT');
    expect(await invoicing().companyAccount(admin, id)).toMatchObject({ owedCents: 0 });
    expect((await invoicing().companyInvoices(admin, id, { status: 'paid' })).total).toBe(1);
  });

  it('an overdue invoice sends one reminder (however many sweeps run) and stops orders on account until it is paid', async () => {
    const { id, admin, buyer } = await newCompany(10_000);
    const { invoice } = await invoicing().payOnAccount(buyer, (await order(buyer)).id);
    await db()
      .update(invoices)
      .set({ dueAt: sql`now() - interval '1 day'` })
      .where(eq(invoices.id, invoice.id));
    expect((await invoicing().companyInvoices(admin, id, { status: 'overdue' })).total).toBe(1);
    const next = await order(buyer);
    expect((await expectAppError(invoicing().payOnAccount(buyer, next.id), 'CONFLICT')).message).toBe(
      invoicingMessages.overdue(1),
    );
    expect(await invoicing().companyAccount(buyer, id)).toMatchObject({ overdueInvoices: 1, availableCents: 0 });
    const sweeps = await Promise.all([
      invoicing().remindOverdue(),
      invoicing().remindOverdue(),
      invoicing().remindOverdue(),
    ]);
    expect(sweeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await invoicing().remindOverdue()).toBe(0);
    const reminders = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'invoice_overdue'), like(outbox.dedupeKey, `invoice_overdue:${invoice.id}:%`)));
    expect(reminders.map((m) => m.toAddress).sort()).toEqual([admin.email, buyer.email].sort());
    const [row] = await db().select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row.remindedAt).not.toBeNull();
    await invoicing().recordInvoicePayment(shopAdmin, invoice.id, { amount: 125 });
    expect((await invoicing().payOnAccount(buyer, next.id)).invoice.number).toBeGreaterThan(invoice.number);
  });

  it('the mail worker delivers the invoice with its PDF attached', async () => {
    const { buyer } = await newCompany(10_000);
    const { invoice } = await invoicing().payOnAccount(buyer, (await order(buyer)).id);
    const catcher = await startSmtpCatcher();
    const mailer = startMailer(db(), {
      smtpUrl: catcher.url,
      from: 'PartsYard <orders@partsyard.test>',
      pollIntervalMs: null,
      timeoutMs: 3000,
    });
    try {
      await mailer.runOnce();
      const reference = `INV-${String(invoice.number).padStart(6, '0')}`;
      const mail = catcher.messages.find((m) => m.to.includes(buyer.email ?? '') && m.subject.includes(reference));
      expect(mail).toBeDefined();
      const raw = mail?.raw ?? '';
      expect(raw).toMatch(/Content-Type: application\/pdf; name=INV-\d{6}\.pdf/);
      const part = raw.split(/Content-Disposition: attachment; filename=INV-\d{6}\.pdf\r?\n\r?\n/)[1] ?? '';
      const base64 = part.split(/\r?\n--/)[0].replace(/\s+/g, '');
      expectWellFormedPdf(Buffer.from(base64, 'base64'));
    } finally {
      await mailer.stop();
      await catcher.close();
    }
  });
});
