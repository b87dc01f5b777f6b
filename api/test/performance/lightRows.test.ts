import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { prepareLight } from '../../src/db/database';
import { orders, users } from '../../src/db/schema';
import { databaseKinds } from '../support/env';
import { addPart, placeOrder } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * The hot lists' rows are mapped by `prepareLight` instead of Drizzle's general mapper (issue 15): the same rows
 * must come out, value for value and type for type (dates, money as numbers, null), nested objects included, and
 * a left-joined object that matched nothing is null, as Drizzle makes it.
 */
jest.setTimeout(120_000);

describe.each(databaseKinds)('light row mapping on %s', (kind) => {
  let app: TestApp;
  let customer: TestUser;
  beforeAll(async () => {
    app = await startTestApp(kind);
    const admin = await app.signUp({ admin: true });
    customer = await app.signUp();
    const partId = await addPart(app, admin.token, { price: 12.5, minOrder: 2, available: 100 });
    for (const amount of [2, 3, 4]) await placeOrder(app, customer.token, partId, { orderAmount: amount });
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;

  it('a table nested in the selection, with SQL decoded by its mapWith', async () => {
    const fields = { order: orders, listTotal: sql<number>`count(*) over ()`.mapWith(Number), note: sql<string>`'x'` };
    const select = db()
      .select(fields)
      .from(orders)
      .where(eq(orders.userId, sql.placeholder('userId')))
      .orderBy(desc(orders.createdAt), desc(orders.id));
    const light = await prepareLight<Awaited<typeof select>[number]>(
      db(),
      `light_test_${kind}_a`,
      select,
      fields,
    ).execute({ userId: customer.userId });
    const drizzle = await select.prepare(`light_test_${kind}_b`).execute({ userId: customer.userId });
    expect(light).toHaveLength(3);
    expect(light).toEqual(drizzle);
    expect(light[0].order.createdAt).toBeInstanceOf(Date);
    expect(typeof light[0].order.totalCents).toBe('number');
    expect(light[0].order.paidAt).toBeNull();
  });

  it('an object of columns left-joined to nothing is null; found, it is whole', async () => {
    const columns = getTableColumns(orders);
    const fields = {
      caller: { id: users.id, role: users.role },
      order: { id: columns.id, amount: columns.orderAmount },
    };
    const select = (userId: string) =>
      db()
        .select(fields)
        .from(users)
        .leftJoin(orders, sql`${orders.userId} = ${users.id} and ${orders.orderAmount} > ${sql.placeholder('min')}`)
        .where(eq(users.id, userId));
    for (const min of [3, 100]) {
      const light = await prepareLight<Awaited<ReturnType<typeof select>>[number]>(
        db(),
        `light_test_${kind}_c${min}`,
        select(customer.userId),
        fields,
      ).execute({
        min,
      });
      const drizzle = await select(customer.userId).prepare(`light_test_${kind}_d${min}`).execute({ min });
      expect(light).toEqual(drizzle);
      expect(light.map((row) => row.order === null)).toEqual(min === 100 ? [true] : [false]);
    }
  });
});
