import type { Request, Response, Router } from 'express';
import type { CompanyView, InvitationView } from '../companies/companiesService';
import type { AwaitingCheckoutView } from '../companies/companyApprovals';
import type { CompanyPartPriceView, CompanyPriceListView, MyPricesView } from '../companies/companyPrices';
import { centsToDollars } from '@partsyard/common';
import { orderDocument } from './documents';
import type { PendingCaller } from '../http/caller';
import type { Services } from '../services';
import type { Actor } from '../services/actor';
import type { RouteOf } from './restRouter';
import { bodyOf } from './queryParams';

type ActorOf = (pending: PendingCaller) => Promise<Actor | null>;

const param = (req: Request, name: string) => String(req.params[name] ?? '');

export const invitationDocument = (i: InvitationView) => ({
  _id: i.id,
  companyName: i.companyName,
  email: i.email,
  role: i.role,
  status: i.status,
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
});

export const companyDocument = (view: CompanyView) => ({
  _id: view.company.id,
  name: view.company.name,
  taxId: view.company.taxId,
  myRole: view.myRole,
  addresses: view.addresses.map((a) => ({ _id: a.id, label: a.label, address: a.address })),
  members: view.members.map(({ orderLimitCents, ...m }) => ({
    ...m,
    orderLimit: orderLimitCents === null ? null : centsToDollars(orderLimitCents),
    joinedAt: m.joinedAt.toISOString(),
  })),
  invitations: view.invitations.map((i) => invitationDocument({ ...i, companyName: view.company.name })),
  createdAt: view.company.createdAt.toISOString(),
});

const tiersDocument = (tiers: readonly { minUnits: number; priceCents: number }[]) =>
  tiers.map((t) => ({ minUnits: t.minUnits, price: centsToDollars(t.priceCents) }));
const percent = (basisPoints: number | null) => (basisPoints === null ? null : basisPoints / 100);

export const partPriceDocument = (p: CompanyPartPriceView) => ({
  partId: p.partId,
  sku: p.part.sku,
  name: p.part.name,
  listPrice: centsToDollars(p.part.priceCents),
  price: centsToDollars(p.priceCents),
  priceTiers: tiersDocument(p.priceTiers),
});

export const priceListDocument = (list: CompanyPriceListView) => ({
  companyId: list.companyId,
  percentOff: percent(list.percentOffBasisPoints),
  total: list.total,
  items: list.items.map(partPriceDocument),
});

export const myPricesDocument = (mine: MyPricesView | null) => ({
  prices: mine && {
    companyId: mine.companyId,
    percentOff: percent(mine.percentOffBasisPoints),
    parts: mine.parts.map((p) => ({
      partId: p.partId,
      price: centsToDollars(p.priceCents),
      priceTiers: tiersDocument(p.priceTiers),
    })),
  },
});

/** A checkout awaiting approval (issue 35 point 2). */
export const awaitingDocument = (a: AwaitingCheckoutView) => ({
  _id: a.id,
  buyer: {
    userId: a.buyer.userId,
    name: a.buyer.name,
    email: a.buyer.email,
    orderLimit: a.buyer.orderLimitCents === null ? null : centsToDollars(a.buyer.orderLimitCents),
  },
  orders: a.orders.map(orderDocument),
  total: centsToDollars(a.totalCents),
  createdAt: a.createdAt.toISOString(),
  expiresAt: a.expiresAt.toISOString(),
});

/**
 * Companies under /api (issue 35; docs/api.md), through the same service as GraphQL. Nothing here changes what
 * visitors read: the public answer cache is left alone, and every answer is `Cache-Control: no-store`, varying by
 * Authorization.
 */
