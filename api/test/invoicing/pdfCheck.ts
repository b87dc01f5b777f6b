/** Checks a PDF file as a reader would find its parts: header, objects at the xref's offsets, trailer, %%EOF. */
export function expectWellFormedPdf(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? [];
  expect(Number(first)).toBe(0);
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  expect(entries[0]).toBe('0000000000 65535 f ');
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const at = Number(entry.slice(0, 10));
    expect(text.slice(at, at + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  });
  expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R`));
  // Each content stream's /Length is its byte length.
  for (const match of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    expect(text.slice(start + Number(match[1]), start + Number(match[1]) + 10)).toBe('\nendstream');
  }
  return text;
}
