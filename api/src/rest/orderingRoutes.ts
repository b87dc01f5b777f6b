import { centsToDollars, parsePastedLines } from '@partsyard/common';
import type { Request, Response, Router } from 'express';
import type { PartRow } from '../db/schema';
import { badInput } from '../errors';
import type { PendingCaller } from '../http/caller';
import type { QuickOrderCheckView } from '../ordering/quickOrderCheck';
import type { CartFromLinesView } from '../ordering/quickOrderService';
import type { SavedListAdditionView, SavedListView } from '../ordering/savedListsService';
import type { Services } from '../services';
import type { Actor } from '../services/actor';
import type { CartView } from '../services/cartService';
import type { RouteOf } from './restRouter';
import { bodyOf } from './queryParams';

type ActorOf = (pending: PendingCaller) => Promise<Actor | null>;

/** A part as quick order's answers show it: the shim's part document and its SKU. */
const partBrief = (p: PartRow | null) =>
  p && {
    _id: p.id,
    sku: p.sku,
    name: p.name,
    price: centsToDollars(p.priceCents),
    minOrder: p.minOrder,
    packSize: p.packSize,
    available: p.available,
  };
const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents));

export const checkDocument = (view: QuickOrderCheckView) => ({
  lines: view.lines.map((l) => ({
    line: l.line,
    number: l.number,
    quantity: l.quantity,
    amount: l.amount,
    part: partBrief(l.part),
    unitPrice: dollars(l.unitPriceCents),
    companyPriced: l.companyPriced,
    lineTotal: dollars(l.lineTotalCents),
    problem: l.problem,
    replacement: partBrief(l.replacement),
    replacementProblem: l.replacementProblem,
    candidates: l.candidates.map(partBrief),
    suggestions: l.suggestions.map((s) => ({ number: s.number, part: partBrief(s.part) })),
    mergedInto: l.mergedInto,
    mergedLines: l.mergedLines,
    note: l.note,
  })),
  total: centsToDollars(view.totalCents),
  problemCount: view.problemCount,
  ready: view.ready,
});

const cartDocument = (cart: CartView) => ({
  lines: cart.lines.map((l) => ({
    partId: l.partId,
    sku: l.part.sku,
    name: l.part.name,
    amount: l.amount,
    unitPrice: centsToDollars(l.unitPriceCents),
    companyPriced: l.companyPriced,
    lineTotal: centsToDollars(l.lineTotalCents),
    problem: l.problem,
  })),
  total: centsToDollars(cart.totalCents),
  units: cart.units,
});

const fromLinesDocument = (view: CartFromLinesView) => ({
  added: view.added,
  check: checkDocument(view.check),
  cart: cartDocument(view.cart),
});

const listDocument = (list: SavedListView) => ({
  _id: list.id,
  name: list.name,
  lines: list.lines.map((l) => ({
    _id: l.id,
    partId: l.partId,
    sku: l.sku,
    name: l.partName,
    quantity: l.quantity,
    part: partBrief(l.part),
    replacement: partBrief(l.replacement),
    unitPrice: dollars(l.unitPriceCents),
    lineTotal: dollars(l.lineTotalCents),
    problem: l.problem,
    addedAt: l.addedAt.toISOString(),
  })),
  total: centsToDollars(list.totalCents),
  createdAt: list.createdAt.toISOString(),
  updatedAt: list.updatedAt.toISOString(),
});

const additionDocument = (added: SavedListAdditionView) => ({ list: listDocument(added.list), skipped: added.skipped });

/**
 * The lines of a request: `lines` (a list of `{ number, quantity, line? }`), or `text` (pasted text or a CSV file's
 * text, read by the web's own parser, common/src/quickOrder.ts). Anything else is the check's to refuse.
 */
function linesOf(req: Request): unknown {
  const { lines, text } = bodyOf(req);
  if (lines !== undefined && text !== undefined) throw badInput({ lines: 'Send lines or text, not both' });
  if (typeof text === 'string') return parsePastedLines(text).lines;
  if (text !== undefined) throw badInput({ text: 'text must be the pasted lines, as one string' });
  return lines;
}

const pastOrderOf = (req: Request) => {
  const { orderId, checkoutId } = bodyOf(req);
  const idOrNull = (value: unknown, field: string) => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw badInput({ [field]: `${field} must be an id` });
    return value;
  };
  return { orderId: idOrNull(orderId, 'orderId'), checkoutId: idOrNull(checkoutId, 'checkoutId') };
};

/**
 * Ordering by part number under /api (issue 34; docs/api.md): quick order's check, its problems as CSV, adding to
 * the cart, order again, and saved lists, through the same services as GraphQL. Nothing here changes what visitors
 * read (the check writes nothing; carts and lists are their owner's): the public answer cache is left alone, and
 * every answer is `Cache-Control: no-store`, varying by Authorization.
 */
