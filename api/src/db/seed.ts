import { seedCatalog } from '../catalog/catalogSeed';
import { demoCompanyAccounts, seedDemoCompany } from '../companies/companiesSeed';
import { companyTerms } from '../invoicing/invoicingSchema';
import { count, eq } from 'drizzle-orm';
import type { Identity } from '../identity/firebaseIdentity';
import type { Db } from './database';
import { orders, parts, payments, reviews, users } from './schema';

/** The demo accounts of ARCHITECTURE.md: they exist both in the identity provider and in the database. */
export const demoAccounts = [
  { email: 'admin@partsyard.test', password: 'Admin#2026', name: 'Yard Admin', role: 'admin' as const },
  { email: 'customer@partsyard.test', password: 'Customer#2026', name: 'Demo Customer', role: 'customer' as const },
  // The demo company's admin and buyer (issue 35).
  demoCompanyAccounts.companyAdmin,
  demoCompanyAccounts.buyer,
];

const img = (slug: string) => `/images/parts/${slug}.svg`;

export const demoParts = [
  {
    name: 'Sintered Front Brake Pads (Pair)',
    image: img('brake-pads'),
    priceCents: 2450,
    minOrder: 20,
    available: 640,
    description:
      'Sintered metal compound pads for dual-disc front calipers. Strong bite in the wet, long life on heavy touring bikes.',
  },
  {
    name: 'O-Ring Drive Chain 520 x 120 Links',
    image: img('chain'),
    priceCents: 5890,
    minOrder: 10,
    available: 220,
    description: 'Heavy-duty 520 pitch O-ring chain with riveted master link, pre-lubricated and sealed against grit.',
  },
  {
    name: 'Steel Rear Sprocket 520 – 42T',
    image: img('sprocket'),
    priceCents: 3120,
    minOrder: 15,
    available: 300,
    description: 'Hardened carbon-steel rear sprocket, 42 teeth, 520 pitch, for 250–650 cc street and trail bikes.',
  },
  {
    name: 'Iridium Spark Plug CR9EIX',
    image: img('spark-plug'),
    priceCents: 1150,
    minOrder: 50,
    available: 2400,
    description: 'Fine-wire iridium centre electrode for quick starts, smooth idle and up to 50,000 km of service.',
  },
  {
    name: 'Spin-On Oil Filter, 3/4"-16 Thread',
    image: img('oil-filter'),
    priceCents: 890,
    minOrder: 50,
    available: 3100,
    description: 'Synthetic-media oil filter with anti-drain-back valve; fits most Japanese twins and fours.',
  },
  {
    name: 'High-Flow Air Filter Element',
    image: img('air-filter'),
    priceCents: 4275,
    minOrder: 12,
    available: 410,
    description:
      'Washable cotton-gauze element that raises airflow while trapping fine dust. Reusable for a bike’s lifetime.',
  },
  {
    name: '7" Round LED Headlight Assembly',
    image: img('headlight'),
    priceCents: 8900,
    minOrder: 10,
    available: 150,
    description:
      'E-marked 7-inch LED headlight with high/low beam and daytime ring, drop-in for classic and cafe builds.',
  },
  {
    name: 'Universal Clutch Cable 120 cm',
    image: img('cable'),
    priceCents: 1480,
    minOrder: 25,
    available: 900,
    description: 'PTFE-lined clutch cable with adjustable barrel ends for a light, consistent lever feel.',
  },
  {
    name: 'Fork Seal & Dust Wiper Kit 41 mm',
    image: img('fork-seal'),
    priceCents: 2690,
    minOrder: 20,
    available: 520,
    description: 'Double-lip oil seals and dust wipers for 41 mm conventional forks; one kit does both legs.',
  },
  {
    name: 'Lithium Battery 12V 5Ah LiFePO4',
    image: img('battery'),
    priceCents: 11900,
    minOrder: 10,
    available: 180,
    description: 'Lightweight LiFePO4 starter battery, 240 CCA, with built-in protection against over-discharge.',
  },
  {
    name: 'Stainless Braided Brake Line Kit',
    image: img('brake-line'),
    priceCents: 6450,
    minOrder: 10,
    available: 260,
    description: 'PTFE core with stainless braid and banjo fittings; firmer lever and no fade under hard braking.',
  },
  {
    name: 'Anti-Vibration Handlebar Grips 22 mm',
    image: img('grips'),
    priceCents: 1890,
    minOrder: 30,
    available: 1200,
    description: 'Dual-density rubber grips that soak up engine buzz on long rides; open ends for bar-end weights.',
  },
  {
    name: 'Adjustable Rear Shock Absorber 320 mm',
    image: img('shock'),
    priceCents: 18900,
    minOrder: 5,
    available: 90,
    description: 'Gas-charged rear shock with 10-step preload and rebound adjustment, 320 mm eye to eye.',
  },
  {
    name: 'Clutch Plate Kit – Friction & Steel',
    image: img('clutch-plates'),
    priceCents: 7350,
    minOrder: 10,
    available: 340,
    description: 'Complete set of cork-based friction plates and flat steels for a crisp engagement without slip.',
  },
];

const avatar = (n: number) => `/images/avatars/a${n}.svg`;

