import { databaseKinds } from '../support/env';
import { addPart, placeOrder } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { expectWellFormedPdf } from './pdfCheck';

/**
 * Pay on account over the API (issue 35 point 4; docs/api.md): GraphQL and the REST shim adapt the one service.
 * A shop admin grants terms, a buyer pays an order on account over REST, the invoice is read over GraphQL and
 * its PDF downloaded; a refusal is a clear 409, never a 5xx.
 */
describe.each(databaseKinds)('pay on account over the API (%s)', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let buyer: TestUser;
  let companyId: string;
  let partId: string;

  beforeAll(async () => {
    app = await startTestApp(kind);
    [admin, owner, buyer] = await Promise.all([
      app.signUp({ admin: true }),
      app.signUp({ verified: true }),
      app.signUp({ verified: true }),
    ]);
    partId = await addPart(app, admin.token, { available: 10_000, price: 10, minOrder: 1 });
    const created = await app.rest<{ _id: string }>(
      'POST',
      '/companies',
      { name: 'Dhaka Moto', taxId: 'BIN 42' },
      owner.token,
    );
    companyId = created.body._id;
    const invited = await app.rest<{ _id: string }>(
      'POST',
      `/companies/${companyId}/invitations`,
      { email: buyer.email, role: 'buyer' },
      owner.token,
    );
    expect(
      (await app.rest('POST', `/company-invitations/${invited.body._id}/accept`, undefined, buyer.token)).status,
    ).toBe(200);
  });
  afterAll(() => app?.close());

  it('terms granted over GraphQL, an order paid on account over REST, the invoice read and its PDF downloaded', async () => {
    const granted = await app.gql<{ setCompanyTerms: { termsDays: number; creditLimit: number; available: number } }>(
      'mutation($id: ID!) { setCompanyTerms(companyId: $id, termsDays: 15, creditLimit: 300) { termsDays creditLimit available } }',
      { id: companyId },
      admin.token,
    );
    expect(granted.data?.setCompanyTerms).toEqual({ termsDays: 15, creditLimit: 300, available: 300 });
    const refusedTerms = await app.rest(
      'PUT',
      `/companies/${companyId}/terms`,
      { termsDays: 45, creditLimit: 1 },
      admin.token,
    );
    expect(refusedTerms).toMatchObject({
      status: 400,
      body: { errors: { termsDays: 'Terms are net 15, 30 or 60 days' } },
    });

    const order = await placeOrder(app, buyer.token, partId, { orderAmount: 20 });
    const paid = await app.rest<{ _id: string; reference: string; total: number; status: string; pdfUrl: string }>(
      'POST',
      `/orders/${order.id}/pay-on-account`,
      undefined,
      buyer.token,
    );
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ total: 200, status: 'open', pdfUrl: `/api/invoices/${paid.body._id}.pdf` });
    const orderNow = await app.gql<{ order: { status: string; transactionId: string } }>(
      'query($id: ID!) { order(id: $id) { status transactionId } }',
      { id: order.id },
      buyer.token,
    );
    expect(orderNow.data?.order).toEqual({ status: 'PAID', transactionId: `invoice:${paid.body.reference}` });

    const read = await app.gql<{ invoice: Record<string, unknown> }>(
      'query($id: ID!) { invoice(id: $id) { reference companyTaxId status total outstanding termsDays lines { partName amount unitPrice total } } }',
      { id: paid.body._id },
      owner.token,
    );
    expect(read.data?.invoice).toMatchObject({
      reference: paid.body.reference,
      companyTaxId: 'BIN 42',
      status: 'OPEN',
      total: 200,
      outstanding: 200,
      termsDays: 15,
      lines: [{ amount: 20, unitPrice: 10, total: 200 }],
    });

    const res = await fetch(`${app.url}/api/invoices/${paid.body._id}.pdf`, {
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${paid.body.reference}.pdf"`);
    expectWellFormedPdf(Buffer.from(await res.arrayBuffer()));
    // Another customer learns nothing; an id that names nothing is a 404.
    const stranger = await app.signUp();
    expect((await app.rest('GET', `/invoices/${paid.body._id}.pdf`, undefined, stranger.token)).status).toBe(403);
    expect((await app.rest('GET', '/invoices/nope.pdf', undefined, buyer.token)).status).toBe(404);

    // Past the limit: 409 with the reason, the order still unpaid.
    const big = await placeOrder(app, buyer.token, partId, { orderAmount: 20 });
    const over = await app.gql<{ payOnAccount: unknown }>(
      'mutation($id: ID!) { payOnAccount(orderId: $id) { id } }',
      { id: big.id },
      buyer.token,
    );
    expect(over.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(over.errors?.[0]?.message).toMatch(/past its credit limit of \$300\.00/);

    const listed = await app.rest<{ total: number; items: { reference: string }[] }>(
      'GET',
      `/companies/${companyId}/invoices?status=open`,
      undefined,
      owner.token,
    );
    expect(listed.body).toMatchObject({ total: 1, items: [{ reference: paid.body.reference }] });
    expect((await app.rest('GET', `/companies/${companyId}/invoices?status=late`, undefined, owner.token)).status).toBe(
      400,
    );
    const payment = await app.rest<{ paid: number; status: string; payments: unknown[] }>(
      'POST',
      `/invoices/${paid.body._id}/payments`,
      { amount: 200, note: 'Bank 8812' },
      admin.token,
    );
    expect(payment.body).toMatchObject({ paid: 200, status: 'paid', payments: [{ amount: 200, note: 'Bank 8812' }] });
    const all = await app.gql<{ invoices: { total: number } }>('{ invoices(status: PAID) { total } }', {}, admin.token);
    expect(all.data?.invoices.total).toBe(1);
  });
});