export function addCompanyRoutes(router: Router, route: RouteOf, services: Services, actorOf: ActorOf): void {
  const privately = { changesPublicAnswers: false };
  for (const prefix of ['/company', '/companies', '/company-invitations', '/company-approvals']) {
    router.use(prefix, (_req: Request, res: Response, next: () => void) => {
      res.setHeader('Cache-Control', 'no-store');
      res.vary('Authorization');
      next();
    });
  }
  const companies = services.companies;
  const view = async (answer: Promise<CompanyView>) => companyDocument(await answer);

  router.get(
    '/company',
    route('companies.myCompany', async (_req, caller) => {
      const mine = await companies.myCompany(await actorOf(caller));
      return { company: mine && companyDocument(mine) };
    }),
  );
  router.delete(
    '/company',
    route(
      'companies.leave',
      async (_req, caller) => ({ left: await companies.leaveCompany(await actorOf(caller)) }),
      privately,
    ),
  );
  router.get(
    '/companies',
    route('companies.list', async (req, caller) => {
      const number = (name: string) => (req.query[name] === undefined ? undefined : Number(req.query[name]));
      const search = typeof req.query.search === 'string' ? req.query.search : undefined;
      const listed = await companies.listCompanies(await actorOf(caller), {
        search,
        offset: number('offset'),
        limit: number('limit'),
      });
      return {
        total: listed.total,
        items: listed.items.map((s) => ({
          _id: s.company.id,
          name: s.company.name,
          taxId: s.company.taxId,
          memberCount: s.memberCount,
          createdAt: s.company.createdAt.toISOString(),
        })),
      };
    }),
  );
  router.post(
    '/companies',
    route(
      'companies.create',
      async (req, caller) => {
        const { name, taxId } = bodyOf(req);
        return view(companies.createCompany(await actorOf(caller), { name, taxId }));
      },
      privately,
    ),
  );
  router.get(
    '/companies/:id',
    route('companies.company', async (req, caller) => view(companies.company(await actorOf(caller), param(req, 'id')))),
  );
  router.patch(
    '/companies/:id',
    route(
      'companies.update',
      async (req, caller) => {
        const { name, taxId } = bodyOf(req);
        return view(companies.updateCompany(await actorOf(caller), param(req, 'id'), { name, taxId }));
      },
      privately,
    ),
  );
  router.post(
    '/companies/:id/addresses',
    route(
      'companies.addAddress',
      async (req, caller) => {
        const { label, address } = bodyOf(req);
        return view(companies.addCompanyAddress(await actorOf(caller), param(req, 'id'), { label, address }));
      },
      privately,
    ),
  );
  router.delete(
    '/companies/:id/addresses/:addressId',
    route(
      'companies.removeAddress',
      async (req, caller) =>
        view(companies.removeCompanyAddress(await actorOf(caller), param(req, 'id'), param(req, 'addressId'))),
      privately,
    ),
  );
  router.post(
    '/companies/:id/invitations',
    route(
      'companies.invite',
      async (req, caller) => {
        const { email, role } = bodyOf(req);
        return invitationDocument(
          await companies.inviteToCompany(await actorOf(caller), param(req, 'id'), { email, role }),
        );
      },
      privately,
    ),
  );
  router.put(
    '/companies/:id/members/:userId',
    route(
      'companies.setMemberRole',
      async (req, caller) =>
        view(companies.setMemberRole(await actorOf(caller), param(req, 'id'), param(req, 'userId'), bodyOf(req).role)),
      privately,
    ),
  );
  router.delete(
    '/companies/:id/members/:userId',
    route(
      'companies.removeMember',
      async (req, caller) =>
        view(companies.removeMember(await actorOf(caller), param(req, 'id'), param(req, 'userId'))),
      privately,
    ),
  );
  router.put(
    '/companies/:id/members/:userId/limit',
    route(
      'companies.setBuyerLimit',
      async (req, caller) =>
        view(
          companies.setBuyerLimit(
            await actorOf(caller),
            param(req, 'id'),
            param(req, 'userId'),
            bodyOf(req).orderLimit ?? null,
          ),
        ),
      privately,
    ),
  );
  router.get(
    '/companies/:id/approvals',
    route('companies.approvals', async (req, caller) => {
      const number = (name: string) => (req.query[name] === undefined ? undefined : Number(req.query[name]));
      const listed = await services.approvals.companyApprovals(await actorOf(caller), param(req, 'id'), {
        offset: number('offset'),
        limit: number('limit'),
      });
      return { items: listed.items.map(awaitingDocument), total: listed.total };
    }),
  );
  router.post(
    '/company-approvals/:id/approve',
    route(
      'companies.approveCheckout',
      async (req, caller) =>
        awaitingDocument(await services.approvals.approveCheckout(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
  router.post(
    '/company-approvals/:id/decline',
    route(
      'companies.declineCheckout',
      async (req, caller) =>
        awaitingDocument(await services.approvals.declineCheckout(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
  // Company prices (issue 35 point 3): a member's own, and a company's price list.
  const prices = services.companyPrices;
  router.get(
    '/company/prices',
    route('companies.myPrices', async (req, caller) => {
      const given = typeof req.query.partIds === 'string' ? req.query.partIds : '';
      const partIds = given ? given.split(',').map((id) => id.trim()) : [];
      return myPricesDocument(await prices.myPrices(await actorOf(caller), partIds));
    }),
  );
  router.get(
    '/companies/:id/prices',
    route('companies.priceList', async (req, caller) => {
      const number = (name: string) => (req.query[name] === undefined ? undefined : Number(req.query[name]));
      return priceListDocument(
        await prices.companyPriceList(await actorOf(caller), param(req, 'id'), {
          offset: number('offset'),
          limit: number('limit'),
        }),
      );
    }),
  );
  router.put(
    '/companies/:id/prices',
    route(
      'companies.setPercentOff',
      async (req, caller) =>
        priceListDocument(
          await prices.setCompanyPercentOff(await actorOf(caller), param(req, 'id'), bodyOf(req).percentOff),
        ),
      privately,
    ),
  );
  router.put(
    '/companies/:id/prices/:partId',
    route(
      'companies.setPartPrice',
      async (req, caller) => {
        const { price, priceTiers } = bodyOf(req);
        return partPriceDocument(
          await prices.setCompanyPartPrice(await actorOf(caller), param(req, 'id'), param(req, 'partId'), {
            price,
            priceTiers,
          }),
        );
      },
      privately,
    ),
  );
  router.delete(
    '/companies/:id/prices/:partId',
    route(
      'companies.removePartPrice',
      async (req, caller) => ({
        removed: await prices.removeCompanyPartPrice(await actorOf(caller), param(req, 'id'), param(req, 'partId')),
      }),
      privately,
    ),
  );
  router.get(
    '/company-invitations',
    route('companies.myInvitations', async (_req, caller) =>
      (await companies.myInvitations(await actorOf(caller))).map(invitationDocument),
    ),
  );
  router.delete(
    '/company-invitations/:id',
    route(
      'companies.withdrawInvitation',
      async (req, caller) =>
        invitationDocument(await companies.withdrawInvitation(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
  router.post(
    '/company-invitations/:id/accept',
    route(
      'companies.acceptInvitation',
      async (req, caller) => view(companies.acceptInvitation(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
  router.post(
    '/company-invitations/:id/decline',
    route(
      'companies.declineInvitation',
      async (req, caller) =>
        invitationDocument(await companies.declineInvitation(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
}
