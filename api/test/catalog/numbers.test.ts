import { normalisePartNumber } from '@partsyard/common';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../src/db/database';
import type { CatalogService } from '../../src/catalog/catalogService';
import { setReplacement } from '../../src/catalog/supersession';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';
import { addNumber, insertPart, uniqueCode } from './catalogSupport';

const oddInputs = [
  '22201-166-000',
  '22201 166 000',
  '22201166000',
  ' 5ta-w0045-00 ',
  'abc.def/ghi_jkl',
  'a\tb\u00a0c',
  'straße',
  'ÉCLAIR-é',
  'ǅ ǆ', // title-case and lower-case digraphs: not ASCII, kept as written
  'ı İ ﬁ',
  '１２３-ａｂｃ', // full-width digits and letters are other characters than 123abc
  'Ω-ω',
  '🏍️-x',
  '%_\\\'"',
  'e\u0301', // a combining accent is kept
  '---',
  '',
];

describe.each(databaseKinds)('part numbers and supersession on %s', (kind) => {
  let app: TestApp;
  let db: Db;
  let catalog: CatalogService;
  beforeAll(async () => {
    app = await startTestApp(kind);
    db = app.server.database.db;
    catalog = app.server.services.catalog;
  });
  afterAll(() => app?.close());

  describe('normalisation', () => {
    it('drops case and separators only, the same in TypeScript and in SQL', async () => {
      for (const input of oddInputs) {
        const [row] = await rowsOf<{ n: string }>(db, sql`select part_number_normalised(${input}) as n`);
        expect({ input, n: row.n }).toEqual({ input, n: normalisePartNumber(input) });
      }
      expect(normalisePartNumber('22201-166-000')).toBe('22201166000');
      expect(normalisePartNumber(' 5ta-w0045-00 ')).toBe('5TAW004500');
      expect(normalisePartNumber('straße')).toBe('STRAßE');
    });
  });

  describe('supersession', () => {
    it('follows a chain of replacements to the current part', async () => {
      const a = await insertPart(db, 'Old pads');
      const b = await insertPart(db, 'Newer pads');
      const c = await insertPart(db, 'Current pads');
      expect(await catalog.resolveCurrent(a.id)).toBe(a.id);
      await setReplacement(db, a.id, b.id);
      await setReplacement(db, b.id, c.id);
      expect(await catalog.resolveCurrent(a.id)).toBe(c.id);
      expect(await catalog.resolveCurrent(b.id)).toBe(c.id);
      expect(await catalog.resolveCurrent(c.id)).toBe(c.id);
    });

    it('refuses a replacement that would make a cycle, naming the parts', async () => {
      const a = await insertPart(db, 'Cycle A');
      const b = await insertPart(db, 'Cycle B');
      const c = await insertPart(db, 'Cycle C');
      await setReplacement(db, a.id, b.id);
      await setReplacement(db, b.id, c.id);
      await expect(setReplacement(db, c.id, a.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining(
          `${c.sku} (Cycle C) cannot be replaced by ${a.sku} (Cycle A): ${a.sku} (Cycle A) is replaced by ${b.sku} (Cycle B) is replaced by ${c.sku} (Cycle C)`,
        ),
      });
      await expect(setReplacement(db, a.id, a.id)).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await catalog.resolveCurrent(c.id)).toBe(c.id);
    });

    it('lets only admins set a replacement through the service', async () => {
      const a = await insertPart(db, 'Rights A');
      const b = await insertPart(db, 'Rights B');
      await expect(catalog.setReplacement(null, a.id, b.id)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      await expect(
        catalog.setReplacement({ userId: 'x', role: 'customer' } as never, a.id, b.id),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('partsByNumber', () => {
    it('finds the exact number first, however it is written, then numbers that start with it, saying why', async () => {
      const code = uniqueCode();
      const exact = await insertPart(db, 'Exact pads');
      const longer = await insertPart(db, 'Longer pads');
      await addNumber(db, exact.id, 'oem', `22${code}-166-000`, 'Honda');
      await addNumber(db, longer.id, 'interchange', `22${code}166000-X`, 'EBC');
      const hits = await catalog.partsByNumber(`22${code.toLowerCase()} 166 000`);
      expect(hits.map((h) => [h.part.name, h.match, h.reason])).toEqual([
        ['Exact pads', 'exact', `Honda OEM number 22${code}-166-000`],
        ['Longer pads', 'prefix', `EBC Interchange number 22${code}166000-X (starts with what you typed)`],
      ]);
    });

    it('finds a part by our SKU', async () => {
      const part = await insertPart(db, 'SKU part', { sku: `PY-T${uniqueCode()}` });
      const hits = await catalog.partsByNumber(part.sku.toLowerCase().replace('-', ' '));
      expect(hits[0]).toMatchObject({ match: 'exact', reason: `Our SKU ${part.sku}` });
      expect(hits[0].part.id).toBe(part.id);
    });

    it("finds the current part by a replaced part's number, and says it was replaced", async () => {
      const code = uniqueCode();
      const old = await insertPart(db, 'Old clutch');
      const current = await insertPart(db, 'New clutch');
      await addNumber(db, old.id, 'oem', `OLD-${code}`);
      await setReplacement(db, old.id, current.id);
      const [hit] = await catalog.partsByNumber(`old${code}`);
      expect(hit.part.id).toBe(current.id);
      expect(hit.replaces?.id).toBe(old.id);
      expect(hit.reason).toBe(
        `OEM number OLD-${code}, of ${old.sku} (Old clutch): replaced by ${current.sku} (New clutch)`,
      );
    });

    it('treats % and _ as themselves, never as wildcards', async () => {
      const code = uniqueCode();
      const part = await insertPart(db, 'Percent part');
      await addNumber(db, part.id, 'manufacturer', `${code}%X`);
      expect(await catalog.partsByNumber(`${code}`)).toHaveLength(1);
      expect(await catalog.partsByNumber(`${code}%`)).toHaveLength(1);
      expect(await catalog.partsByNumber(`${code.slice(0, 3)}%`)).toHaveLength(0);
      expect(await catalog.partsByNumber('%')).toHaveLength(0);
    });

    it.each([
      ['empty text', '', 'Enter a part number'],
      ['spaces', '   ', 'Enter a part number'],
      ['10 kB', 'x'.repeat(10_000), 'A part number is at most 100 characters'],
      ['a NUL', 'ab\u0000cd', 'A part number cannot hold control characters'],
      ['separators alone', '- / _ .', 'Enter a part number with letters or digits, not only separators'],
    ])('answers %s with a clear message', async (_, input, message) => {
      await expect(catalog.partsByNumber(input)).rejects.toMatchObject({
        code: 'BAD_USER_INPUT',
        fields: { number: message },
      });
    });

    it.each(["' or 1=1 --", '"; drop table parts; --', '🏍️', 'ǅ', '%_', '\\', 'é\u0301'])(
      'answers %j with results or none, never an error',
      async (input) => {
        await expect(catalog.partsByNumber(input)).resolves.toEqual(expect.any(Array));
      },
    );
  });
});