export function addOrderingRoutes(router: Router, route: RouteOf, services: Services, actorOf: ActorOf): void {
  const privately = { changesPublicAnswers: false };
  for (const prefix of ['/quick-order', '/lists', '/orders/again']) {
    router.use(prefix, (_req: Request, res: Response, next: () => void) => {
      res.setHeader('Cache-Control', 'no-store');
      res.vary('Authorization');
      next();
    });
  }
  const quick = services.quickOrder;
  const lists = services.savedLists;

  // The check is public and the same for everyone: like the catalog's reads, it never looks the caller up, so a
  // stale token does not stop a visitor's grid.
  router.post(
    '/quick-order/check',
    route('quickOrder.check', async (req) => checkDocument(await quick.check(null, linesOf(req))), privately),
  );
  router.post(
    '/quick-order/problems.csv',
    route('quickOrder.check', async (req) => quick.problemsCsv(null, linesOf(req)), {
      ...privately,
      send: (res, answer) => {
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', 'attachment; filename="quick-order-problems.csv"');
        res.send(answer);
      },
    }),
  );
  router.post(
    '/quick-order/cart',
    route(
      'quickOrder.addToCart',
      async (req, caller) => fromLinesDocument(await quick.addToCart(await actorOf(caller), linesOf(req))),
      privately,
    ),
  );
  router.post(
    '/orders/again',
    route(
      'quickOrder.orderAgain',
      async (req, caller) => fromLinesDocument(await quick.orderAgain(await actorOf(caller), pastOrderOf(req))),
      privately,
    ),
  );

  router.get(
    '/lists',
    route('lists.myLists', async (_req, caller) =>
      (await lists.myLists(await actorOf(caller))).map((l) => ({
        _id: l.id,
        name: l.name,
        lineCount: l.lineCount,
        updatedAt: l.updatedAt.toISOString(),
      })),
    ),
  );
  router.post(
    '/lists',
    route(
      'lists.create',
      async (req, caller) => listDocument(await lists.createSavedList(await actorOf(caller), bodyOf(req).name)),
      privately,
    ),
  );
  router.get(
    '/lists/:id',
    route('lists.list', async (req, caller) =>
      listDocument(await lists.savedList(await actorOf(caller), String(req.params.id ?? ''))),
    ),
  );
  router.patch(
    '/lists/:id',
    route(
      'lists.rename',
      async (req, caller) =>
        listDocument(await lists.renameSavedList(await actorOf(caller), String(req.params.id ?? ''), bodyOf(req).name)),
      privately,
    ),
  );
  router.delete(
    '/lists/:id',
    route(
      'lists.delete',
      async (req, caller) => ({
        acknowledged: true,
        deletedCount: 1,
        _id: await lists.deleteSavedList(await actorOf(caller), String(req.params.id ?? '')),
      }),
      privately,
    ),
  );
  router.put(
    '/lists/:id/lines/:partId',
    route(
      'lists.setLine',
      async (req, caller) =>
        listDocument(
          await lists.setSavedListLine(
            await actorOf(caller),
            String(req.params.id ?? ''),
            String(req.params.partId ?? ''),
            bodyOf(req).quantity,
          ),
        ),
      privately,
    ),
  );
  router.delete(
    '/lists/:id/lines/:partId',
    route(
      'lists.removeLine',
      async (req, caller) =>
        listDocument(
          await lists.removeSavedListLine(
            await actorOf(caller),
            String(req.params.id ?? ''),
            // `?by=line`: the segment is the line's own id (a line whose part was deleted has no part id).
            req.query.by === 'line'
              ? { lineId: String(req.params.partId ?? '') }
              : { partId: String(req.params.partId ?? '') },
          ),
        ),
      privately,
    ),
  );
  router.post(
    '/lists/:id/from-cart',
    route(
      'lists.addFromCart',
      async (req, caller) =>
        additionDocument(await lists.addCartToSavedList(await actorOf(caller), String(req.params.id ?? ''))),
      privately,
    ),
  );
  router.post(
    '/lists/:id/from-quick-order',
    route(
      'lists.addFromQuickOrder',
      async (req, caller) =>
        additionDocument(
          await lists.addQuickOrderToSavedList(await actorOf(caller), String(req.params.id ?? ''), linesOf(req)),
        ),
      privately,
    ),
  );
  router.post(
    '/lists/:id/from-order',
    route(
      'lists.addFromOrder',
      async (req, caller) =>
        additionDocument(
          await lists.addOrderToSavedList(await actorOf(caller), String(req.params.id ?? ''), pastOrderOf(req)),
        ),
      privately,
    ),
  );
  router.post(
    '/lists/:id/cart',
    route(
      'lists.toCart',
      async (req, caller) =>
        fromLinesDocument(await lists.savedListToCart(await actorOf(caller), String(req.params.id ?? ''))),
      privately,
    ),
  );
}
