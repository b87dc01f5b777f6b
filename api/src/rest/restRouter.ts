import { catalogSearchMessages } from '@partsyard/common';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError, badInput, errorAnswer, isRefusal } from '../errors';
import { bearerToken, callerOf, type PendingCaller } from '../http/caller';
import { clientOf } from '../http/rateLimit';
import { bodyRefusal, jsonBody } from '../http/requestBody';
import { describeError, logger } from '../logger';
import type { AccessTokens } from '../identity/accessTokens';
import type { Services } from '../services';
import { pageSizes } from '../services/paging';
import { authorize, needsCaller, type Operation } from '../services/rights';
import { addImportRoutes } from './importRoutes';
import { catalogDocument, catalogOf } from './catalogDocuments';
import { optionalInt, query } from './queryParams';
import {
  contactDocument,
  orderDocument,
  partDocument,
  paymentDocument,
  reviewDocument,
  stockMovementDocument,
  userDocument,
} from './documents';
import { addGarageRoutes } from './garageRoutes';
import { addOrderingRoutes } from './orderingRoutes';
import { addCompanyRoutes } from './companyRoutes';
import { addInvoiceRoutes } from './invoiceRoutes';

type Handler = (req: Request, caller: PendingCaller) => Promise<unknown>;

/** How a route differs from the usual JSON in, JSON out, where any write may change public answers. */
export interface RouteOptions {
  /** Reads the body (once the caller is let in) instead of the JSON parser. */
  readBody?: (req: Request, res: Response) => Promise<void>;
  /** Whether a call that succeeded may have changed what visitors read (the answer cache); by default any write. */
  changesPublicAnswers?: boolean;
  /** Sends the handler's answer instead of res.json. */
  send?: (res: Response, answer: unknown) => void;
}

/** A route of the shim, for the domain folders' route files. */
export type RouteOf = (
  operation: Operation,
  handler: Handler,
  options?: RouteOptions,
) => (req: Request, res: Response) => Promise<void>;

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

/**
 * The caller for a service, looked up now (a route of public reads never asks, so it spares the round trip):
 * a token that was sent but refused answers its own 401 (expired, revoked, deleted account...); no token is a
 * visitor (null). Whether the operation needs a caller, or an admin, is the services' to say.
 */
