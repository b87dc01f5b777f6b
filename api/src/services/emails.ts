import { centsToDollars, escapeHtml, formatDollars } from '@partsyard/common';
import type { OutboxMessage } from './outbox';
import { day, invoiceNumber, type Seller } from '../invoicing/invoicePdf';
import type { InvoiceRow } from '../invoicing/invoicingSchema';

/**
 * Every email the shop sends, built here and nowhere else (issue 14): an HTML body and a plain-text body of the
 * same content, in the shop's colours, with no remote images or fonts (the brand is text; mail clients block
 * remote content and it would tell a tracker when the mail is read). Text from users (names, addresses, part
 * names, contact messages) is HTML-escaped in the HTML body. Each builder answers an OutboxMessage for
 * `enqueueEmail(tx, message)`, with a dedupe key so one change never queues its email twice.
 */

/** The subset of an order the emails show (an OrderRow fits). */
export interface EmailOrder {
  id: string;
  email: string;
  name: string;
  address: string;
  partName: string;
  orderAmount: number;
  unitPriceCents: number;
  totalCents: number;
  expiresAt: Date;
  /** The unit price is the buyer's company price (issue 35 point 3); missing: the list price. */
  companyPriced?: boolean;
  /** The checkout it was placed in (null alone): groups an approval's emails. */
  checkoutId?: string | null;
}

/** How a line priced by the buyer's company says so. */
export const companyPriceLabel = 'Your company price';

const brand = { primary: '#dc2626', ink: '#1e293b', muted: '#64748b', line: '#e2e8f0', paper: '#f8fafc' };

/** A header value on one line (a name or part name with a line break cannot add headers). */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

export const money = (cents: number) => formatDollars(centsToDollars(cents));

/** A time as every reader reads it the same way: `Thu, 26 Nov 2026 05:08 UTC`. */
export const utcTime = (at: Date) => `${at.toUTCString().slice(0, 22)} UTC`;

const shortId = (id: string) => id.slice(0, 8);

interface Section {
  /** Paragraphs of text (plain; escaped for HTML). */
  paragraphs: string[];
  /** A table of order lines, with the total, if any. */
  lines?: { orders: EmailOrder[]; totalCents: number };
  /** Label/value pairs under the text (transaction id, pay-by time). */
  facts?: [string, string][];
}

function linesText(lines: NonNullable<Section['lines']>): string {
  const rows = lines.orders.map(
    (o) =>
      `- ${oneLine(o.partName)}: ${o.orderAmount} x ${money(o.unitPriceCents)}${o.companyPriced ? ` (${companyPriceLabel})` : ''} = ${money(o.totalCents)} (order ${shortId(o.id)})`,
  );
  return [...rows, `Total: ${money(lines.totalCents)}`].join('\n');
}

function linesHtml(lines: NonNullable<Section['lines']>): string {
  const cell = `padding:8px;border-bottom:1px solid ${brand.line};`;
  const head = ['Part', 'Amount', 'Unit price', 'Line total']
    .map((h, i) => `<th scope="col" style="${cell}text-align:${i ? 'right' : 'left'};">${h}</th>`)
    .join('');
  const rows = lines.orders
    .map(
      (o) =>
        `<tr><td style="${cell}">${escapeHtml(o.partName)}<br><span style="color:${brand.muted};font-size:12px;">Order ${escapeHtml(shortId(o.id))}</span></td>` +
        `<td style="${cell}text-align:right;">${o.orderAmount}</td>` +
        `<td style="${cell}text-align:right;">${money(o.unitPriceCents)}${o.companyPriced ? `<br><span style="color:${brand.muted};font-size:12px;">${companyPriceLabel}</span>` : ''}</td>` +
        `<td style="${cell}text-align:right;">${money(o.totalCents)}</td></tr>`,
    )
    .join('');
  const total = `<tr><th scope="row" colspan="3" style="padding:8px;text-align:right;">Total</th><td style="padding:8px;text-align:right;font-weight:bold;">${money(lines.totalCents)}</td></tr>`;
  return `<table role="table" style="width:100%;border-collapse:collapse;font-size:14px;margin:16px 0;"><thead><tr>${head}</tr></thead><tbody>${rows}${total}</tbody></table>`;
}

