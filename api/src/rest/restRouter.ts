import { messages } from '@partsyard/common';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError, badInput, errorAnswer, isRefusal } from '../errors';
import { bearerToken, callerOf, type PendingCaller } from '../http/caller';
import { clientOf } from '../http/rateLimit';
import { bodyRefusal, jsonBody } from '../http/requestBody';
import { describeError, logger } from '../logger';
import type { AccessTokens } from '../identity/accessTokens';
import type { Services } from '../services';
import { pageSizes } from '../services/paging';
import {
  contactDocument,
  orderDocument,
  partDocument,
  paymentDocument,
  reviewDocument,
  userDocument,
} from './documents';

type Handler = (req: Request, caller: PendingCaller) => Promise<unknown>;

const inserted = (id: string) => ({ acknowledged: true, insertedId: id });
const deleted = (count: number) => ({ acknowledged: true, deletedCount: count });
const updated = (matched: number, modified: number) => ({
  acknowledged: true,
  matchedCount: matched,
  modifiedCount: modified,
});

const body = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
const param = (req: Request, name: string): string => String(req.params[name] ?? '');
/**
 * A body field read as text or as a number. JSON objects and arrays are neither: they read as '' and NaN,
 * never through String() or Number(), which would call whatever "toString" or "valueOf" the JSON sets.
 */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const numberOf = (value: unknown): number =>
  typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
const query = (req: Request, name: string): string | undefined =>
  typeof req.query[name] === 'string' ? req.query[name] : undefined;
const optionalInt = (value: string | undefined, field: string): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw badInput({ [field]: messages.wholeNumber });
  return n;
};

/**
 * The caller for a service, looked up now (a route of public reads never asks, so it spares the round trip):
 * a token that was sent but refused answers its own 401 (expired, revoked, deleted account...); no token is a
 * visitor (null). Whether the operation needs a caller, or an admin, is the services' to say.
 */
const actorOf = async (pending: PendingCaller) => {
  const caller = await pending.lookUp();
  if (!caller.actor && caller.authError) throw caller.authError;
  return caller.actor;
};

/**
 * The REST compatibility shim: every row of spec §7 under /api, in document shapes, through the same
 * services (and so the same checks) as GraphQL.
 */
