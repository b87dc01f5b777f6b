import { renderInvoicePdf } from '../../src/invoicing/invoicePdf';
import { approvalMessages } from '../../src/companies/companyApprovals';
import type { OrderRow } from '../../src/db/schema';
import { expectWellFormedPdf } from '../invoicing/pdfCheck';
import { actorOf, addPartAs, expectAppError, signUp } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { generousOrderLimits, startTestApp, type TestApp } from '../support/testApp';

/**
 * Issue 35 points 2-4 together, as a workshop buys: a buyer above their limit checks out at the company's price,
 * the order waits for approval (paying it on account is refused and says why), the company admin approves, the
 * buyer pays on account, and the invoice carries the company price, marked as such, and the figures of the order.
 */
describe.each(databaseKinds)('a company buys: limit, approval, company price, pay on account (%s)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { orders: generousOrderLimits });
  });
  afterAll(() => app?.close());

  it('the checkout waits for approval, then is paid on account at the company price, invoiced as such', async () => {
    const services = app.server.services;
    const shopAdmin = await actorOf(app, await signUp(app, { admin: true }));
    const owner = await actorOf(app, await signUp(app, { verified: true }));
    const buyerUser = await signUp(app, { verified: true });
    const buyer = await actorOf(app, buyerUser);
    const { company } = await services.companies.createCompany(owner, { name: 'Journey Motors', taxId: 'BIN-77' });
    const invitation = await services.companies.inviteToCompany(owner, company.id, {
      email: buyerUser.email,
      role: 'buyer',
    });
    await services.companies.acceptInvitation(buyer, invitation.id);
    await services.companies.setBuyerLimit(owner, company.id, buyer.userId, 100);
    await services.invoicing.setCompanyTerms(shopAdmin, company.id, { termsDays: 30, creditLimit: 1000 });
    // List $12.50 a unit; the company pays $10.00.
    const part = await addPartAs(app, shopAdmin, { price: 12.5, minOrder: 1, available: 100 });
    await services.companyPrices.setCompanyPartPrice(shopAdmin, company.id, part.id, { price: 10 });

    await services.cart.addToCart(buyer, part.id, 20);
    const placed = (
      await services.cart.checkout(buyer, { name: 'Nadia', phone: '01712345678', address: 'Tejgaon, Dhaka' })
    ).orders as OrderRow[];
    expect(placed.map((o) => [o.status, o.unitPriceCents, o.totalCents, o.companyPriced])).toEqual([
      ['awaiting_approval', 1000, 20_000, true],
    ]);
    const refused = await expectAppError(services.invoicing.payOnAccount(buyer, placed[0].id), 'CONFLICT');
    expect(refused.message).toBe(approvalMessages.awaitingNotPayable);

    await services.approvals.approveCheckout(owner, placed[0].checkoutId ?? placed[0].id);
    const issued = await services.invoicing.payOnAccount(buyer, placed[0].id);
    expect(issued.invoice.totalCents).toBe(20_000);
    expect(issued.invoice.companyTaxId).toBe('BIN-77');
    const lines = issued.lines ?? (await services.invoicing.linesOf(issued.invoice.id));
    expect(lines.map((l) => [l.orderAmount, l.unitPriceCents, l.listUnitPriceCents, l.companyPriced])).toEqual([
      [20, 1000, 1250, true],
    ]);
    const text = expectWellFormedPdf(
      renderInvoicePdf(issued.invoice, lines, { name: 'PartsYard', address: 'Dhaka', taxId: 'BIN 9' }),
    );
    for (const shown of ['(your price) Tj', '($10.00) Tj', '($200.00) Tj', '(Journey Motors) Tj'])
      expect(text).toContain(shown);
  });
});