/** The shop's layout around a message: the brand in text, the content, a footer. */
function render(heading: string, section: Section): { html: string; text: string } {
  const paragraphs = section.paragraphs
    .map((p) => `<p style="margin:0 0 12px;line-height:1.5;white-space:pre-line;">${escapeHtml(p)}</p>`)
    .join('');
  const facts = (section.facts ?? [])
    .map(
      ([label, value]) => `<p style="margin:0 0 6px;"><strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}</p>`,
    )
    .join('');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)}</title></head>` +
    `<body style="margin:0;padding:0;background:${brand.paper};color:${brand.ink};font-family:Arial,Helvetica,sans-serif;">` +
    `<div style="max-width:600px;margin:0 auto;padding:24px 16px;">` +
    `<div style="font-size:24px;font-weight:800;margin-bottom:16px;">Parts<span style="color:${brand.primary};">Yard</span></div>` +
    `<div style="background:#ffffff;border:1px solid ${brand.line};border-top:4px solid ${brand.primary};border-radius:8px;padding:24px;">` +
    `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(heading)}</h1>${paragraphs}` +
    `${section.lines ? linesHtml(section.lines) : ''}${facts}</div>` +
    `<p style="color:${brand.muted};font-size:12px;margin-top:16px;">PartsYard: motorcycle spare parts in bulk. You get this email because of an order or message you made in our shop.</p>` +
    `</div></body></html>`;
  const text = [
    'PartsYard',
    '',
    heading,
    '',
    ...section.paragraphs.flatMap((p) => [p, '']),
    ...(section.lines ? [linesText(section.lines), ''] : []),
    ...(section.facts ?? []).map(([label, value]) => `${label}: ${value}`),
    '',
    '-- ',
    'PartsYard: motorcycle spare parts in bulk. You get this email because of an order or message you made in our shop.',
  ].join('\n');
  return { html, text };
}

const sum = (orders: EmailOrder[]) => orders.reduce((total, o) => total + o.totalCents, 0);
const recipientOf = (orders: EmailOrder[]) => orders[0]?.email ?? '';
const greeting = (orders: EmailOrder[]) => `Hello ${oneLine(orders[0]?.name ?? '') || 'there'},`;

/**
 * Order placed: the lines, the total and the pay-by time (the unpaid order's expiry). Several orders placed
 * together (a checkout) make one email; `key` names that group (default: the single order's id).
 */
export function orderPlacedEmail(orders: EmailOrder[], key = orders.map((o) => o.id).join(',')): OutboxMessage {
  const payBy = new Date(Math.min(...orders.map((o) => o.expiresAt.getTime())));
  const many = orders.length > 1;
  const subject = many
    ? `Your PartsYard order of ${orders.length} parts: pay by ${utcTime(payBy)}`
    : `Your PartsYard order of ${oneLine(orders[0].partName)}: pay by ${utcTime(payBy)}`;
  return {
    kind: 'order_placed',
    to: recipientOf(orders),
    subject,
    dedupeKey: `order_placed:${key}`,
    ...render(many ? 'We have reserved your parts' : 'We have reserved your part', {
      paragraphs: [
        greeting(orders),
        `Thank you for your order. We hold the parts for you until ${utcTime(payBy)}: pay by then in your dashboard under My Orders, or the order expires and the parts go back on sale.`,
        ...(orders[0]?.address ? [`Delivery address: ${oneLine(orders[0].address)}`] : []),
      ],
      lines: { orders, totalCents: sum(orders) },
      facts: [['Pay by', utcTime(payBy)]],
    }),
  };
}

/**
 * Payment receipt: every order paid by one payment (one transaction id), with amounts, unit prices, line totals
 * and the total charged.
 */
export function receiptEmail(payment: { transactionId: string; orders: EmailOrder[]; paidAt?: Date }): OutboxMessage {
  const { transactionId, orders } = payment;
  const total = sum(orders);
  return {
    kind: 'payment_receipt',
    to: recipientOf(orders),
    subject: `PartsYard receipt: ${money(total)} paid`,
    dedupeKey: `payment_receipt:${transactionId}`,
    ...render('Payment receipt', {
      paragraphs: [greeting(orders), 'We have received your payment. We will ship your parts soon.'],
      lines: { orders, totalCents: total },
      facts: [
        ['Transaction id', transactionId],
        ['Paid', utcTime(payment.paidAt ?? new Date())],
        ['Total paid', money(total)],
      ],
    }),
  };
}

/**
 * A refund made at the gateway (Stripe's dashboard, say; issue 32): what came back of one payment, with its
 * orders. One email per gateway event (`eventId`): a second refund of the same payment is a second email.
 */
export function refundEmail(refund: {
  eventId: string;
  transactionId: string;
  orders: (EmailOrder & { refundedCents: number })[];
  totalCents: number;
}): OutboxMessage {
  const { orders, totalCents } = refund;
  const refunded = orders.reduce((total, o) => total + o.refundedCents, 0);
  const full = refunded >= totalCents;
  return {
    kind: 'payment_refunded',
    to: recipientOf(orders),
    subject: full
      ? `PartsYard: your payment of ${money(totalCents)} has been refunded`
      : `PartsYard: ${money(refunded)} of your payment has been refunded`,
    dedupeKey: `payment_refunded:${refund.eventId}`,
    ...render(full ? 'Your payment has been refunded' : 'Part of your payment has been refunded', {
      paragraphs: [
        greeting(orders),
        full
          ? `We have refunded your payment of ${money(totalCents)} in full.`
          : `We have refunded ${money(refunded)} of your payment of ${money(totalCents)}.`,
        'The money goes back to the card you paid with; your bank may take 5 to 10 working days to show it.',
      ],
      lines: { orders, totalCents },
      facts: [
        ['Transaction id', refund.transactionId],
        ['Refunded so far', money(refunded)],
      ],
    }),
  };
}

/** What a customer is told of a dispute (chargeback) of their payment, as it is opened and closed. */
const disputeNews = {
  open: {
    subject: 'PartsYard: your payment is disputed',
    heading: 'Your payment is disputed',
    text: 'Your bank has told us that the payment for these orders is disputed. We have answered the bank with the record of your order; the bank decides. If you did not mean to dispute it, tell your bank, and write to us through the contact form.',
  },
  won: {
    subject: 'PartsYard: the dispute of your payment is closed',
    heading: 'The dispute is closed',
    text: 'The dispute of the payment for these orders is closed: the bank decided that the payment stands.',
  },
  lost: {
    subject: 'PartsYard: the dispute of your payment is closed',
    heading: 'The dispute is closed',
    text: 'The dispute of the payment for these orders is closed: your bank has returned the payment to you.',
  },
} as const;

/** A dispute of one payment opened or closed (issue 32). One email per gateway event (`eventId`). */
export function disputeEmail(dispute: {
  eventId: string;
  transactionId: string;
  orders: EmailOrder[];
  status: keyof typeof disputeNews;
}): OutboxMessage {
  const news = disputeNews[dispute.status];
  return {
    kind: 'payment_disputed',
    to: recipientOf(dispute.orders),
    subject: news.subject,
    dedupeKey: `payment_disputed:${dispute.eventId}`,
    ...render(news.heading, {
      paragraphs: [greeting(dispute.orders), news.text],
      lines: { orders: dispute.orders, totalCents: sum(dispute.orders) },
      facts: [['Transaction id', dispute.transactionId]],
    }),
  };
}

/** Shipped: one order on its way. */
export function shippedEmail(order: EmailOrder): OutboxMessage {
  return {
    kind: 'order_shipped',
    to: order.email,
    subject: `Your PartsYard order of ${oneLine(order.partName)} has shipped`,
    dedupeKey: `order_shipped:${order.id}`,
    ...render('Your order is on its way', {
      paragraphs: [
        greeting([order]),
        `We have shipped ${order.orderAmount} x ${oneLine(order.partName)}.`,
        ...(order.address ? [`Delivery address: ${oneLine(order.address)}`] : []),
      ],
      lines: { orders: [order], totalCents: order.totalCents },
    }),
  };
}

/** Expired: the customer's unpaid orders (expired in one sweep) ran out of time; their parts went back on sale. */
export function expiredEmail(orders: EmailOrder[]): OutboxMessage {
  const many = orders.length > 1;
  return {
    kind: 'order_expired',
    to: recipientOf(orders),
    subject: many
      ? `${orders.length} of your PartsYard orders expired unpaid`
      : `Your PartsYard order of ${oneLine(orders[0].partName)} expired unpaid`,
    dedupeKey: `order_expired:${orders.map((o) => o.id).join(',')}`,
    ...render(many ? 'Your orders expired' : 'Your order expired', {
      paragraphs: [
        greeting(orders),
        `${many ? 'These orders were' : 'This order was'} not paid by ${utcTime(orders[0].expiresAt)}, so the parts went back on sale. You can place a new order at any time.`,
      ],
      lines: { orders, totalCents: sum(orders) },
    }),
  };
}

/**
 * The contact form's confirmation to the address the sender gave. Anyone can give any address, so it holds only
 * the shop's own words: no name, no message, nothing a sender wrote (the form must not carry a stranger's text to
 * someone's inbox under the shop's name).
 */
export function contactConfirmationEmail(message: { id: string; email: string; createdAt: Date }): OutboxMessage {
  return {
    kind: 'contact_confirmation',
    to: message.email,
    subject: 'We have received your message',
    dedupeKey: `contact_confirmation:${message.id}`,
    ...render('Thank you for your message', {
      paragraphs: [
        'Hello,',
        `We have received the message sent with this email address through the contact form of PartsYard on ${utcTime(message.createdAt)}, and we will answer it soon.`,
        'If you did not write to us, someone else gave your address: you need not do anything.',
      ],
      facts: [['Reference', shortId(message.id)]],
    }),
  };
}

/**
 * An invitation to join a company (issue 35). It names the company and who invited (both signed-in company
 * admins' own words, at most 200 characters each, on one line), and says that only an account signed in with
 * this address, verified, can take it; nothing else a sender wrote.
 */
export function companyInvitationEmail(invitation: {
  id: string;
  email: string;
  companyName: string;
  role: 'company_admin' | 'buyer';
  invitedByName: string;
  expiresAt: Date;
}): OutboxMessage {
  const as = invitation.role === 'company_admin' ? 'a company admin' : 'a buyer';
  return {
    kind: 'company_invitation',
    to: invitation.email,
    subject: `You are invited to buy for ${oneLine(invitation.companyName)} on PartsYard`,
    dedupeKey: `company_invitation:${invitation.id}`,
    ...render('An invitation to buy for a company', {
      paragraphs: [
        'Hello,',
        `${oneLine(invitation.invitedByName) || 'A company admin'} invites you to join ${oneLine(invitation.companyName)} on PartsYard as ${as}.`,
        'To accept, sign in to PartsYard with this email address (verified) and open My Company in your dashboard. The invitation is for this address only.',
        `It can be accepted until ${utcTime(invitation.expiresAt)}. If you did not expect it, you need not do anything.`,
      ],
      facts: [['Reference', shortId(invitation.id)]],
    }),
  };
}

/** The key of an order's group: its checkout's id, or its own for an order placed alone. */
const groupKey = (orders: EmailOrder[]) => orders[0]?.checkoutId ?? orders[0]?.id ?? '';

/**
 * To one company admin (issue 35 point 2): a buyer's checkout is above their limit and waits for an admin's
 * approval. Names the buyer (as their account is named) and the company, the lines and the decide-by time.
 */
export function approvalRequestEmail(request: {
  to: string;
  companyName: string;
  buyerName: string;
  buyerEmail: string;
  limitCents: number;
  orders: EmailOrder[];
}): OutboxMessage {
  const { orders } = request;
  const total = sum(orders);
  const by = new Date(Math.min(...orders.map((o) => o.expiresAt.getTime())));
  const buyer = oneLine(request.buyerName) || request.buyerEmail;
  return {
    kind: 'approval_requested',
    to: request.to,
    subject: `${buyer} asks you to approve an order of ${money(total)} for ${oneLine(request.companyName)}`,
    dedupeKey: `approval_requested:${groupKey(orders)}:${request.to}`,
    ...render('An order waits for your approval', {
      paragraphs: [
        'Hello,',
        `${buyer} (${request.buyerEmail}) placed an order of ${money(total)} for ${oneLine(request.companyName)}, above their limit of ${money(request.limitCents)} per order. Approve or decline it in your dashboard under My Company by ${utcTime(by)}: until then its parts are held, and then it expires.`,
      ],
      lines: { orders, totalCents: total },
      facts: [['Decide by', utcTime(by)]],
    }),
  };
}

/** To the buyer: their checkout above their limit is placed and waits for a company admin's approval. */
export function awaitingApprovalEmail(orders: EmailOrder[]): OutboxMessage {
  const by = new Date(Math.min(...orders.map((o) => o.expiresAt.getTime())));
  return {
    kind: 'order_awaiting_approval',
    to: recipientOf(orders),
    subject: `Your PartsYard order of ${money(sum(orders))} waits for your company's approval`,
    dedupeKey: `order_awaiting_approval:${groupKey(orders)}`,
    ...render('Your order waits for approval', {
      paragraphs: [
        greeting(orders),
        `This order is above your limit per order, so your company's admins have been asked to approve it. We hold the parts until ${utcTime(by)}. We will email you when it is approved (then you can pay for it) or declined.`,
      ],
      lines: { orders, totalCents: sum(orders) },
      facts: [['Decision by', utcTime(by)]],
    }),
  };
}

