import { inArray } from 'drizzle-orm';
import type { Tx } from '../db/database';
import { users } from '../db/schema';
import { companies, companyAddresses, companyMembers } from './companiesSchema';
import { companyPartPrices, companyPriceLists } from './companyPricesSchema';

/** The demo company's accounts (seeded with the other demo accounts, db/seed.ts). */
export const demoCompanyAccounts = {
  companyAdmin: {
    email: 'workshop@partsyard.test',
    password: 'Workshop#2026',
    name: 'Karim Workshop',
    role: 'customer' as const,
  },
  buyer: { email: 'buyer@partsyard.test', password: 'Buyer#2026', name: 'Nadia Buyer', role: 'customer' as const },
};

/**
 * A demo workshop with a company admin and a buyer and two delivery addresses (issue 35 point 6), so that
 * `npm start` shows a company's pages. Run once, in the transaction that fills an empty shop.
 */
export async function seedDemoCompany(
  tx: Tx,
  demoParts: readonly { id: string; priceCents: number; minOrder: number }[] = [],
): Promise<{ companyId: string; adminId: string; buyerId: string }> {
  const { companyAdmin, buyer } = demoCompanyAccounts;
  const rows = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [companyAdmin.email, buyer.email]));
  const idOf = (email: string) => {
    const row = rows.find((r) => r.email === email);
    if (!row) throw new Error(`The demo account ${email} is missing`);
    return row.id;
  };
  const [company] = await tx
    .insert(companies)
    .values({ name: 'Dhaka Moto Works', taxId: 'BIN 000123456-0101' })
    .returning({ id: companies.id });
  await tx.insert(companyMembers).values([
    { userId: idOf(companyAdmin.email), companyId: company.id, role: 'company_admin' },
    // $500 a checkout: above it, the workshop's admin approves (issue 35 point 2).
    { userId: idOf(buyer.email), companyId: company.id, role: 'buyer', orderLimitCents: 50_000 },
  ]);
  await tx.insert(companyAddresses).values([
    { companyId: company.id, label: 'Main workshop', address: 'Plot 7, Tejgaon Industrial Area, Dhaka 1208' },
    { companyId: company.id, label: 'Mirpur branch', address: 'House 40, Road 2, Section 10, Mirpur, Dhaka 1216' },
  ]);
  // Its price list (issue 35 point 3): 5 % off everything, and the first two demo parts at a fixed price 15 % under
  // the list price, 20 % under from 20 units (or twice the minimum order).
  await tx.insert(companyPriceLists).values({ companyId: company.id, percentOffBasisPoints: 500 });
  const fixed = demoParts.slice(0, 2).filter((p) => p.priceCents >= 10);
  if (fixed.length)
    await tx.insert(companyPartPrices).values(
      fixed.map((p) => ({
        companyId: company.id,
        partId: p.id,
        priceCents: Math.round(p.priceCents * 0.85),
        priceTiers: [{ minUnits: Math.max(20, 2 * p.minOrder), priceCents: Math.round(p.priceCents * 0.8) }],
      })),
    );
  return { companyId: company.id, adminId: idOf(companyAdmin.email), buyerId: idOf(buyer.email) };
}
