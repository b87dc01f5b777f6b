import { eq, sql } from 'drizzle-orm';
import { makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { fitments, partNumbers } from '../../src/catalog/partLinksSchema';
import { parts } from '../../src/db/schema';
import { importJobs, importRows } from '../../src/imports/importSchema';
import { insertPart, uniqueCode } from '../catalog/catalogSupport';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

jest.setTimeout(120_000);

interface Job {
  id: string;
  status: string;
  rowsTotal: number;
  rowsRejected: number;
  inserted: number;
  updated: number;
  unchanged: number;
  error: string | null;
}

/**
 * Imports (issue 33 point 5) through the REST shim as the dashboard uses it: start, chunks, finish; the worker
 * run here (no timer in tests), then the job, its rejected rows and the catalog read back.
 */
describe.each(databaseKinds)('imports on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  const code = uniqueCode();
  const make = `Hondo ${code}`;
  const model = `CRF${code}`;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = await app.signUp({ admin: true });
  });
  afterAll(() => app?.close());

  const db = () => app.server.database.db;

  /** Imports `chunks` (the first with its header) as one file of `kind`, runs the worker, answers the job. */
  async function importFile(fileKind: string, chunks: string[]): Promise<Job> {
    const started = await app.rest<Job>(
      'POST',
      '/imports',
      { kind: fileKind, fileName: `${fileKind}.csv` },
      admin.token,
    );
    expect(started.status).toBe(200);
    for (const [part, chunk] of chunks.entries()) {
      const sent = await app.rest<Job>('PUT', `/imports/${started.body.id}/chunks/${part}`, chunk, admin.token, {
        'content-type': 'text/csv',
      });
      expect({ part, status: sent.status, body: sent.body }).toEqual({ part, status: 200, body: expect.anything() });
    }
    const finished = await app.rest<Job>('POST', `/imports/${started.body.id}/finish`, undefined, admin.token);
    expect(finished.body.status).toBe('queued');
    await app.server.imports.runOnce();
    return (await app.rest<Job>('GET', `/imports/${started.body.id}`, undefined, admin.token)).body;
  }

  const rejections = async (id: string) =>
    (
      await app.rest<{ items: { line: number; column: string; reason: string }[] }>(
        'GET',
        `/imports/${id}/rejections?limit=500`,
        undefined,
        admin.token,
      )
    ).body.items;

  it('loads vehicles, parts, numbers and fitment, rejecting each bad row with its line, column and reason', async () => {
    const vehiclesJob = await importFile('vehicles', [
      `Make,Model,Year,Variant\r\n${make},${model},2018-2020,\r\n${make},${model},2019,ABS\r\n`,
      `${make},${model},1492,\r\n${make},,2019,\r\n`,
    ]);
    expect(vehiclesJob).toMatchObject({ status: 'succeeded', rowsTotal: 4, rowsRejected: 2, inserted: 4 });
    expect(await rejections(vehiclesJob.id)).toEqual([
      {
        line: 4,
        column: 'year',
        value: '1492',
        reason: 'year must be a year from 1885 to 2100, or a range such as 2018-2020 (at most 60 years)',
      },
      { line: 5, column: 'model', value: '', reason: 'model is required' },
    ]);
    const [makeRow] = await db().select().from(makes).where(eq(makes.name, make));
    const [modelRow] = await db().select().from(models).where(eq(models.makeId, makeRow.id));
    const bikes = await db().select().from(vehicles).where(eq(vehicles.modelId, modelRow.id));
    expect(bikes.map((b) => `${b.year} ${b.variant}`).sort()).toEqual(['2018 ', '2019 ', '2019 ABS', '2020 ']);

    const partsJob = await importFile('parts', [
      'sku,name,description,price,min_order,pack_size,stock,brand,category,universal\n' +
        `IMP-${code}-1,Brake pads ${code},Sintered,12.50,10,2,100,EBC ${code},Brakes > Brake pads ${code},no\n` +
        `IMP-${code}-2,Chain ${code},,40,1,1,5,,Drive ${code},yes\n` +
        `IMP-${code}-3,Free ${code},,0,1,1,5,,,no\n`,
    ]);
    expect(partsJob).toMatchObject({ status: 'succeeded', rowsTotal: 3, rowsRejected: 1, inserted: 2 });
    expect((await rejections(partsJob.id))[0]).toMatchObject({ line: 4, column: 'price' });
    const [pads] = await db()
      .select()
      .from(parts)
      .where(eq(parts.sku, `IMP-${code}-1`));
    expect(pads).toMatchObject({ priceCents: 1250, minOrder: 10, packSize: 2, available: 100, universal: false });

    const numbersJob = await importFile('numbers', [
      `sku,kind,number,brand\nIMP-${code}-1,oem,06455-${code}-000,Hondo\nNOPE-${code},oem,1,\nIMP-${code}-1,colour,1,\n`,
    ]);
    expect(numbersJob).toMatchObject({ status: 'succeeded', rowsTotal: 3, rowsRejected: 2, inserted: 1 });
    expect(await rejections(numbersJob.id)).toEqual([
      { line: 3, column: 'sku', value: `NOPE-${code}`, reason: `No part has the SKU NOPE-${code}` },
      {
        line: 4,
        column: 'kind',
        value: 'colour',
        reason: 'kind must be one of manufacturer, oem, interchange, ean',
      },
    ]);
    const numbers = await db().select().from(partNumbers).where(eq(partNumbers.partId, pads.id));
    expect(numbers.map((n) => n.normalised)).toEqual([`06455${code}000`]);

    const fitmentFile =
      'sku,make,model,year,variant,position,quantity,note\n' +
      `IMP-${code}-1,${make},${model},2018-2020,,Front,2,\n` +
      `IMP-${code}-1,${make},${model},2019,ABS,Rear,1,with ABS only\n` +
      `IMP-${code}-2,${make},${model},2021,,,,\n` +
      `IMP-${code}-2,${make},Other${code},2019,,,,\n`;
    const fitmentJob = await importFile('fitment', [fitmentFile]);
    expect(fitmentJob).toMatchObject({ status: 'succeeded', rowsTotal: 4, rowsRejected: 2, inserted: 5 });
    expect((await rejections(fitmentJob.id)).map((r) => [r.line, r.column, r.reason])).toEqual([
      [4, 'model', `No vehicle 2021 ${make} ${model} in the catalog (import its vehicles first)`],
      [5, 'model', `No vehicle 2019 ${make} Other${code} in the catalog (import its vehicles first)`],
    ]);
    const padsFit = await db().select().from(fitments).where(eq(fitments.partId, pads.id));
    // 2018-2020 with no variant is every variant of those years (4 vehicles, front), and the ABS one at the rear.
    expect(padsFit.map((f) => `${f.position} ${f.quantity} ${f.note}`).sort()).toEqual([
      'front 2 ',
      'front 2 ',
      'front 2 ',
      'front 2 ',
      'rear 1 with ABS only',
    ]);
    // Each fitment carries its part's category (the trigger), as the catalog's reads expect.
    expect(new Set(padsFit.map((f) => f.categoryId))).toEqual(new Set([pads.categoryId]));
    // The import gave that category itself, and skipped the trigger in its own transaction only (migration 0022):
    // a fitment written after it, with no category or a wrong one, still takes its part's.
    expect(pads.categoryId).not.toBeNull();
    await db().insert(fitments).values({ vehicleId: bikes[0].id, partId: pads.id, position: 'left', categoryId: null });
    const [chainPart] = await db()
      .select()
      .from(parts)
      .where(eq(parts.sku, `IMP-${code}-2`));
    await db()
      .insert(fitments)
      .values({ vehicleId: bikes[0].id, partId: pads.id, position: 'right', categoryId: chainPart.categoryId });
    const written = await db()
      .select()
      .from(fitments)
      .where(sql`${fitments.partId} = ${pads.id} and ${fitments.position} in ('left', 'right')`);
    expect(written.map((f) => f.categoryId)).toEqual([pads.categoryId, pads.categoryId]);
    await db()
      .delete(fitments)
      .where(sql`${fitments.partId} = ${pads.id} and ${fitments.position} in ('left', 'right')`);

    // The same file again changes nothing; a changed row updates only what changed.
    const again = await importFile('fitment', [fitmentFile]);
    expect(again).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 5 });
    const changed = await importFile('fitment', [fitmentFile.replace('Rear,1,with ABS only', 'Rear,2,with ABS only')]);
    expect(changed).toMatchObject({ status: 'succeeded', inserted: 0, updated: 1, unchanged: 4 });
    // The staged rows are gone once a job ends.
    expect(await db().select().from(importRows).where(eq(importRows.jobId, changed.id))).toEqual([]);
  });

  it('refuses a supersession loop, naming its parts, and applies the rest', async () => {
    const c = uniqueCode();
    const [a, b, d] = await Promise.all(
      ['A', 'B', 'D'].map((n) => insertPart(db(), `Loop ${n} ${c}`, { sku: `LOOP-${c}-${n}` })),
    );
    const job = await importFile('supersessions', [
      `sku,replaced_by\n${a.sku},${b.sku}\n${b.sku},${a.sku}\n${d.sku},${a.sku}\n${d.sku},${d.sku}\n`,
    ]);
    expect(job).toMatchObject({ status: 'succeeded', rowsRejected: 3, updated: 1 });
    const rejected = await rejections(job.id);
    expect(rejected.map((r) => [r.line, r.column])).toEqual([
      [2, 'replaced_by'],
      [3, 'replaced_by'],
      [5, 'replaced_by'],
    ]);
    expect(rejected[0].reason).toMatch(
      new RegExp(`^This would make a loop of replacements: LOOP-${c}-[AB] is replaced by`),
    );
    expect(rejected[2].reason).toBe('A part cannot replace itself');
    const after = await db()
      .select()
      .from(parts)
      .where(sql`${parts.sku} like ${`LOOP-${c}-%`}`);
    expect(Object.fromEntries(after.map((p) => [p.sku, p.replacedById]))).toEqual({
      [a.sku]: null,
      [b.sku]: null,
      [d.sku]: a.id,
    });
  });

  it('refuses a file that is not CSV text, a bad header, or an empty file, with a clear message', async () => {
    const started = await app.rest<Job>('POST', '/imports', { kind: 'fitment' }, admin.token);
    const send = (body: string | Buffer, part = 0) =>
      fetch(`${app.url}/api/imports/${started.body.id}/chunks/${part}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/csv' },
        body,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { errors?: { file?: string } } }));
    expect((await send(Buffer.from('PK\u0003\u0004 workbook', 'latin1'))).body.errors?.file).toMatch(
      /^This is a spreadsheet workbook/,
    );
    expect((await send(Buffer.from([0x73, 0x6b, 0x75, 0x0a, 0xe9, 0x0a]))).body.errors?.file).toMatch(/not UTF-8 text/);
    expect((await send('sku,make,colour\n')).body.errors?.file).toBe(
      'Unknown column "colour". The columns of a fitment file are sku, make, model, year, variant, position, quantity, note.',
    );
    expect((await send('sku,make,year\n')).body.errors?.file).toMatch(/^The file has no column "model"/);
    expect((await send('')).body.errors?.file).toBe('The file is empty: its first row names the columns');
    expect((await send('sku,make,model,year\n', 1)).status).toBe(409);
    // Nothing was taken: the job still waits for its first chunk, and cannot be finished without rows.
    const finish = await app.rest<{ errors?: { file?: string } }>(
      'POST',
      `/imports/${started.body.id}/finish`,
      undefined,
      admin.token,
    );
    expect(finish.body.errors?.file).toBe('No file was received: send its chunks first');
  });

  it('a cancel stops a job before it applies anything; a job whose worker died is failed, the catalog as it was', async () => {
    const c = uniqueCode();
    const file = `sku,name,price\nCAN-${c}-1,Cancelled part,5\n`;
    const started = await app.rest<Job>('POST', '/imports', { kind: 'parts' }, admin.token);
    await app.rest('PUT', `/imports/${started.body.id}/chunks/0`, file, admin.token, { 'content-type': 'text/csv' });
    // A cancel that comes as the worker takes the job (finishing it asks the worker to run): found at its first step.
    await db().update(importJobs).set({ cancelRequested: true }).where(eq(importJobs.id, started.body.id));
    await app.rest('POST', `/imports/${started.body.id}/finish`, undefined, admin.token);
    await app.server.imports.runOnce();
    const cancelled = (await app.rest<Job>('GET', `/imports/${started.body.id}`, undefined, admin.token)).body;
    expect(cancelled.status).toBe('cancelled');
    expect(
      await db()
        .select()
        .from(parts)
        .where(eq(parts.sku, `CAN-${c}-1`)),
    ).toEqual([]);

    // A job "running" whose heartbeat stopped long ago (its process was killed) is failed with its reason.
    const [dead] = await db()
      .insert(importJobs)
      .values({ kind: 'parts', status: 'running', heartbeatAt: new Date(Date.now() - 3_600_000), rowsReceived: 1 })
      .returning();
    await app.server.imports.runOnce();
    const failed = (await app.rest<Job>('GET', `/imports/${dead.id}`, undefined, admin.token)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The server running this import stopped before it ended: nothing of it was applied',
    });
  });

  it('lists rejected rows as CSV with formula-looking cells kept as text', async () => {
    const job = await importFile('numbers', [`sku,kind,number\n=HYPERLINK("http://x"),oem,1\n`]);
    const res = await fetch(`${app.url}/api/imports/${job.id}/rejections.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe(
      'line,column,value,reason\r\n' +
        `2,sku,"'=HYPERLINK(""http://x"")","No part has the SKU =HYPERLINK(""http://x"")"\r\n`,
    );
  });
});
