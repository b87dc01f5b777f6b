import { centsToDollars } from '@partsyard/common';
import { invoiceNumber } from '../invoicing/invoicePdf';
import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** Pay on account's thin adapters (issue 35 point 4): each says which operation of api/src/invoicing does the work. */

const statusArg = (status: string | null | undefined) => status ?? undefined;

export const invoicingQueries: Pick<QueryResolvers, 'companyAccount' | 'invoice' | 'companyInvoices' | 'invoices'> = {
  companyAccount: (_, { companyId }, { services, actor }) => services.invoicing.companyAccount(actor, companyId),
  invoice: (_, { id }, { services, actor }) => services.invoicing.invoice(actor, id),
  companyInvoices: (_, { companyId, status, offset, limit }, { services, actor }) =>
    services.invoicing.companyInvoices(actor, companyId, { status: statusArg(status), offset, limit }),
  invoices: (_, { status, offset, limit }, { services, actor }) =>
    services.invoicing.allInvoices(actor, { status: statusArg(status), offset, limit }),
};

export const invoicingMutations: Pick<MutationResolvers, 'setCompanyTerms' | 'payOnAccount' | 'recordInvoicePayment'> =
  {
    setCompanyTerms: (_, { companyId, termsDays, creditLimit }, { services, actor }) =>
      services.invoicing.setCompanyTerms(actor, companyId, { termsDays: termsDays ?? null, creditLimit }),
    payOnAccount: (_, { orderId }, { services, actor }) => services.invoicing.payOnAccount(actor, orderId),
    recordInvoicePayment: (_, { invoiceId, input }, { services, actor }) =>
      services.invoicing.recordInvoicePayment(actor, invoiceId, input),
  };

export const invoicingTypes: Pick<
  Resolvers,
  'CompanyAccount' | 'Invoice' | 'InvoiceLine' | 'InvoicePayment' | 'InvoiceStatus'
> = {
  InvoiceStatus: { OPEN: 'open', OVERDUE: 'overdue', PAID: 'paid' },
  CompanyAccount: {
    creditLimit: (a) => centsToDollars(a.creditLimitCents),
    owed: (a) => centsToDollars(a.owedCents),
    available: (a) => centsToDollars(a.availableCents),
  },
  Invoice: {
    id: (v) => v.invoice.id,
    number: (v) => v.invoice.number,
    reference: (v) => invoiceNumber(v.invoice.number),
    companyId: (v) => v.invoice.companyId,
    companyName: (v) => v.invoice.companyName,
    companyTaxId: (v) => v.invoice.companyTaxId,
    buyerName: (v) => v.invoice.buyerName,
    buyerEmail: (v) => v.invoice.buyerEmail,
    termsDays: (v) => v.invoice.termsDays,
    issuedAt: (v) => v.invoice.issuedAt.toISOString(),
    dueAt: (v) => v.invoice.dueAt.toISOString(),
    total: (v) => centsToDollars(v.invoice.totalCents),
    paid: (v) => centsToDollars(v.invoice.paidCents),
    outstanding: (v) => centsToDollars(v.invoice.totalCents - v.invoice.paidCents),
    // An invoice read alone carries them; a list's items read theirs when asked.
    lines: (v, _, { services }) => v.lines ?? services.invoicing.linesOf(v.invoice.id),
    payments: (v, _, { services }) => v.payments ?? services.invoicing.paymentsOf(v.invoice.id),
    pdfUrl: (v) => `/api/invoices/${v.invoice.id}.pdf`,
  },
  InvoiceLine: {
    amount: (l) => l.orderAmount,
    unitPrice: (l) => centsToDollars(l.unitPriceCents),
    listUnitPrice: (l) => centsToDollars(l.listUnitPriceCents),
    total: (l) => centsToDollars(l.totalCents),
  },
  InvoicePayment: {
    amount: (p) => centsToDollars(p.amountCents),
    createdAt: (p) => p.createdAt.toISOString(),
  },
};