export function createRestRouter(
  services: Services,
  tokens: AccessTokens,
  /**
   * Says that a write changed something (the public answer cache drops its answers and tells the replicas):
   * called before the answer of a call other than GET/HEAD/OPTIONS that succeeded, or failed otherwise than by a
   * refusal. A refused call (401, 403, 400, 404, 409, 429: a refusal changes nothing) is no change.
   */
  changed: () => void = () => {},
): Router {
  const router = Router();

  const mayWrite = (req: Request) => req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
  /** The handler's answer; a write that changed something is counted before it is sent. */
  const written = async (write: boolean, handler: () => Promise<unknown>) => {
    let answer: unknown;
    try {
      answer = await handler();
    } catch (error) {
      if (write && !isRefusal(error)) changed();
      throw error;
    }
    if (write) changed();
    return answer;
  };
  const route = (handler: Handler) => async (req: Request, res: Response) => {
    res.json(
      await written(mayWrite(req), () => handler(req, callerOf(req.headers.authorization, tokens, services.users))),
    );
  };

  // Stripe signs the raw bytes: this route reads its own body, before the JSON parser.
  router.post('/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res) => {
    const signature = req.headers['stripe-signature'];
    if (typeof signature !== 'string') throw badInput({ signature: 'Stripe-Signature header is missing' });
    res.json(await written(true, () => services.payments.handleWebhook(req.body as Buffer, signature)));
  });

  router.use(jsonBody());

  // Parts
  router.get(
    '/parts',
    route(async (req) => {
      const result = await services.parts.listParts({
        search: query(req, 'search'),
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.parts.max,
      });
      return result.items.map(partDocument);
    }),
  );
  router.get(
    '/parts/:partId',
    route(async (req) => partDocument(await services.parts.getPart(param(req, 'partId')))),
  );
  router.post(
    '/parts',
    route(async (req, caller) => inserted((await services.parts.addPart(await actorOf(caller), body(req))).id)),
  );
  router.delete(
    '/part/:id',
    route(async (req, caller) =>
      deleted((await services.parts.deletePart(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );

  // Reviews
  router.get(
    '/reviews',
    route(async (req) =>
      (await services.reviews.listReviews(optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.reviews.max)).map(
        reviewDocument,
      ),
    ),
  );
  router.post(
    '/reviews',
    route(async (req, caller) => {
      const { partId, text } = body(req);
      return inserted((await services.reviews.addReview(await actorOf(caller), { partId: textOf(partId), text })).id);
    }),
  );

  // Orders
  router.post(
    '/orders',
    route(async (req, caller) => {
      const input = body(req);
      // price, partName and partImage are the server's: whatever the client sends for them is ignored.
      const order = await services.orders.placeOrder(
        await actorOf(caller),
        {
          email: input.email,
          partId: textOf(input.partId),
          name: input.name,
          phone: input.phone,
          orderAmount: input.orderAmount,
          address: input.address,
        },
        clientOf(req),
      );
      return inserted(order.id);
    }),
  );
  router.get(
    '/orders',
    route(async (req, caller) => {
      const { items } = await services.orders.allOrders(await actorOf(caller), {
        status: query(req, 'status'),
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.orders.max,
      });
      return items.map(orderDocument);
    }),
  );
  router.get(
    '/orders/filter',
    route(async (req, caller) =>
      (await services.orders.ordersByEmail(await actorOf(caller), query(req, 'email') ?? '')).map(orderDocument),
    ),
  );
  router.get(
    '/order/:orderId',
    route(async (req, caller) =>
      orderDocument(await services.orders.getOrder(await actorOf(caller), param(req, 'orderId'))),
    ),
  );
  router.delete(
    '/order/:id',
    route(async (req, caller) =>
      deleted((await services.orders.cancelOrder(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );
  router.patch(
    '/order/:id',
    route(async (req, caller) => {
      const actor = await actorOf(caller);
      const { transactionId } = body(req);
      if (typeof transactionId !== 'string' || !transactionId.trim()) {
        throw badInput({ transactionId: 'transactionId is required' });
      }
      // modifiedCount 1 only for the call that recorded the payment (of two at once, one; again, 0).
      const { recorded } = await services.payments.confirmPaymentOutcome(actor, param(req, 'id'), transactionId.trim());
      return updated(1, recorded ? 1 : 0);
    }),
  );
  router.patch(
    '/order/:id/shipped',
    route(async (req, caller) => {
      const { changed } = await services.orders.markShipped(await actorOf(caller), param(req, 'id'));
      return updated(1, changed ? 1 : 0);
    }),
  );

  // Payments
  router.post(
    '/create-payment-intent',
    route(async (req, caller) => {
      const { orderId, price } = body(req);
      if (typeof orderId !== 'string' || !orderId) throw badInput({ orderId: 'orderId is required' });
      const intent = await services.payments.createPaymentIntent(await actorOf(caller), orderId, {
        expectedPrice: price === undefined ? undefined : numberOf(price),
      });
      return {
        clientSecret: intent.clientSecret,
        paymentIntentId: intent.id,
        amount: intent.amountCents / 100,
        currency: intent.currency,
      };
    }),
  );
  router.post(
    '/test-gateway/pay',
    route(async (req, caller) => {
      const { paymentIntentId, card } = body(req);
      const c = (card && typeof card === 'object' ? card : {}) as Record<string, unknown>;
      return services.payments.payWithTestCard(await actorOf(caller), textOf(paymentIntentId), {
        number: textOf(c.number),
        expMonth: numberOf(c.expMonth),
        expYear: numberOf(c.expYear),
        cvc: textOf(c.cvc),
      });
    }),
  );
  router.get(
    '/payments/filter',
    route(async (req, caller) =>
      (await services.payments.paymentsByEmail(await actorOf(caller), query(req, 'email') ?? '')).map(paymentDocument),
    ),
  );

  // Users
  router.get(
    '/users',
    route(async (req, caller) =>
      (
        await services.users.listUsers(await actorOf(caller), {
          limit: optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.users.max,
          offset: optionalInt(query(req, 'offset'), 'offset'),
        })
      ).items.map(userDocument),
    ),
  );
  router.put(
    '/user/admin/:email',
    route(async (req, caller) => {
      const { modified } = await services.users.grantAdmin(await actorOf(caller), param(req, 'email'));
      return updated(1, modified ? 1 : 0);
    }),
  );
  router.delete(
    '/user/admin/:email',
    route(async (req, caller) => {
      const { modified } = await services.users.revokeAdmin(await actorOf(caller), param(req, 'email'));
      return updated(1, modified ? 1 : 0);
    }),
  );
  router.get(
    '/admin/:email',
    route(async (req, caller) => ({ admin: await services.users.isAdmin(await actorOf(caller), param(req, 'email')) })),
  );
  router.get(
    '/user/:email',
    route(async (req, caller) =>
      userDocument(await services.users.profileByEmail(await actorOf(caller), param(req, 'email'))),
    ),
  );
  router.put(
    '/user/:email',
    route(async (req, caller) => {
      const email = param(req, 'email');
      const { actor } = await caller.lookUp();
      if (actor) {
        // Our own access token: a profile update by the user themselves.
        await services.users.updateProfileByEmail(actor, email, body(req));
        return { result: updated(1, 1) };
      }
      // Otherwise the bearer must be a Firebase ID token for this email: sign-in.
      const idToken = bearerToken(req.headers.authorization);
      if (!idToken)
        throw new AppError('UNAUTHENTICATED', 'Sign in with Firebase first: send its ID token as a Bearer token');
      const { email: _ignored, ...profile } = body(req);
      const {
        token,
        user,
        inserted: created,
      } = await services.users.signIn(idToken, profile, {
        expectedEmail: email,
        client: clientOf(req),
      });
      return {
        result: {
          acknowledged: true,
          matchedCount: created ? 0 : 1,
          modifiedCount: created ? 0 : 1,
          upsertedCount: created ? 1 : 0,
          upsertedId: created ? user.id : null,
        },
        token,
      };
    }),
  );
  router.delete(
    '/user/:id',
    route(async (req, caller) =>
      deleted((await services.users.deleteUser(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );

  // Contact messages
  router.post(
    '/contact',
    route(async (req) => inserted((await services.contact.sendMessage(body(req), clientOf(req))).id)),
  );
  router.get(
    '/contact',
    route(async (req, caller) =>
      (
        await services.contact.listMessages(await actorOf(caller), {
          limit: optionalInt(query(req, 'limit'), 'limit'),
          offset: optionalInt(query(req, 'offset'), 'offset'),
        })
      ).items.map(contactDocument),
    ),
  );

  router.use((req: Request, res: Response) => {
    res.status(404).json({ message: `No route ${req.method} /api${req.path}` });
  });
  router.use(restErrorHandler);
  return router;
}

/** One mapping from errors to HTTP answers: AppError codes to statuses, body-parser failures to 400/413/415. */
export function restErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const answer = errorAnswer(error);
  if (answer.code !== 'INTERNAL_SERVER_ERROR') {
    if (answer.log === 'warn') {
      logger.warn('a request found a dependency unavailable', {
        requestId: req.id,
        error: describeError(answer.cause).error,
      });
    }
    if (answer.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
    res.status(answer.status).json({ message: answer.message, ...(answer.fields ? { errors: answer.fields } : {}) });
    return;
  }
  const refusal = bodyRefusal(error);
  if (refusal) {
    res.status(refusal.status).json({ message: refusal.message });
    return;
  }
  if (error instanceof URIError) {
    // A path parameter with a malformed %-escape, which Express could not decode.
    res.status(400).json({ message: 'The address has a malformed %-escape' });
    return;
  }
  logger.error('unexpected error in a request', { requestId: req.id, ...describeError(answer.cause) });
  res.status(answer.status).json({ message: answer.message });
}