/** To the buyer: a company admin approved their order; it is now unpaid, to be paid by its new pay-by time. */
export function approvedEmail(orders: EmailOrder[]): OutboxMessage {
  const payBy = new Date(Math.min(...orders.map((o) => o.expiresAt.getTime())));
  return {
    kind: 'order_approved',
    to: recipientOf(orders),
    subject: `Your PartsYard order of ${money(sum(orders))} is approved: pay by ${utcTime(payBy)}`,
    dedupeKey: `order_approved:${groupKey(orders)}`,
    ...render('Your order is approved', {
      paragraphs: [
        greeting(orders),
        `Your company approved this order. We hold the parts until ${utcTime(payBy)}: pay by then in your dashboard under My Orders, or the order expires and the parts go back on sale.`,
      ],
      lines: { orders, totalCents: sum(orders) },
      facts: [['Pay by', utcTime(payBy)]],
    }),
  };
}

/** To the buyer: a company admin declined their order; its parts went back on sale. */
export function declinedEmail(orders: EmailOrder[]): OutboxMessage {
  return {
    kind: 'order_declined',
    to: recipientOf(orders),
    subject: `Your PartsYard order of ${money(sum(orders))} was declined by your company`,
    dedupeKey: `order_declined:${groupKey(orders)}`,
    ...render('Your order was declined', {
      paragraphs: [
        greeting(orders),
        'A company admin declined this order, so nothing will be charged and the parts went back on sale. Ask your company admin if you need the parts, or order less than your limit.',
      ],
      lines: { orders, totalCents: sum(orders) },
    }),
  };
}

