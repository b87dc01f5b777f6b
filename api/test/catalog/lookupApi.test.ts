import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';
import { setReplacement } from '../../src/catalog/supersession';
import { fitments } from '../../src/catalog/partLinksSchema';
import { makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { addNumber, insertPart, uniqueCode } from './catalogSupport';

interface Hit {
  reason: string;
  match: string;
  part: { id: string; sku: string; name: string };
  replaces: { id: string } | null;
}

describe.each(databaseKinds)('the catalog through GraphQL and REST on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(() => app?.close());

  it('looks a part up by a replaced number, in GraphQL and REST alike', async () => {
    const db = app.server.database.db;
    const code = uniqueCode();
    const old = await insertPart(db, 'Old brake pads');
    const current = await insertPart(db, 'New brake pads');
    await addNumber(db, old.id, 'oem', `06455-${code}-000`, 'Honda');
    await setReplacement(db, old.id, current.id);

    const gql = await app.gql<{ partsByNumber: Hit[] }>(
      'query($n: String!) { partsByNumber(number: $n) { reason match part { id sku name } replaces { id } } }',
      { n: `06455 ${code.toLowerCase()} 000` },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.partsByNumber).toEqual([
      {
        reason: `Honda OEM number 06455-${code}-000, of ${old.sku} (Old brake pads): replaced by ${current.sku} (New brake pads)`,
        match: 'EXACT',
        part: { id: current.id, sku: current.sku, name: 'New brake pads' },
        replaces: { id: old.id },
      },
    ]);

    const rest = await app.rest<{ part: { _id: string; sku: string }; reason: string }[]>(
      'GET',
      `/parts/by-number/${encodeURIComponent(`06455-${code}`)}`,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.map((h) => [h.part._id, h.part.sku])).toEqual([[current.id, current.sku]]);
    expect(rest.body[0].reason).toContain('(starts with what you typed)');
  });

  it('answers odd numbers with a clear 400, never a 5xx', async () => {
    const long = await app.rest<{ message: string; errors: Record<string, string> }>(
      'GET',
      `/parts/by-number/${'9'.repeat(10_000)}`,
    );
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ number: 'A part number is at most 100 characters' });
    const pct = await app.rest('GET', `/parts/by-number/${encodeURIComponent('%_\'"')}`);
    expect(pct.status).toBe(200);
    const gql = await app.gql('{ partsByNumber(number: "---") { reason } }');
    expect(gql.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('says whether a part fits a vehicle, lists its fitment, and walks make > model > vehicles', async () => {
    const db = app.server.database.db;
    const code = uniqueCode().toLowerCase();
    const [make] = await db
      .insert(makes)
      .values({ name: 'Honda', slug: `honda-${code}` })
      .returning();
    const [model] = await db.insert(models).values({ makeId: make.id, name: 'CRF450R', slug: 'crf450r' }).returning();
    const [bike, abs] = await db
      .insert(vehicles)
      .values([
        { modelId: model.id, year: 2019 },
        { modelId: model.id, year: 2019, variant: 'ABS' },
      ])
      .returning();
    const pads = await insertPart(db, 'Fitting pads');
    const other = await insertPart(db, 'Other pads');
    const universal = await insertPart(db, 'Grip tape', { universal: true });
    await db.insert(fitments).values([
      { vehicleId: bike.id, partId: pads.id, position: 'front' },
      { vehicleId: abs.id, partId: pads.id, position: 'front', note: 'with ABS only' },
    ]);
    const fits = async (partId: string, vehicleId: string) =>
      (
        await app.gql<{ part: { fits: { verdict: string; message: string } } }>(
          'query($p: ID!, $v: ID!) { part(id: $p) { fits(vehicleId: $v) { verdict message } } }',
          { p: partId, v: vehicleId },
        )
      ).data?.part.fits;
    expect(await fits(pads.id, bike.id)).toEqual({ verdict: 'FITS', message: 'Fits your 2019 Honda CRF450R' });
    expect(await fits(pads.id, abs.id)).toEqual({
      verdict: 'FITS_WITH_NOTE',
      message: 'Fits your 2019 Honda CRF450R ABS with a note: front: with ABS only',
    });
    expect(await fits(other.id, bike.id)).toEqual({
      verdict: 'DOES_NOT_FIT',
      message: 'Does not fit your 2019 Honda CRF450R',
    });
    expect((await fits(universal.id, bike.id))?.verdict).toBe('FITS');

    const list = await app.gql<{
      part: { fitment: { total: number; items: { note: string; vehicle: { name: string } }[] } };
    }>('query($p: ID!) { part(id: $p) { fitment(search: "abs") { total items { note vehicle { name } } } } }', {
      p: pads.id,
    });
    expect(list.data?.part.fitment).toEqual({
      total: 1,
      items: [{ note: 'with ABS only', vehicle: { name: '2019 Honda CRF450R ABS' } }],
    });

    const walk = await app.gql<{ models: { id: string; make: { id: string } }[]; vehicles: { name: string }[] }>(
      'query($m: ID!, $mo: ID!) { models(makeId: $m) { id make { id } } vehicles(modelId: $mo, year: 2019) { name } }',
      { m: make.id, mo: model.id },
    );
    expect(walk.data?.models).toEqual([{ id: model.id, make: { id: make.id } }]);
    expect(walk.data?.vehicles.map((v) => v.name)).toEqual(['2019 Honda CRF450R', '2019 Honda CRF450R ABS']);
  });
});
