import { centsToDollars, formatDollars } from '@partsyard/common';
import { defaultSeller as configuredDefault } from '../config';
import { a4, PdfDocument, type PdfPage } from './pdf';
import type { InvoiceLineRow, InvoiceRow } from './invoicingSchema';

/** Who sells: the shop as its invoices name it (SHOP_NAME, SHOP_ADDRESS, SHOP_TAX_ID). */
export interface Seller {
  name: string;
  /** Lines of the postal address, separated by line breaks or commas. */
  address: string;
  taxId: string;
}

export const defaultSeller: Seller = configuredDefault;

/** INV-000042 */
export const invoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;
export const money = (cents: number) => formatDollars(centsToDollars(cents));
/** 2026-11-28 */
export const day = (at: Date) => at.toISOString().slice(0, 10);

/** Where a line's unit price came from: "your price" (the company's price list), "break 100+", or "list price". */
export const breakOf = (line: Pick<InvoiceLineRow, 'breakMinUnits' | 'companyPriced'>) =>
  line.companyPriced ? 'your price' : line.breakMinUnits ? `break ${line.breakMinUnits}+` : 'list price';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/**
 * The invoice as a PDF: the seller, the company and its tax number, the number, issue and due dates and terms,
 * every line (part, quantity, unit price with its break, line total), the total, what was paid and what is due.
 */
export function renderInvoicePdf(invoice: InvoiceRow, lines: InvoiceLineRow[], seller: Seller): Buffer {
  const doc = new PdfDocument({ title: `Invoice ${invoiceNumber(invoice.number)}` });
  const left = 50;
  const right = a4.width - 50;
  const columns = { part: left, quantity: 340, unit: 420, breaks: 428, total: right };
  let page: PdfPage = doc.addPage();
  let y = a4.height - 60;

  page.text(left, y, seller.name, { size: 18, font: 'bold' });
  page.text(right, y, 'INVOICE', { size: 18, font: 'bold', align: 'right' });
  y -= 18;
  for (const part of seller.address
    .split(/\r?\n|,\s*/)
    .filter(Boolean)
    .slice(0, 4)) {
    page.text(left, y, clip(part.trim(), 60), { size: 9 });
    y -= 12;
  }
  page.text(left, y, `Tax id: ${seller.taxId}`, { size: 9 });
  const facts: [string, string][] = [
    ['Invoice', invoiceNumber(invoice.number)],
    ['Issued', day(invoice.issuedAt)],
    ['Terms', `Net ${invoice.termsDays} days`],
    ['Due', day(invoice.dueAt)],
  ];
  let factY = a4.height - 78;
  for (const [label, value] of facts) {
    page.text(right - 90, factY, `${label}:`, { size: 9, font: 'bold', align: 'right' });
    page.text(right, factY, value, { size: 9, align: 'right' });
    factY -= 12;
  }
  y = Math.min(y, factY) - 24;

  page.text(left, y, 'Bill to', { size: 10, font: 'bold' });
  y -= 14;
  page.text(left, y, clip(invoice.companyName, 80), { size: 10 });
  y -= 12;
  page.text(left, y, `Tax id: ${invoice.companyTaxId}`, { size: 9 });
  y -= 12;
  page.text(left, y, clip(`Ordered by ${invoice.buyerName} <${invoice.buyerEmail}>`, 90), { size: 9 });
  y -= 12;
  if (invoice.address) {
    page.text(left, y, clip(`Deliver to: ${invoice.address.replace(/\s+/g, ' ')}`, 95), { size: 9 });
    y -= 12;
  }
  y -= 14;

  const header = () => {
    page.text(columns.part, y, 'Part', { size: 9, font: 'bold' });
    page.text(columns.quantity, y, 'Quantity', { size: 9, font: 'bold', align: 'right' });
    page.text(columns.unit, y, 'Unit price', { size: 9, font: 'bold', align: 'right' });
    page.text(columns.breaks, y, 'Break', { size: 9, font: 'bold' });
    page.text(columns.total, y, 'Line total', { size: 9, font: 'bold', align: 'right' });
    y -= 6;
    page.line(left, y, right, y);
    y -= 14;
  };
  header();
  for (const line of lines) {
    if (y < 120) {
      page = doc.addPage();
      y = a4.height - 60;
      header();
    }
    page.text(columns.part, y, clip(line.sku ? `${line.partName} (${line.sku})` : line.partName, 52), { size: 9 });
    page.text(columns.quantity, y, String(line.orderAmount), { size: 9, align: 'right' });
    page.text(columns.unit, y, money(line.unitPriceCents), { size: 9, align: 'right' });
    page.text(columns.breaks, y, breakOf(line), { size: 8 });
    page.text(columns.total, y, money(line.totalCents), { size: 9, align: 'right' });
    y -= 14;
  }
  page.line(left, y + 6, right, y + 6);
  y -= 10;
  const totals: [string, string, boolean][] = [
    ['Total', money(invoice.totalCents), true],
    ['Paid', money(invoice.paidCents), false],
    ['Amount due', money(invoice.totalCents - invoice.paidCents), true],
  ];
  for (const [label, value, bold] of totals) {
    page.text(columns.unit, y, label, { size: 10, font: bold ? 'bold' : 'regular', align: 'right' });
    page.text(columns.total, y, value, { size: 10, font: bold ? 'bold' : 'regular', align: 'right' });
    y -= 14;
  }
  y -= 16;
  page.text(
    left,
    y,
    `Please pay ${money(invoice.totalCents - invoice.paidCents)} by ${day(invoice.dueAt)}, quoting ${invoiceNumber(invoice.number)}.`,
    {
      size: 9,
    },
  );
  return doc.toBuffer();
}
