import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/database';
import { demoCompanyAccounts } from '../../src/companies/companiesSeed';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';

/** Issue 35 point 6: `npm start` shows a company, so its demo data is seeded with the rest. */
describe.each(databaseKinds)('the demo company seeded on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { seedDemo: true });
  });
  afterAll(() => app?.close());

  it('is a workshop with a company admin, a buyer and two delivery addresses, each member a demo account', async () => {
    const members = await rowsOf<{ company: string; email: string; role: string; limit: string | null }>(
      app.server.database.db,
      sql`select c.name as company, u.email, m.role, m.order_limit_cents::text as "limit" from company_members m
        join companies c on c.id = m.company_id join users u on u.id = m.user_id order by m.role`,
    );
    expect(members).toEqual([
      { company: 'Dhaka Moto Works', email: demoCompanyAccounts.buyer.email, role: 'buyer', limit: '50000' },
      {
        company: 'Dhaka Moto Works',
        email: demoCompanyAccounts.companyAdmin.email,
        role: 'company_admin',
        limit: null,
      },
    ]);
    const addresses = await rowsOf<{ n: string }>(
      app.server.database.db,
      sql`select count(*) as n from company_addresses`,
    );
    expect(Number(addresses[0].n)).toBe(2);
    // Its price list (issue 35 point 3): 5 % off, and two parts at a fixed price with a break.
    const lists = await rowsOf<{ percent: number; fixed: string }>(
      app.server.database.db,
      sql`select l.percent_off_bp as percent, (select count(*) from company_part_prices p
            where p.company_id = l.company_id) as fixed from company_price_lists l`,
    );
    expect(lists.map((l) => [l.percent, Number(l.fixed)])).toEqual([[500, 2]]);
    // Pay on account: net 30 days, $5,000 of credit.
    const terms = await rowsOf<{ terms_days: number; credit_limit_cents: string }>(
      app.server.database.db,
      sql`select terms_days, credit_limit_cents from company_terms`,
    );
    expect(terms.map((t) => [Number(t.terms_days), Number(t.credit_limit_cents)])).toEqual([[30, 500_000]]);
  });
});
