import { catalogCountText, catalogSearchMessages, checkCatalogSearch } from '../src/catalogSearch';

describe("the catalog search box's rules", () => {
  it('reads any text as words, tidied', () => {
    expect(checkCatalogSearch('  Brake\u0000 Pads\t\u200b front  ')).toEqual({
      ok: true,
      text: 'Brake Pads front',
      words: ['brake', 'pads', 'front'],
    });
    expect(checkCatalogSearch('pads \ud800')).toEqual({ ok: true, text: 'pads \ufffd', words: ['pads', '\ufffd'] });
    expect(checkCatalogSearch('\u0000\u0001 \u00a0')).toEqual({ ok: true, text: '', words: [] });
    expect(checkCatalogSearch(undefined)).toEqual({ ok: true, text: '', words: [] });
    expect(checkCatalogSearch('%_\'"')).toEqual({ ok: true, text: '%_\'"', words: ['%_\'"'] });
  });

  it('refuses what is too long or has too many words, with a message', () => {
    expect(checkCatalogSearch('x'.repeat(10_000))).toEqual({ ok: false, error: catalogSearchMessages.tooLong });
    expect(checkCatalogSearch('x'.repeat(201))).toEqual({ ok: false, error: catalogSearchMessages.tooLong });
    expect(checkCatalogSearch('x'.repeat(200)).ok).toBe(true);
    expect(checkCatalogSearch('a b c d e f g h i j k')).toEqual({
      ok: false,
      error: catalogSearchMessages.tooManyWords,
    });
    expect(checkCatalogSearch({ toString: 'x' })).toEqual({ ok: false, error: catalogSearchMessages.empty });
  });

  it('shows counts with a plus when counting stopped', () => {
    expect([catalogCountText(42, false), catalogCountText(1000, true), catalogCountText(1234, false)]).toEqual([
      '42',
      '1,000+',
      '1,234',
    ]);
  });
});
