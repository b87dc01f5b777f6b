import { eq } from 'drizzle-orm';
import { sqlState, violatedConstraint } from '../../src/db/database';
import { orders, parts, payments, type OrderRow, type PartRow } from '../../src/db/schema';
import { AppError, type ErrorCode } from '../../src/errors';
import type { GatewayIntent } from '../../src/payments/paymentGateway';
import { createTestGateway } from '../../src/payments/testGateway';
import type { Actor } from '../../src/services/actor';
import { noteCreated } from '../../src/services/intentLedger';
import { orderInput, partInput } from '../support/fixtures';
import type { SignUpOptions, TestApp, TestUser } from '../support/testApp';

/** A new user signed up in the emulator and signed in to the shop. */
export const signUp = (app: TestApp, options: SignUpOptions = {}): Promise<TestUser> => app.signUp(options);

/** The actor a request with `user`'s token would have, read from the database as the app does. */
export async function actorOf(app: TestApp, user: TestUser): Promise<Actor> {
  const actor = await app.server.services.users.actorFor(user.userId, user.firebaseUid);
  if (!actor) throw new Error(`no actor for ${user.email}`);
  return actor;
}

/** Adds a part through the parts service as `admin` and answers its row. */
export async function addPartAs(app: TestApp, admin: Actor, overrides: Record<string, unknown> = {}): Promise<PartRow> {
  return app.server.services.parts.addPart(admin, partInput(overrides));
}

/** Places an order through the orders service. */
export async function placeOrderAs(
  app: TestApp,
  actor: Actor,
  partId: string,
  overrides: Record<string, unknown> = {},
): Promise<OrderRow> {
  return app.server.services.orders.placeOrder(actor, orderInput(partId, overrides));
}

/** The part as the database holds it now. */
export async function partRow(app: TestApp, partId: string): Promise<PartRow> {
  const [row] = await app.server.database.db.select().from(parts).where(eq(parts.id, partId));
  if (!row) throw new Error(`no part ${partId}`);
  return row;
}

export async function orderRow(app: TestApp, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await app.server.database.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

export async function paymentsOfOrder(app: TestApp, orderId: string) {
  return app.server.database.db.select().from(payments).where(eq(payments.orderId, orderId));
}

/** Awaits `work`, which must fail with an AppError of `code`; answers that error. */
export async function expectAppError(work: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  let caught: unknown;
  try {
    await work;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe(code);
  return caught as AppError;
}

/** Awaits a database statement that the database itself must refuse with `constraint`. */
export async function expectConstraintViolation(
  work: Promise<unknown>,
  constraint: string,
  state: '23514' | '23505' | '23502' | '23503',
): Promise<void> {
  let caught: unknown;
  try {
    await work;
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) throw new Error(`the database accepted a row that breaks ${constraint}`);
  expect({ state: sqlState(caught), constraint: violatedConstraint(caught) }).toEqual({ state, constraint });
}

/** A card that Stripe's test mode accepts, expiring in the future. */
export const testCard = (number = '4242 4242 4242 4242') => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: '123',
});

/**
 * Another intent at the test gateway for an order (noted in the ledger for its owner), as two payment pages opened
 * at the same instant can make: asking again hands the open one (issue 32), so a test needing two makes the
 * second here.
 */
export async function anotherTestIntent(app: TestApp, order: OrderRow): Promise<GatewayIntent> {
  const { db } = app.server.database;
  const intent = await createTestGateway(db).createIntent({
    amountCents: order.totalCents,
    currency: 'usd',
    orderId: order.checkoutId ?? order.id,
    email: order.email,
  });
  await noteCreated(db, intent, 'test', order.checkoutId ?? order.id, order.userId);
  return intent;
}
