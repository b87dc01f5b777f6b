/**
 * A small PDF writer (PDF 1.4): pages of text in the standard Helvetica fonts and straight lines, which is all an
 * invoice needs; no dependency. Coordinates are PDF points from the page's bottom left (A4: 595 x 842). Text is
 * written in WinAnsiEncoding: characters outside Latin-1 print as "?".
 */

export const a4 = { width: 595, height: 842 } as const;

type Font = 'regular' | 'bold';

/** Helvetica's advance widths (1/1000 em) of the characters figures are made of; others count as 556. */
const widths: Record<string, number> = {
  ' ': 278,
  '.': 278,
  ',': 278,
  ':': 278,
  '-': 333,
  '(': 333,
  ')': 333,
  '/': 278,
  '%': 889,
  '+': 584,
  I: 278,
  i: 222,
  l: 222,
  j: 222,
  t: 278,
  f: 278,
  r: 333,
  m: 833,
  w: 722,
  M: 833,
  W: 944,
};

/** About how wide `text` is at `size` points (exact for digits and the money signs). */
export function textWidth(text: string, size: number, font: Font = 'regular'): number {
  let units = 0;
  for (const ch of text) units += widths[ch] ?? 556;
  return (units * size * (font === 'bold' ? 1.05 : 1)) / 1000;
}

/** A string as a PDF literal: Latin-1 only, the delimiters escaped, control characters dropped. */
function literal(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63;
    if (code < 32 || code === 127) out += ' ';
    else if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (code > 255) out += '?';
    else if (code > 126) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `(${out})`;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

export class PdfPage {
  readonly ops: string[] = [];

  /** Writes `text` with its baseline at (x, y); `align: 'right'` ends it at x. */
  text(x: number, y: number, text: string, options: { size?: number; font?: Font; align?: 'left' | 'right' } = {}) {
    const size = options.size ?? 10;
    const font = options.font ?? 'regular';
    const left = options.align === 'right' ? x - textWidth(text, size, font) : x;
    this.ops.push(
      `BT /${font === 'bold' ? 'F2' : 'F1'} ${num(size)} Tf ${num(left)} ${num(y)} Td ${literal(text)} Tj ET`,
    );
    return this;
  }

  /** A straight line from (x1, y1) to (x2, y2). */
  line(x1: number, y1: number, x2: number, y2: number, width = 0.5) {
    this.ops.push(`${num(width)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`);
    return this;
  }
}

export class PdfDocument {
  private readonly pages: PdfPage[] = [];

  constructor(private readonly info: { title?: string } = {}) {}

  addPage(): PdfPage {
    const page = new PdfPage();
    this.pages.push(page);
    return page;
  }

  /** The file: header, objects, the cross-reference table with each object's byte offset, trailer, %%EOF. */
  toBuffer(): Buffer {
    if (!this.pages.length) this.addPage();
    const objects: string[] = [];
    // 1 catalog, 2 pages, 3 and 4 the fonts, 5 the info; then a page and its content per page.
    const pageIds = this.pages.map((_, i) => 6 + i * 2);
    objects.push('<< /Type /Catalog /Pages 2 0 R >>');
    objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
    objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
    objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
    objects.push(`<< /Producer (PartsYard) /Title ${literal(this.info.title ?? '')} >>`);
    this.pages.forEach((page, i) => {
      const content = page.ops.join('\n');
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${a4.width} ${a4.height}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`,
      );
      objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    });
    const chunks: Buffer[] = [];
    let offset = 0;
    const write = (text: string) => {
      const bytes = Buffer.from(text, 'latin1');
      chunks.push(bytes);
      offset += bytes.length;
    };
    // The binary comment line tells tools the file holds 8-bit data.
    write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(offset);
      write(`${i + 1} 0 obj\n${body}\nendobj\n`);
    });
    const xref = offset;
    write(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
    for (const at of offsets) write(`${String(at).padStart(10, '0')} 00000 n \n`);
    write(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
    return Buffer.concat(chunks);
  }
}
