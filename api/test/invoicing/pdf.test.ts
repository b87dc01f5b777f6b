import { PdfDocument } from '../../src/invoicing/pdf';
import { renderInvoicePdf } from '../../src/invoicing/invoicePdf';
import type { InvoiceLineRow, InvoiceRow } from '../../src/invoicing/invoicingSchema';
import { expectWellFormedPdf } from './pdfCheck';

describe('the PDF writer', () => {
  it('writes a well-formed file: header, xref offsets, trailer, %%EOF; text escaped, Latin-1 kept', () => {
    const doc = new PdfDocument({ title: 'T (1)' });
    doc.addPage().text(50, 800, 'Hello (world) \\ café ✓', { size: 12 }).line(50, 790, 545, 790);
    doc.addPage().text(545, 800, '$1,234.50', { align: 'right', font: 'bold' });
    const text = expectWellFormedPdf(doc.toBuffer());
    expect(text).toContain('(Hello \\(world\\) \\\\ caf\\351 ?) Tj');
    expect(text).toContain('/Count 2');
    expect(text).toContain('/BaseFont /Helvetica-Bold');
  });

  it('renders an invoice with the seller, the company, its tax id, the lines, breaks, totals and due date', () => {
    const invoice = {
      id: '00000000-0000-4000-8000-000000000001',
      number: 42,
      companyId: '00000000-0000-4000-8000-000000000002',
      buyerId: null,
      companyName: 'Moto Works (Dhaka)',
      companyTaxId: 'BIN 123-456',
      buyerName: 'Ana Rider',
      buyerEmail: 'ana@example.test',
      address: 'Road 5, Dhaka',
      payableKey: '00000000-0000-4000-8000-000000000003',
      termsDays: 30,
      issuedAt: new Date('2026-11-01T10:00:00Z'),
      dueAt: new Date('2026-12-01T10:00:00Z'),
      totalCents: 237500,
      paidCents: 50000,
      paidAt: null,
      remindedAt: null,
    } satisfies InvoiceRow;
    const lines: InvoiceLineRow[] = Array.from({ length: 60 }, (_, i) => ({
      id: `line-${i}`,
      invoiceId: invoice.id,
      position: i,
      orderId: null,
      partName: `Brake pads ${i}`,
      sku: `PY-${i}`,
      orderAmount: 100,
      unitPriceCents: 950,
      listUnitPriceCents: 1250,
      breakMinUnits: i % 3 === 1 ? 100 : null,
      companyPriced: i % 3 === 2,
      totalCents: 95000,
    }));
    const text = expectWellFormedPdf(
      renderInvoicePdf(invoice, lines, { name: 'PartsYard', address: '12 Lane, Dhaka', taxId: 'BIN 9' }),
    );
    for (const shown of [
      '(PartsYard) Tj',
      '(Tax id: BIN 9) Tj',
      '(Moto Works \\(Dhaka\\)) Tj',
      '(Tax id: BIN 123-456) Tj',
      '(INV-000042) Tj',
      '(2026-12-01) Tj',
      '(Net 30 days) Tj',
      '(Brake pads 59 \\(PY-59\\)) Tj',
      '(break 100+) Tj',
      '(list price) Tj',
      '(your price) Tj',
      '($9.50) Tj',
      '($950.00) Tj',
      '($2,375.00) Tj',
      '($500.00) Tj',
      '($1,875.00) Tj',
    ])
      expect(text).toContain(shown);
    // 60 lines do not fit one page.
    expect(Number(/\/Count (\d+)/.exec(text)?.[1])).toBeGreaterThan(1);
  });
});
