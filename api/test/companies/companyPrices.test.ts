import { and, eq } from 'drizzle-orm';
import { companyPriceListMessages, companyPriceLimits } from '../../src/companies/companyPrices';
import { orders, outbox, type PartRow } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { actorOf, addPartAs, expectAppError, signUp } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Issue 35 point 3: company prices. A shop admin gives a company a price list; its members are charged by the one
 * rule (common/pricing.ts `buyerPrice`: the lower of the list price and the company's at the quantity) in the
 * cart, quick order, saved lists and checkout, and see their prices through `myPrices`; everyone else sees list
 * prices, and a company's prices never enter a public answer.
 */
describe.each(databaseKinds)('company prices (%s)', (kind) => {
  let app: TestApp;
  let shopAdmin: Actor;
  let companyId: string;
  let companyAdmin: { user: TestUser; actor: Actor };
  let buyer: { user: TestUser; actor: Actor };
  let otherMember: { user: TestUser; actor: Actor };
  let loner: { user: TestUser; actor: Actor };
  /** $10.00, $8.00 from 50: fixed for the company at $9.00, $8.50 from 20. */
  let fixedPart: PartRow;
  /** $5.00: 10 % off for the company. */
  let plainPart: PartRow;

  const contact = { name: 'Rider One', phone: '01712345678', address: 'Road 5, Dhaka' };
  const services = () => app.server.services;
  const account = async () => {
    const user = await signUp(app, { verified: true });
    return { user, actor: await actorOf(app, user) };
  };
  let serial = 0;
  const newCompany = async (owner: Actor) =>
    (await services().companies.createCompany(owner, { name: `Works ${Date.now()}${serial++}`, taxId: 'BIN-1' }))
      .company.id;

  beforeAll(async () => {
    app = await startTestApp(kind);
    shopAdmin = await actorOf(app, await signUp(app, { admin: true }));
    companyAdmin = await account();
    companyId = await newCompany(companyAdmin.actor);
    buyer = await account();
    const invitation = await services().companies.inviteToCompany(companyAdmin.actor, companyId, {
      email: buyer.user.email,
      role: 'buyer',
    });
    await services().companies.acceptInvitation(buyer.actor, invitation.id);
    otherMember = await account();
    const otherCompany = await newCompany(otherMember.actor);
    await services().companyPrices.setCompanyPercentOff(shopAdmin, otherCompany, 1);
    loner = await account();
    fixedPart = await addPartAs(app, shopAdmin, { price: 10, minOrder: 10, available: 1000 });
    fixedPart = await services().parts.setPartPricing(shopAdmin, fixedPart.id, {
      priceTiers: [{ minUnits: 50, price: 8 }],
      packSize: null,
    });
    plainPart = await addPartAs(app, shopAdmin, { price: 5, minOrder: 1, available: 1000 });
    await services().companyPrices.setCompanyPercentOff(shopAdmin, companyId, 10);
    await services().companyPrices.setCompanyPartPrice(shopAdmin, companyId, fixedPart.id, {
      price: 9,
      priceTiers: [{ minUnits: 20, price: 8.5 }],
    });
  });
  afterAll(() => app?.close());

  it('myPrices answers a member their company’s percentage and fixed prices, and nothing to anyone else', async () => {
    const ids = [fixedPart.id, plainPart.id];
    for (const member of [companyAdmin, buyer]) {
      expect(await services().companyPrices.myPrices(member.actor, ids)).toEqual({
        companyId,
        percentOffBasisPoints: 1000,
        parts: [{ partId: fixedPart.id, priceCents: 900, priceTiers: [{ minUnits: 20, priceCents: 850 }] }],
      });
    }
    expect(await services().companyPrices.myPrices(loner.actor, ids)).toBeNull();
    expect(await services().companyPrices.myPrices(shopAdmin, ids)).toBeNull();
    // Another company's member sees their own list only.
    expect(await services().companyPrices.myPrices(otherMember.actor, ids)).toMatchObject({
      percentOffBasisPoints: 100,
      parts: [],
    });
    await expectAppError(services().companyPrices.myPrices(null, ids), 'UNAUTHENTICATED');
    const tooMany = await expectAppError(
      services().companyPrices.myPrices(
        buyer.actor,
        Array.from({ length: companyPriceLimits.myPricesIds + 1 }, () => fixedPart.id),
      ),
      'BAD_USER_INPUT',
    );
    expect(tooMany.fields).toEqual({ partIds: companyPriceListMessages.tooManyIds });
    await expectAppError(services().companyPrices.myPrices(buyer.actor, 'nope'), 'BAD_USER_INPUT');
    // Ids that name nothing answer nothing.
    expect((await services().companyPrices.myPrices(buyer.actor, ['x', plainPart.id]))?.parts).toEqual([]);
  });

  it('a change of the price list shows at once (the kept list is read again under its new version)', async () => {
    const part = await addPartAs(app, shopAdmin, { price: 3, minOrder: 1, available: 10 });
    expect((await services().companyPrices.myPrices(buyer.actor, [part.id]))?.parts).toEqual([]);
    await services().companyPrices.setCompanyPartPrice(shopAdmin, companyId, part.id, { price: 2 });
    expect((await services().companyPrices.myPrices(buyer.actor, [part.id]))?.parts).toEqual([
      { partId: part.id, priceCents: 200, priceTiers: [] },
    ]);
    await services().companyPrices.removeCompanyPartPrice(shopAdmin, companyId, part.id);
    expect((await services().companyPrices.myPrices(buyer.actor, [part.id]))?.parts).toEqual([]);
    await expectAppError(services().companyPrices.removeCompanyPartPrice(shopAdmin, companyId, part.id), 'NOT_FOUND');
  });

  it('the cart prices a member’s lines by the rule, marked; a lower list break beats a worse company price', async () => {
    const cart = services().cart;
    await cart.addToCart(buyer.actor, fixedPart.id, 10);
    await cart.addToCart(buyer.actor, plainPart.id, 3);
    let view = await cart.cart(buyer.actor);
    expect(view.lines.map((l) => [l.unitPriceCents, l.companyPriced, l.priceChange])).toEqual([
      [900, true, null],
      [450, true, null],
    ]);
    expect(view.totalCents).toBe(9000 + 1350);
    view = await cart.setCartLineAmount(buyer.actor, fixedPart.id, 20);
    expect(view.lines[0]).toMatchObject({ unitPriceCents: 850, companyPriced: true, priceChange: null });
    view = await cart.setCartLineAmount(buyer.actor, fixedPart.id, 50);
    // The list's break of 50 ($8.00) is lower than the company's ($8.50): the list price is charged.
    expect(view.lines[0]).toMatchObject({ unitPriceCents: 800, companyPriced: false, priceChange: null });
    await cart.setCartLineAmount(buyer.actor, fixedPart.id, 10);

    // Someone else pays the list price.
    await cart.addToCart(loner.actor, fixedPart.id, 10);
    const theirs = await cart.cart(loner.actor);
    expect(theirs.lines.map((l) => [l.unitPriceCents, l.companyPriced])).toEqual([[1000, false]]);
  });

  it('the cart’s break hints follow the member’s rule: no list break applies at their price, the next one is theirs', async () => {
    const line =
      '{ amount unitPrice companyPriced tier { minUnits } nextTier { unitsMore savesPerUnit tier { minUnits price } } }';
    const ask = async (user: TestUser) =>
      (await app.gql<{ cart: { lines: unknown[] } }>(`{ cart { lines ${line} } }`, {}, user.token)).data?.cart.lines;
    const member = await account();
    const invitation = await services().companies.inviteToCompany(companyAdmin.actor, companyId, {
      email: member.user.email,
      role: 'buyer',
    });
    await services().companies.acceptInvitation(member.actor, invitation.id);
    await services().cart.addToCart(member.actor, fixedPart.id, 10);
    // $9.00 now; the company's own break at 20 ($8.50) comes first; then the list's 50 ($8.00).
    expect(await ask(member.user)).toEqual([
      {
        amount: 10,
        unitPrice: 9,
        companyPriced: true,
        tier: null,
        nextTier: { unitsMore: 10, savesPerUnit: 0.5, tier: { minUnits: 20, price: 8.5 } },
      },
    ]);
    const other = await account();
    await services().cart.addToCart(other.actor, fixedPart.id, 10);
    expect(await ask(other.user)).toEqual([
      {
        amount: 10,
        unitPrice: 10,
        companyPriced: false,
        tier: null,
        nextTier: { unitsMore: 40, savesPerUnit: 2, tier: { minUnits: 50, price: 8 } },
      },
    ]);
  });

  it('checkout charges the member the company price, marked on the orders and in the email; a non-member the list price', async () => {
    const done = await services().cart.checkout(buyer.actor, { ...contact, expectedTotal: 90 + 13.5 });
    expect(done.orders.map((o) => [o.partId, o.unitPriceCents, o.totalCents, o.companyPriced]).sort()).toEqual(
      [
        [fixedPart.id, 900, 9000, true],
        [plainPart.id, 450, 1350, true],
      ].sort(),
    );
    const [email] = await app.server.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'order_placed'), eq(outbox.toAddress, buyer.user.email)));
    expect(email.text).toContain('10 x $9.00 (Your company price) = $90.00');
    expect(email.html).toContain('Your company price');

    const listed = await services().cart.checkout(loner.actor, contact);
    expect(listed.orders.map((o) => [o.unitPriceCents, o.companyPriced])).toEqual([[1000, false]]);
    const [row] = await app.server.database.db.select().from(orders).where(eq(orders.id, listed.orders[0].id));
    expect(row.companyPriced).toBe(false);

    // A single order (placeOrder) goes the same way.
    const single = await services().orders.placeOrder(companyAdmin.actor, {
      partId: plainPart.id,
      orderAmount: 2,
      ...contact,
    });
    expect([single.unitPriceCents, single.companyPriced]).toEqual([450, true]);
  });

  it('the price list read inside the checkout is the one charged (a change before it, even after the cart was read)', async () => {
    const part = await addPartAs(app, shopAdmin, { price: 4, minOrder: 1, available: 100 });
    await services().cart.addToCart(buyer.actor, part.id, 1);
    expect((await services().cart.cart(buyer.actor)).lines[0].unitPriceCents).toBe(360);
    await services().companyPrices.setCompanyPartPrice(shopAdmin, companyId, part.id, { price: 2 });
    const done = await services().cart.checkout(buyer.actor, contact);
    expect(done.orders.map((o) => o.unitPriceCents)).toEqual([200]);
    // With the total the customer saw, the checkout says the total changed rather than charging another price.
    await services().cart.addToCart(buyer.actor, part.id, 1);
    await services().companyPrices.setCompanyPercentOff(shopAdmin, companyId, null);
    await services().companyPrices.setCompanyPartPrice(shopAdmin, companyId, part.id, { price: 3 });
    await expectAppError(services().cart.checkout(buyer.actor, { ...contact, expectedTotal: 2 }), 'CONFLICT');
    await services().companyPrices.setCompanyPercentOff(shopAdmin, companyId, 10);
  });

  it('quick order prices a member’s lines by the rule; a visitor and another customer see list prices', async () => {
    const lines = [
      { number: fixedPart.sku, quantity: 10 },
      { number: plainPart.sku, quantity: 2 },
    ];
    const mine = await services().quickOrder.check(buyer.actor, lines);
    expect(mine.lines.map((l) => [l.unitPriceCents, l.companyPriced])).toEqual([
      [900, true],
      [450, true],
    ]);
    expect(mine.totalCents).toBe(9000 + 900);
    // Another company's member pays their own company's price (1 % off), never this one's.
    for (const who of [null, loner.actor, otherMember.actor]) {
      const theirs = await services().quickOrder.check(who, lines);
      expect(theirs.lines.map((l) => l.unitPriceCents)).toEqual(who === otherMember.actor ? [990, 495] : [1000, 500]);
    }
  });

  it('a company price never enters a public answer: the catalog as a member, then as a visitor and another customer', async () => {
    const query = `query($id: ID!) { part(id: $id) { id price priceTiers { minUnits price } } parts { items { id price } } }`;
    const memberAnswer = await app.gql<{ part: { price: number } }>(query, { id: fixedPart.id }, buyer.user.token);
    expect(memberAnswer.data?.part.price).toBe(10);
    // Asked with myPrices beside it, the member's answer is their own: never kept nor shared.
    const both = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.user.token}` },
      body: JSON.stringify({
        query: `query($id: ID!) { part(id: $id) { price } myPrices(partIds: [$id]) { percentOff parts { price } } }`,
        variables: { id: fixedPart.id },
      }),
    });
    expect(both.headers.get('cache-control')).toBe('no-store');
    expect(((await both.json()) as { data: { myPrices: { parts: { price: number }[] } } }).data.myPrices.parts).toEqual(
      [{ price: 9 }],
    );
    for (const token of [undefined, loner.user.token, otherMember.user.token]) {
      const answer = await app.gql<{
        part: { price: number; priceTiers: { price: number }[] };
        parts: { items: { id: string; price: number }[] };
      }>(query, { id: fixedPart.id }, token);
      expect(answer.data?.part).toEqual({ id: fixedPart.id, price: 10, priceTiers: [{ minUnits: 50, price: 8 }] });
      const listed = answer.data?.parts.items.find((p) => p.id === fixedPart.id);
      if (listed) expect(listed.price).toBe(10);
    }
    const rest = await app.rest<{ prices: unknown }>(
      'GET',
      `/company/prices?partIds=${fixedPart.id}`,
      undefined,
      buyer.user.token,
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      prices: { companyId, percentOff: 10, parts: [{ partId: fixedPart.id, price: 9 }] },
    });
  });

  it('rights: shop admins write; the company’s admins and shop admins read the list; nobody else', async () => {
    const prices = services().companyPrices;
    const list = await prices.companyPriceList(companyAdmin.actor, companyId);
    expect(list).toMatchObject({ companyId, percentOffBasisPoints: 1000 });
    expect(list.items.map((i) => i.partId)).toContain(fixedPart.id);
    expect((await prices.companyPriceList(shopAdmin, companyId)).total).toBe(list.total);
    for (const who of [buyer, otherMember, loner])
      await expectAppError(prices.companyPriceList(who.actor, companyId), 'FORBIDDEN');
    for (const who of [companyAdmin, buyer, otherMember, loner]) {
      await expectAppError(prices.setCompanyPercentOff(who.actor, companyId, 50), 'FORBIDDEN');
      await expectAppError(
        prices.setCompanyPartPrice(who.actor, companyId, plainPart.id, { price: 0.01 }),
        'FORBIDDEN',
      );
      await expectAppError(prices.removeCompanyPartPrice(who.actor, companyId, fixedPart.id), 'FORBIDDEN');
    }
    await expectAppError(prices.companyPriceList(null, companyId), 'UNAUTHENTICATED');
    expect((await prices.myPrices(buyer.actor, [fixedPart.id]))?.parts[0].priceCents).toBe(900);
  });

  it('bad input says which field and why, and changes nothing', async () => {
    const prices = services().companyPrices;
    for (const percent of [0, 90.5, -3, 12.345, 'ten'])
      expect(
        (await expectAppError(prices.setCompanyPercentOff(shopAdmin, companyId, percent), 'BAD_USER_INPUT')).fields,
      ).toEqual({
        percentOff: companyPriceListMessages.percentOffRange,
      });
    for (const price of [0, -1, 'x', null])
      expect(
        (
          await expectAppError(
            prices.setCompanyPartPrice(shopAdmin, companyId, plainPart.id, { price }),
            'BAD_USER_INPUT',
          )
        ).fields,
      ).toEqual({ price: companyPriceListMessages.priceRequired });
    const tiers = await expectAppError(
      prices.setCompanyPartPrice(shopAdmin, companyId, fixedPart.id, {
        price: 9,
        priceTiers: [
          { minUnits: 5, price: 8 },
          { minUnits: 30, price: 8.5 },
        ],
      }),
      'BAD_USER_INPUT',
    );
    expect(Object.keys(tiers.fields ?? {}).sort()).toEqual(['priceTiers.0.minUnits', 'priceTiers.1.price']);
    await expectAppError(
      prices.setCompanyPartPrice(shopAdmin, companyId, fixedPart.id, { price: 9, priceTiers: 'x' }),
      'BAD_USER_INPUT',
    );
    await expectAppError(
      prices.setCompanyPartPrice(shopAdmin, companyId, '00000000-0000-4000-8000-000000000000', { price: 1 }),
      'NOT_FOUND',
    );
    await expectAppError(
      prices.setCompanyPercentOff(shopAdmin, '00000000-0000-4000-8000-000000000000', 5),
      'NOT_FOUND',
    );
    await expectAppError(prices.setCompanyPercentOff(shopAdmin, 'nope', 5), 'NOT_FOUND');
    await expectAppError(prices.companyPriceList(shopAdmin, companyId, { limit: 201 }), 'BAD_USER_INPUT');
    expect((await prices.myPrices(buyer.actor, [fixedPart.id]))?.parts[0]).toEqual({
      partId: fixedPart.id,
      priceCents: 900,
      priceTiers: [{ minUnits: 20, priceCents: 850 }],
    });
  });
});
