import { centsToDollars } from '@partsyard/common';
import type { Request, Response, Router } from 'express';
import type { PendingCaller } from '../http/caller';
import { invoiceNumber } from '../invoicing/invoicePdf';
import type { CompanyAccountView, InvoiceView } from '../invoicing/invoicingService';
import type { Services } from '../services';
import type { Actor } from '../services/actor';
import type { RouteOf } from './restRouter';
import { bodyOf, optionalInt, query } from './queryParams';

type ActorOf = (pending: PendingCaller) => Promise<Actor | null>;

const param = (req: Request, name: string) => String(req.params[name] ?? '');
const listArgs = (req: Request) => ({
  status: query(req, 'status'),
  offset: optionalInt(query(req, 'offset'), 'offset'),
  limit: optionalInt(query(req, 'limit'), 'limit'),
});

export const accountDocument = (a: CompanyAccountView | null) =>
  a && {
    companyId: a.companyId,
    termsDays: a.termsDays,
    creditLimit: centsToDollars(a.creditLimitCents),
    owed: centsToDollars(a.owedCents),
    available: centsToDollars(a.availableCents),
    overdueInvoices: a.overdueInvoices,
  };

export const invoiceDocument = (v: InvoiceView) => ({
  _id: v.invoice.id,
  number: v.invoice.number,
  reference: invoiceNumber(v.invoice.number),
  companyId: v.invoice.companyId,
  companyName: v.invoice.companyName,
  companyTaxId: v.invoice.companyTaxId,
  buyerName: v.invoice.buyerName,
  buyerEmail: v.invoice.buyerEmail,
  termsDays: v.invoice.termsDays,
  issuedAt: v.invoice.issuedAt.toISOString(),
  dueAt: v.invoice.dueAt.toISOString(),
  total: centsToDollars(v.invoice.totalCents),
  paid: centsToDollars(v.invoice.paidCents),
  outstanding: centsToDollars(v.invoice.totalCents - v.invoice.paidCents),
  status: v.status,
  pdfUrl: `/api/invoices/${v.invoice.id}.pdf`,
  ...(v.lines
    ? {
        lines: v.lines.map((l) => ({
          orderId: l.orderId,
          partName: l.partName,
          sku: l.sku,
          amount: l.orderAmount,
          unitPrice: centsToDollars(l.unitPriceCents),
          listUnitPrice: centsToDollars(l.listUnitPriceCents),
          breakMinUnits: l.breakMinUnits,
          total: centsToDollars(l.totalCents),
        })),
      }
    : {}),
  ...(v.payments
    ? {
        payments: v.payments.map((p) => ({
          _id: p.id,
          amount: centsToDollars(p.amountCents),
          receivedOn: p.receivedOn,
          note: p.note,
          createdAt: p.createdAt.toISOString(),
        })),
      }
    : {}),
});

/**
 * Pay on account under /api (issue 35 point 4; docs/api.md), through the same service as GraphQL: a company's
 * terms and invoices, paying an unpaid checkout on account, an invoice's PDF, payments recorded by admins. Every
 * answer is private (`Cache-Control: no-store`, varying by Authorization) and none changes what visitors read.
 */
export function addInvoiceRoutes(router: Router, route: RouteOf, services: Services, actorOf: ActorOf): void {
  const privately = { changesPublicAnswers: false };
  const noStore = (_req: Request, res: Response, next: () => void) => {
    res.setHeader('Cache-Control', 'no-store');
    res.vary('Authorization');
    next();
  };
  router.use('/invoices', noStore);
  router.use('/orders/:id/pay-on-account', noStore);
  const invoicing = services.invoicing;
  const page = async (answer: Promise<{ total: number; items: InvoiceView[] }>) => {
    const { total, items } = await answer;
    return { total, items: items.map(invoiceDocument) };
  };

  router.get(
    '/companies/:id/account',
    route('invoicing.companyAccount', async (req, caller) => ({
      account: accountDocument(await invoicing.companyAccount(await actorOf(caller), param(req, 'id'))),
    })),
  );
  router.put(
    '/companies/:id/terms',
    route(
      'invoicing.setTerms',
      async (req, caller) => {
        const { termsDays, creditLimit } = bodyOf(req);
        return {
          account: accountDocument(
            await invoicing.setCompanyTerms(await actorOf(caller), param(req, 'id'), { termsDays, creditLimit }),
          ),
        };
      },
      privately,
    ),
  );
  router.get(
    '/companies/:id/invoices',
    route('invoicing.companyInvoices', async (req, caller) =>
      page(invoicing.companyInvoices(await actorOf(caller), param(req, 'id'), listArgs(req))),
    ),
  );
  router.post(
    '/orders/:id/pay-on-account',
    route(
      'invoicing.payOnAccount',
      async (req, caller) => invoiceDocument(await invoicing.payOnAccount(await actorOf(caller), param(req, 'id'))),
      privately,
    ),
  );
  router.get(
    '/invoices',
    route('invoicing.allInvoices', async (req, caller) =>
      page(invoicing.allInvoices(await actorOf(caller), listArgs(req))),
    ),
  );
  // Before /invoices/:id, which would take "<id>.pdf" for an id.
  router.get(
    '/invoices/:id.pdf',
    route('invoicing.invoice', async (req, caller) => invoicing.invoicePdf(await actorOf(caller), param(req, 'id')), {
      send: (res, answer) => {
        const { filename, pdf } = answer as { filename: string; pdf: Buffer };
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
        res.send(pdf);
      },
    }),
  );
  router.get(
    '/invoices/:id',
    route('invoicing.invoice', async (req, caller) =>
      invoiceDocument(await invoicing.invoice(await actorOf(caller), param(req, 'id'))),
    ),
  );
  router.post(
    '/invoices/:id/payments',
    route(
      'invoicing.recordPayment',
      async (req, caller) => {
        const { amount, receivedOn, note } = bodyOf(req);
        return invoiceDocument(
          await invoicing.recordInvoicePayment(await actorOf(caller), param(req, 'id'), { amount, receivedOn, note }),
        );
      },
      privately,
    ),
  );
}
