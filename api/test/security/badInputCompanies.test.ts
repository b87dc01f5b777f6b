import { actorOf, addPartAs, signUp } from '../services/helpers';
import { adapterDatabaseKinds } from '../support/env';
import { generousOrderLimits, startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Issue 35's REST routes (companies, approvals, prices, pay on account, invoices) asked with odd ids, bodies and
 * query strings, as a company admin and as a shop admin: every answer is a clear 4xx (or a 2xx for a harmless
 * input), never a 5xx, and always a message. The rules behind each refusal are the services' tests'.
 */

const routes: [method: string, path: string][] = [
  ['GET', '/company'],
  ['DELETE', '/company'],
  ['GET', '/companies'],
  ['POST', '/companies'],
  ['GET', '/companies/:id'],
  ['PATCH', '/companies/:id'],
  ['POST', '/companies/:id/addresses'],
  ['DELETE', '/companies/:id/addresses/:other'],
  ['POST', '/companies/:id/invitations'],
  ['PUT', '/companies/:id/members/:other'],
  ['DELETE', '/companies/:id/members/:other'],
  ['PUT', '/companies/:id/members/:buyer/limit'],
  ['GET', '/companies/:id/approvals'],
  ['POST', '/company-approvals/:other/approve'],
  ['POST', '/company-approvals/:other/decline'],
  ['GET', '/company/prices'],
  ['GET', '/companies/:id/prices'],
  ['PUT', '/companies/:id/prices'],
  ['PUT', '/companies/:id/prices/:part'],
  ['DELETE', '/companies/:id/prices/:part'],
  ['GET', '/company-invitations'],
  ['DELETE', '/company-invitations/:other'],
  ['POST', '/company-invitations/:other/accept'],
  ['POST', '/company-invitations/:other/decline'],
  ['GET', '/companies/:id/account'],
  ['PUT', '/companies/:id/terms'],
  ['GET', '/companies/:id/invoices'],
  ['POST', '/orders/:other/pay-on-account'],
  ['GET', '/invoices'],
  ['GET', '/invoices/:other.pdf'],
  ['GET', '/invoices/:other'],
  ['POST', '/invoices/:other/payments'],
];

/** Ids no row has, or that cannot be ids at all. */
const oddIds = ['x', '00000000-0000-4000-8000-000000000000', "1' or '1'='1", '%00', 'é'.repeat(300), '%E0%A4%A'];
/** Bodies of every odd shape: each field missing, mistyped, huge or nested. */
const oddBodies: unknown[] = [
  null,
  [],
  'text',
  {},
  {
    name: { a: 1 },
    taxId: ['x'],
    email: 1,
    role: 'owner',
    label: 'x'.repeat(10_000),
    address: null,
    orderLimit: 1e308,
    percentOff: '12%',
    price: -1,
    priceTiers: [{ minUnits: 'a', price: {} }],
    termsDays: 31,
    creditLimit: 'lots',
    amount: Number.MAX_SAFE_INTEGER,
    receivedOn: '2026-02-30',
    note: '\u0000',
  },
  { orderLimit: '1e3', percentOff: 90.001, price: 0.001, termsDays: '30', creditLimit: -5, amount: 0.001 },
];
/** Query strings of every odd shape. */
const oddQueries = [
  '?limit=-1&offset=abc',
  '?limit=1e9&status=zzz',
  '?partIds=x,y,%00&search=%25_',
  '?limit=1&limit=2',
];

describe.each(adapterDatabaseKinds)('companies over REST, asked oddly (%s)', (kind) => {
  let app: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp(kind, { orders: generousOrderLimits });
    owner = await signUp(app, { verified: true });
    admin = await signUp(app, { admin: true });
    const buyer = await signUp(app, { verified: true });
    const services = app.server.services;
    const ownerActor = await actorOf(app, owner);
    const { company } = await services.companies.createCompany(ownerActor, { name: 'Odd Motors', taxId: 'BIN-0' });
    const invitation = await services.companies.inviteToCompany(ownerActor, company.id, {
      email: buyer.email,
      role: 'buyer',
    });
    await services.companies.acceptInvitation(await actorOf(app, buyer), invitation.id);
    const part = await addPartAs(app, await actorOf(app, admin), { price: 5, minOrder: 1, available: 10 });
    Object.assign(real, { id: company.id, buyer: buyer.userId, part: part.id });
  });
  afterAll(() => app?.close());

  /** The route's path with the real company, buyer and part, and `other` for the rest. */
  const pathOf = (template: string, other: string) =>
    template
      .replace(':id', real.id)
      .replace(':buyer', real.buyer)
      .replace(':part', real.part)
      .replace(':other', encodeURIComponent(other));

  it('answers every odd id, body and query with a clear refusal or an answer, never a 5xx', async () => {
    const failures: string[] = [];
    const ask = async (method: string, path: string, body: unknown, token: string) => {
      const { status, body: answer } = await app.rest(method, path, body, token);
      const message = (answer as { message?: unknown } | null)?.message;
      if (status >= 500 || (status >= 400 && typeof message !== 'string'))
        failures.push(`${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${status} ${JSON.stringify(answer)}`);
    };
    for (const token of [owner.token, admin.token]) {
      for (const [method, template] of routes) {
        const withBody = method !== 'GET' && method !== 'DELETE';
        if (template.includes(':other')) {
          for (const id of oddIds) await ask(method, pathOf(template, id), withBody ? {} : undefined, token);
        }
        const path = pathOf(template, oddIds[1]);
        if (withBody) for (const body of oddBodies) await ask(method, path, body, token);
        else for (const query of oddQueries) await ask(method, `${path}${query}`, undefined, token);
      }
    }
    // Last: a company id that is not one, on the routes that name a company.
    for (const [method, template] of routes.filter(([, t]) => t.includes(':id'))) {
      for (const id of oddIds)
        await ask(
          method,
          template.replace(':id', encodeURIComponent(id)),
          method === 'GET' ? undefined : {},
          admin.token,
        );
    }
    expect(failures).toEqual([]);
  });
});