export const actorOf = async (pending: PendingCaller) => {
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
  const readJson = jsonBody();
  /** The request's JSON body, read only once its caller is let in; its refusals are the error handler's. */
  const readBody = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      readJson(req, res, (error?: Error) => (error === undefined ? resolve() : reject(error))),
    );
  /** The handler's answer; a write that changed something is counted before it is sent. */
  const written = async <T>(write: boolean, handler: () => Promise<T>): Promise<T> => {
    let answer: T;
    try {
      answer = await handler();
    } catch (error) {
      if (write && !isRefusal(error)) changed();
      throw error;
    }
    if (write) changed();
    return answer;
  };
  /**
   * A route serving `operation`. Where its right (services/rights.ts) needs a caller, a missing or refused
   * token (401), and a customer at an admin operation (403), are refused before any of the request's input is
   * read: a stranger learns nothing about it by probing, and their body is not even read.
   */
  const route =
    (operation: Operation, handler: Handler, options: RouteOptions = {}) =>
    async (req: Request, res: Response) => {
      const caller = callerOf(req.headers.authorization, tokens, services.users);
      if (needsCaller(operation)) authorize(operation, await actorOf(caller));
      await (options.readBody ?? readBody)(req, res);
      const answer = await written(options.changesPublicAnswers ?? mayWrite(req), () => handler(req, caller));
      if (options.send) options.send(res, answer);
      else res.json(answer);
    };

  // Stripe signs the raw bytes: this route reads its own body, raw (the gateway's signature is its caller).
  router.post('/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res) => {
    const signature = req.headers['stripe-signature'];
    if (typeof signature !== 'string') throw badInput({ signature: 'Stripe-Signature header is missing' });
    res.json(await written(true, () => services.payments.handleWebhook(req.body as Buffer, signature)));
  });

  // Parts
  router.get(
    '/parts',
    route('parts.listParts', async (req) => {
      const result = await services.parts.listParts({
        search: query(req, 'search'),
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.parts.max,
      });
      return result.items.map(partDocument);
    }),
  );
  // The look-up by number (issue 33), as partsByNumber: exact, then prefix, each hit with why it matched.
  router.get(
    '/parts/by-number/:number',
    route('catalog.partsByNumber', async (req) =>
      (await services.catalog.partsByNumber(param(req, 'number'))).map((hit) => ({
        part: { ...partDocument(hit.part), sku: hit.part.sku },
        match: hit.match,
        reason: hit.reason,
        replaces: hit.replaces && { ...partDocument(hit.replaces), sku: hit.replaces.sku },
      })),
    ),
  );
  // The catalog (issue 33), as the GraphQL `catalog`: filters, a page, its total and facets; and the search box.
  router.get(
    '/catalog',
    route('catalog.catalog', async (req) =>
      catalogDocument(await catalogOf(req, services, { facets: true }), { facets: true }),
    ),
  );
  router.get(
    '/search',
    route('catalog.catalog', async (req) => {
      if (!query(req, 'q')?.trim()) throw badInput({ q: catalogSearchMessages.empty });
      return catalogDocument(await catalogOf(req, services, { facets: false }), { facets: false });
    }),
  );
  router.get(
    '/parts/:partId',
    route('parts.getPart', async (req) => partDocument(await services.parts.getPart(param(req, 'partId')))),
  );
  router.post(
    '/parts',
    route('parts.addPart', async (req, caller) =>
      inserted((await services.parts.addPart(await actorOf(caller), body(req))).id),
    ),
  );
  // Editing a part (issue 33 point 5): any of its fields (PartPatch in schema.graphql); its stock by adjustments.
  router.patch(
    '/parts/:id',
    route('catalog.updatePart', async (req, caller) => {
      const { changed } = await services.catalog.updatePart(await actorOf(caller), param(req, 'id'), body(req));
      return updated(1, changed ? 1 : 0);
    }),
  );
  router.post(
    '/parts/:id/stock',
    route('inventory.adjustStock', async (req, caller) => {
      const { movement } = await services.inventory.adjustStock(await actorOf(caller), param(req, 'id'), body(req));
      return { ...inserted(movement.id), before: movement.before, after: movement.after };
    }),
  );
  router.get(
    '/parts/:id/stock',
    route('inventory.stockHistory', async (req, caller) => {
      const { items } = await services.inventory.stockHistory(await actorOf(caller), param(req, 'id'), {
        offset: optionalInt(query(req, 'offset'), 'offset'),
        limit: optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.stockHistory.max,
      });
      return items.map(stockMovementDocument);
    }),
  );
  router.delete(
    '/part/:id',
    route('parts.deletePart', async (req, caller) =>
      deleted((await services.parts.deletePart(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );

  // Reviews
  router.get(
    '/reviews',
    route('reviews.listReviews', async (req) =>
      (await services.reviews.listReviews(optionalInt(query(req, 'limit'), 'limit') ?? pageSizes.reviews.max)).map(
        reviewDocument,
      ),
    ),
  );
  router.post(
    '/reviews',
    route('reviews.addReview', async (req, caller) => {
      const { partId, text } = body(req);
      return inserted((await services.reviews.addReview(await actorOf(caller), { partId: textOf(partId), text })).id);
    }),
  );

  // Orders
  router.post(
    '/orders',
    route('orders.placeOrder', async (req, caller) => {
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
    route('orders.allOrders', async (req, caller) => {
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
    route('orders.ordersByEmail', async (req, caller) =>
      (await services.orders.ordersByEmail(await actorOf(caller), query(req, 'email') ?? '')).map(orderDocument),
    ),
  );
  router.get(
    '/order/:orderId',
    route('orders.getOrder', async (req, caller) =>
      orderDocument(await services.orders.getOrder(await actorOf(caller), param(req, 'orderId'))),
    ),
  );
  router.delete(
    '/order/:id',
    route('orders.cancelOrder', async (req, caller) =>
      deleted((await services.orders.cancelOrder(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );
  router.patch(
    '/order/:id',
    route('payments.confirmPayment', async (req, caller) => {
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
    route('orders.markShipped', async (req, caller) => {
      const { changed } = await services.orders.markShipped(await actorOf(caller), param(req, 'id'));
      return updated(1, changed ? 1 : 0);
    }),
  );

  // Payments
  router.post(
    '/create-payment-intent',
    route('payments.createPaymentIntent', async (req, caller) => {
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
    route('payments.payWithTestCard', async (req, caller) => {
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
    route('payments.paymentsByEmail', async (req, caller) =>
      (await services.payments.paymentsByEmail(await actorOf(caller), query(req, 'email') ?? '')).map(paymentDocument),
    ),
  );

  // Users
  router.get(
    '/users',
    route('users.listUsers', async (req, caller) =>
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
    route('users.grantAdmin', async (req, caller) => {
      const { modified } = await services.users.grantAdmin(await actorOf(caller), param(req, 'email'));
      return updated(1, modified ? 1 : 0);
    }),
  );
  router.delete(
    '/user/admin/:email',
    route('users.revokeAdmin', async (req, caller) => {
      const { modified } = await services.users.revokeAdmin(await actorOf(caller), param(req, 'email'));
      return updated(1, modified ? 1 : 0);
    }),
  );
  router.get(
    '/admin/:email',
    route('users.isAdmin', async (req, caller) => ({
      admin: await services.users.isAdmin(await actorOf(caller), param(req, 'email')),
    })),
  );
  router.get(
    '/user/:email',
    route('users.profileByEmail', async (req, caller) =>
      userDocument(await services.users.profileByEmail(await actorOf(caller), param(req, 'email'))),
    ),
  );
  // A profile update by the user themselves (our access token), or the original backend's sign-in (a Firebase
  // ID token for this email). Either token is checked before the body is read, as on every protected route.
  router.put('/user/:email', async (req, res) => {
    const email = param(req, 'email');
    const { actor } = await callerOf(req.headers.authorization, tokens, services.users).lookUp();
    if (actor) {
      await readBody(req, res);
      await written(true, () => services.users.updateProfileByEmail(actor, email, body(req)));
      res.json({ result: updated(1, 1) });
      return;
    }
    const idToken = bearerToken(req.headers.authorization);
    if (!idToken)
      throw new AppError('UNAUTHENTICATED', 'Sign in with Firebase first: send its ID token as a Bearer token');
    const finishSignIn = await services.users.beginSignIn(idToken, { expectedEmail: email, client: clientOf(req) });
    await readBody(req, res);
    const { email: _ignored, ...profile } = body(req);
    const { token, user, inserted: created } = await written(true, () => finishSignIn(profile));
    res.json({
      result: {
        acknowledged: true,
        matchedCount: created ? 0 : 1,
        modifiedCount: created ? 0 : 1,
        upsertedCount: created ? 1 : 0,
        upsertedId: created ? user.id : null,
      },
      token,
    });
  });
  router.delete(
    '/user/:id',
    route('users.deleteUser', async (req, caller) =>
      deleted((await services.users.deleteUser(await actorOf(caller), param(req, 'id'))) ? 1 : 0),
    ),
  );

  // Contact messages
  router.post(
    '/contact',
    route('contact.sendMessage', async (req) =>
      inserted((await services.contact.sendMessage(body(req), clientOf(req))).id),
    ),
  );
  router.get(
    '/contact',
    route('contact.listMessages', async (req, caller) =>
      (
        await services.contact.listMessages(await actorOf(caller), {
          limit: optionalInt(query(req, 'limit'), 'limit'),
          offset: optionalInt(query(req, 'offset'), 'offset'),
        })
      ).items.map(contactDocument),
    ),
  );

  addImportRoutes(router, { services, route, actorOf });
  addGarageRoutes(router, route, services, actorOf);
  addOrderingRoutes(router, route, services, actorOf);
  addCompanyRoutes(router, route, services, actorOf);
  addInvoiceRoutes(router, route, services, actorOf);

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