export const demoReviews = [
  {
    name: 'Arif Rahman',
    email: 'arif.rahman@example.com',
    avatar: avatar(1),
    partIndex: 0,
    text: 'Ordered 200 sets of the sintered pads for our workshop. Every box arrived sealed and the bite is excellent.',
  },
  {
    name: 'Sara Khan',
    email: 'sara.khan@example.com',
    avatar: avatar(2),
    partIndex: 1,
    text: 'The 520 chains run quiet and stretch far less than what we stocked before. Our riders noticed.',
  },
  {
    name: 'Mahmud Hasan',
    email: 'mahmud.hasan@example.com',
    avatar: avatar(3),
    partIndex: 3,
    text: 'Bulk spark plugs at a fair price with fast delivery to Chattogram. Will order again next quarter.',
  },
  {
    name: 'Jamie Lee',
    email: 'jamie.lee@example.com',
    avatar: avatar(4),
    partIndex: 6,
    text: 'The LED headlights were a hit with our cafe-racer customers. Clean wiring and bright beam.',
  },
  {
    name: 'Tanvir Nabil',
    email: 'tanvir.nabil@example.com',
    avatar: avatar(5),
    partIndex: 9,
    text: 'Lithium batteries hold charge through the monsoon season. Support answered every question quickly.',
  },
  {
    name: 'Rima Begum',
    email: 'rima.begum@example.com',
    avatar: avatar(6),
    partIndex: 12,
    text: 'Adjustable shocks transformed our rental fleet’s ride. Minimum order was easy to reach.',
  },
];

/**
 * Makes sure the demo accounts exist in the identity provider and the database (every start: the
 * emulator may have lost its users), and fills an empty shop with demo parts and reviews.
 */
export async function seedDemo(db: Db, identity: Identity): Promise<void> {
  for (const account of demoAccounts) {
    const uid = await identity.ensureAccount(account.email, account.password, account.name);
    // The seed owns the demo accounts: if the emulator lost its users and made them anew (new uids), the rows
    // with the demo addresses are bound to the new accounts. Nothing else ever binds a row by its email.
    await db
      .insert(users)
      .values({
        email: account.email,
        emailVerified: true,
        firebaseUid: uid,
        name: account.name,
        role: account.role,
        adminSource: account.role === 'admin' ? 'granted' : null,
        avatar: '',
      })
      .onConflictDoUpdate({ target: users.email, set: { firebaseUid: uid, emailVerified: true } });
  }

  const [{ existing }] = await db.select({ existing: count() }).from(parts);
  if (existing > 0) return;

  await db.transaction(async (tx) => {
    const now = Date.now();
    // Spread creation times so "newest first" has a stable, meaningful order.
    const inserted = await tx
      .insert(parts)
      .values(demoParts.map((p, i) => ({ ...p, createdAt: new Date(now - (demoParts.length - i) * 60_000) })))
      .returning();
    await seedCatalog(tx, inserted);
    const demoCompany = await seedDemoCompany(tx, inserted);
    // Pay on account (issue 35 point 4): net 30 days and $5,000 of credit, so its members see the option.
    await tx
      .insert(companyTerms)
      .values({ companyId: demoCompany.companyId, termsDays: 30, creditLimitCents: 500_000 });
    await tx.insert(reviews).values(
      demoReviews.map(({ partIndex, ...r }, i) => ({
        ...r,
        partId: inserted[partIndex].id,
        partName: inserted[partIndex].name,
        partImage: inserted[partIndex].image,
        createdAt: new Date(now - (demoReviews.length - i) * 60_000),
      })),
    );

    // Past orders of the demo customer, so My Orders, Add Review and the best sellers have something to show:
    // the newest paid, not shipped yet (an admin ships it), the others shipped, placed days apart.
    const [customer] = await tx.select().from(users).where(eq(users.email, 'customer@partsyard.test'));
    const sales = [
      { partIndex: 4, lots: 1, shipped: false },
      { partIndex: 0, lots: 3, shipped: true },
      { partIndex: 2, lots: 2, shipped: true },
      { partIndex: 7, lots: 5, shipped: true },
      { partIndex: 9, lots: 1, shipped: true },
      { partIndex: 11, lots: 4, shipped: true },
    ];
    for (const [i, sale] of sales.entries()) {
      const part = inserted[sale.partIndex];
      const amount = part.minOrder * sale.lots;
      const placedAt = new Date(now - (i * 3 + 1) * 86_400_000);
      await tx
        .update(parts)
        .set({ available: part.available - amount, sold: amount })
        .where(eq(parts.id, part.id));
      const [order] = await tx
        .insert(orders)
        .values({
          userId: customer.id,
          email: customer.email ?? '',
          name: customer.name,
          phone: '01712345678',
          address: 'House 12, Road 5, Dhanmondi, Dhaka',
          partId: part.id,
          partName: part.name,
          partImage: part.image,
          orderAmount: amount,
          unitPriceCents: part.priceCents,
          totalCents: part.priceCents * amount,
          status: sale.shipped ? 'shipped' : 'paid',
          transactionId: `pi_test_seeded${String(i + 1).padStart(18, '0')}`,
          createdAt: placedAt,
          paidAt: new Date(placedAt.getTime() + 600_000),
          shippedAt: sale.shipped ? new Date(placedAt.getTime() + 86_400_000) : null,
        })
        .returning();
      await tx.insert(payments).values({
        orderId: order.id,
        userId: customer.id,
        email: customer.email ?? '',
        partId: part.id,
        partName: part.name,
        transactionId: order.transactionId as string,
        amountCents: order.totalCents,
        gateway: 'test',
      });
    }
  });
}