/** To the buyer: their orders awaiting approval were not decided in time; their parts went back on sale. */
export function expiredUnapprovedEmail(orders: EmailOrder[]): OutboxMessage {
  return {
    kind: 'order_expired',
    to: recipientOf(orders),
    subject: `Your PartsYard order of ${money(sum(orders))} expired before your company approved it`,
    dedupeKey: `order_expired:${orders.map((o) => o.id).join(',')}`,
    ...render('Your order expired', {
      paragraphs: [
        greeting(orders),
        `Your company's admins did not approve this order by ${utcTime(orders[0].expiresAt)}, so nothing was charged and the parts went back on sale. You can place a new order at any time, or ask your company admin to raise your limit per order.`,
      ],
      lines: { orders, totalCents: sum(orders) },
    }),
  };
}

/**
 * An invoice issued for orders paid on account (issue 35 point 4): its number, total and due date, the PDF
 * attached. One per invoice and recipient (the buyer and the company's admins).
 */
export function invoiceEmail(issued: { invoice: InvoiceRow; to: string; seller: Seller; pdf: Buffer }): OutboxMessage {
  const { invoice, to } = issued;
  const number = invoiceNumber(invoice.number);
  return {
    kind: 'invoice_issued',
    to,
    subject: `Invoice ${number} from ${oneLine(issued.seller.name)}: ${money(invoice.totalCents)} due ${day(invoice.dueAt)}`,
    dedupeKey: `invoice_issued:${invoice.id}:${to.toLowerCase()}`,
    attachments: [
      { filename: `${number}.pdf`, contentType: 'application/pdf', contentBase64: issued.pdf.toString('base64') },
    ],
    ...render(`Invoice ${number}`, {
      paragraphs: [
        'Hello,',
        `${oneLine(invoice.buyerName) || 'A buyer'} ordered for ${oneLine(invoice.companyName)} on account. The invoice is attached as a PDF; it is also in your dashboard under My Company.`,
        `Please pay ${money(invoice.totalCents)} by ${day(invoice.dueAt)} (net ${invoice.termsDays} days), quoting ${number}. We ship the parts now.`,
      ],
      facts: [
        ['Invoice', number],
        ['Total', money(invoice.totalCents)],
        ['Due', day(invoice.dueAt)],
      ],
    }),
  };
}

/** The one reminder of an invoice past its due date: what is still owed, and that ordering on account stops. */
export function invoiceOverdueEmail(overdue: { invoice: InvoiceRow; to: string }): OutboxMessage {
  const { invoice, to } = overdue;
  const number = invoiceNumber(invoice.number);
  const owed = invoice.totalCents - invoice.paidCents;
  return {
    kind: 'invoice_overdue',
    to,
    subject: `Invoice ${number} is overdue: ${money(owed)} was due ${day(invoice.dueAt)}`,
    dedupeKey: `invoice_overdue:${invoice.id}:${to.toLowerCase()}`,
    ...render(`Invoice ${number} is overdue`, {
      paragraphs: [
        'Hello,',
        `${money(owed)} of invoice ${number} for ${oneLine(invoice.companyName)} was due on ${day(invoice.dueAt)} and has not reached us yet.`,
        'Until it is paid, your company cannot order on account (paying by card still works). If you have paid it already, thank you: it will show as paid once we record it.',
      ],
      facts: [
        ['Invoice', number],
        ['Outstanding', money(owed)],
        ['Was due', day(invoice.dueAt)],
      ],
    }),
  };
}
