import { quickOrderMessages } from '@partsyard/common';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { cartLines, parts } from '../../src/db/schema';
import { savedListLines, savedLists } from '../../src/ordering/savedListsSchema';
import { adapterDatabaseKinds } from '../support/env';
import { addPart } from '../support/fixtures';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';
import { noRateLimits } from './badInputSupport';

/**
 * Issue 34's bad input, in GraphQL and REST: 1,001 lines, none, a 10 kB number, odd Unicode, negative and huge
 * quantities, formula-looking cells, wrong shapes. Each gets a clear message (a whole-request refusal, or the line's
 * own problem), never a 5xx, and changes nothing: no cart line, no list, no stock.
 */
describe.each(adapterDatabaseKinds)('bad input to quick order, order again and saved lists (%s)', (kind) => {
  let app: TestApp;
  let customer: TestUser;
  let sku: string;
  let partId: string;
  let listId: string;

  beforeAll(async () => {
    app = await startTestApp(kind, { rateLimits: noRateLimits });
    const admin = await app.signUp({ admin: true });
    customer = await app.signUp();
    partId = await addPart(app, admin.token, { available: 50, minOrder: 1 });
    const [row] = await app.server.database.db.select().from(parts).where(eq(parts.id, partId));
    sku = row.sku;
    const created = await app.rest<{ _id: string }>('POST', '/lists', { name: 'Kit' }, customer.token);
    listId = created.body._id;
  });
  afterAll(() => app?.close());

  /** What bad input must never change: the customer's cart and lists, and the part's stock. */
  async function state() {
    const { db } = app.server.database;
    return JSON.stringify([
      await db.select().from(cartLines),
      await db.select().from(savedLists),
      await db.select().from(savedListLines),
      await db.select({ available: parts.available }).from(parts),
    ]);
  }

  const lines = (n: number) => Array.from({ length: n }, () => ({ number: sku, quantity: '1' }));
  const gqlCheck =
    'query($lines: [QuickOrderLineInput!]!) { quickOrderCheck(lines: $lines) { ready problemCount problemsCsv lines { line number problem { kind message } } } }';
  const gqlAdd =
    'mutation($lines: [QuickOrderLineInput!]!) { addQuickOrderToCart(lines: $lines) { added check { lines { problem { kind message } } } } }';

  it("GraphQL: no lines and 1,001 lines are refused whole; bad cells are their lines' problems; nothing changes", async () => {
    const before = await state();
    const none = await app.gql(gqlCheck, { lines: [] });
    expect(none.errors?.[0]).toMatchObject({
      message: quickOrderMessages.noLines,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const many = await app.gql(gqlAdd, { lines: lines(1001) }, customer.token);
    expect(many.errors?.[0]).toMatchObject({
      message: quickOrderMessages.tooManyLines(1001),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const cells = [
      { number: 'x'.repeat(10_000), quantity: '1' },
      { number: '\ud800\u202e\u0301🔧', quantity: '1' },
      { number: 'A\u0000B', quantity: '1' },
      { number: '=HYPERLINK("http://evil.example","click")', quantity: '@SUM(1)' },
      { number: sku, quantity: '-3' },
      { number: sku, quantity: '1e400' },
      { number: sku, quantity: '99999999999999999999999' },
      { number: sku, quantity: '2.5' },
    ];
    const checked = await app.gql<{
      quickOrderCheck: { problemsCsv: string; lines: { problem: { kind: string } | null }[] };
    }>(gqlCheck, { lines: cells });
    expect(checked.status).toBe(200);
    expect(checked.data?.quickOrderCheck.lines.map((l) => l.problem?.kind)).toEqual([
      'BAD_NUMBER',
      'UNKNOWN_NUMBER',
      'BAD_NUMBER',
      'BAD_QUANTITY',
      'BAD_QUANTITY',
      'BAD_QUANTITY',
      'BAD_QUANTITY',
      'BAD_QUANTITY',
    ]);
    // The error CSV keeps formula-looking cells as text: no cell starts with =, +, -, or @.
    const csv = checked.data?.quickOrderCheck.problemsCsv ?? '';
    for (const cell of csv.split(/\r\n/).flatMap((row) => row.split(','))) expect(cell).not.toMatch(/^"?[=+\-@]/);
    const added = await app.gql<{ addQuickOrderToCart: { added: boolean } }>(gqlAdd, { lines: cells }, customer.token);
    expect(added.data?.addQuickOrderToCart.added).toBe(false);
    // A quantity that is not text, or an Int beyond 32 bits, is the schema's refusal (400), never a 5xx.
    const wrongType = await app.gql(gqlCheck, { lines: [{ number: sku, quantity: 5 }] });
    expect(wrongType.status).toBeLessThan(500);
    const overflow = await app.gql(
      'mutation($id: ID!, $part: ID!) { setSavedListLine(id: $id, partId: $part, quantity: 99999999999) { id } }',
      { id: listId, part: partId },
      customer.token,
    );
    expect({ status: overflow.status < 500, refused: Boolean(overflow.errors?.length) }).toEqual({
      status: true,
      refused: true,
    });
    const longName = await app.gql(
      'mutation($name: String!) { createSavedList(name: $name) { id } }',
      { name: 'x'.repeat(10_000) },
      customer.token,
    );
    expect(longName.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await state()).toBe(before);
  });

  it('REST: wrong shapes, no lines, 1,001 lines and an oversized body get a 4xx with a message; nothing changes', async () => {
    const before = await state();
    const refused = async (method: string, path: string, body: unknown, status = 400) => {
      const result = await app.rest<{ message?: string }>(method, path, body, customer.token);
      expect({ path, body: String(JSON.stringify(body) ?? '').slice(0, 60), status: result.status }).toEqual({
        path,
        body: String(JSON.stringify(body) ?? '').slice(0, 60),
        status,
      });
      expect(typeof result.body?.message).toBe('string');
    };
    await refused('POST', '/quick-order/check', {});
    await refused('POST', '/quick-order/check', { lines: 'PY-1 4' });
    await refused('POST', '/quick-order/check', { lines: [] });
    await refused('POST', '/quick-order/check', { lines: lines(1001) });
    await refused('POST', '/quick-order/check', { lines: [null, 3] });
    await refused('POST', '/quick-order/check', { lines: [{ number: sku, quantity: '1', line: -4 }] });
    await refused('POST', '/quick-order/check', { text: 42 });
    await refused('POST', '/quick-order/check', { text: '', lines: [] });
    await refused('POST', '/quick-order/check', { text: '\n\n  \n' });
    await refused('POST', '/quick-order/cart', { lines: lines(1001) });
    await refused('POST', '/quick-order/check', { text: `${sku}\t1\n`.repeat(10_000) }, 413);
    await refused('POST', '/quick-order/problems.csv', { lines: [] });
    await refused('POST', '/orders/again', {});
    await refused('POST', '/orders/again', { orderId: { $ne: null } });
    await refused('POST', '/orders/again', { orderId: 'not-an-id' }, 404);
    await refused('POST', '/lists', { name: ['x'] });
    await refused('POST', '/lists', { name: '=cmd|x' + '\u0007' });
    await refused('PATCH', `/lists/${listId}`, { name: 'x'.repeat(10_000) });
    await refused('PUT', `/lists/${listId}/lines/${partId}`, { quantity: 'many' });
    await refused('PUT', `/lists/${listId}/lines/${partId}`, { quantity: -1 });
    await refused('PUT', `/lists/${listId}/lines/${partId}`, { quantity: 1e300 });
    await refused('PUT', `/lists/${listId}/lines/not-an-id`, { quantity: 1 }, 404);
    await refused('GET', '/lists/not-an-id', undefined, 404);
    await refused('POST', `/lists/${listId}/cart`, {});
    const notJson = await app.rest('POST', '/quick-order/check', '{"lines": [', customer.token, {
      'content-type': 'application/json',
    });
    expect(notJson.status).toBe(400);
    expect(await state()).toBe(before);
  });

  it('REST: a pasted text with a header, a BOM, Windows line ends and formula cells is read; its problems come back as CSV text', async () => {
    const text = `\ufeffPart number;Qty\r\n${sku};2\r\n=HYPERLINK("http://evil.example");+1\r\n-2;3\r\n`;
    const checked = await app.rest<{ lines: { line: number; problem: { kind: string } | null }[] }>(
      'POST',
      '/quick-order/check',
      { text },
    );
    expect(checked.status).toBe(200);
    expect(checked.body.lines.map((l) => [l.line, l.problem?.kind ?? null])).toEqual([
      [2, null],
      [3, 'unknown_number'],
      [4, 'unknown_number'],
    ]);
    const csv = await app.rest<string>('POST', '/quick-order/problems.csv', { text });
    expect(csv.status).toBe(200);
    expect(String(csv.body).split('\r\n').slice(0, 3)).toEqual([
      'line,number,quantity,problem',
      `3,"'=HYPERLINK(""http://evil.example"")",'+1,No part has this number`,
      "4,'-2,3,No part has this number",
    ]);
  });

  it('property: whatever lines are sent, the check and the add answer without a 5xx, and a refused add changes nothing', async () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(sku, sku.toLowerCase(), '=1+1', '-0', '1e9', ' 12 ', '0x10', 'NaN', '\u0000'),
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.array(fc.nat(), { maxLength: 2 }),
      fc.object({ maxDepth: 1 }),
    );
    const line = fc.record({ number: cell, quantity: cell, line: fc.oneof(fc.constant(undefined), cell) });
    const body = fc.oneof(fc.record({ lines: fc.array(line, { maxLength: 8 }) }), fc.record({ text: cell }));
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const check = await app.rest('POST', '/quick-order/check', sent);
        expect(check.status === 200 || check.status === 400).toBe(true);
        const before = await state();
        const add = await app.rest<{ added?: boolean }>('POST', '/quick-order/cart', sent, customer.token);
        expect(add.status === 200 || add.status === 400).toBe(true);
        if (add.status !== 200 || !add.body.added) expect(await state()).toBe(before);
        // What went in is taken out again, so the next run starts from the same cart.
        await app.server.database.db.delete(cartLines);
      }),
      { numRuns: kind === 'pglite' ? 60 : 30 },
    );
  });
});
