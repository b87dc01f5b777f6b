import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import { partInput } from '../support/fixtures';
import type { TestApp, TestUser } from '../support/testApp';
import {
  expectRefusal,
  partKeys,
  restAddPart,
  restPart,
  restPayOrder,
  restPlaceOrder,
  sortedKeys,
  startRestApp,
  unknownId,
  uuidPattern,
  type Deleted,
  type Inserted,
  type OrderDoc,
  type PartDoc,
} from './restSupport';

describe.each(adapterDatabaseKinds)('REST parts (/api/parts, /api/part/{id}) on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    app = await startRestApp(kind);
    admin = await app.signUp({ admin: true });
    customer = await app.signUp();
  });
  afterAll(() => app?.close());

  const partIds = async () => (await app.rest<PartDoc[]>('GET', '/parts')).body.map((p) => p._id);

  describe('GET /api/parts', () => {
    it('is public and answers an array of part documents with _id and the fields of spec §3, newest first', async () => {
      const older = await restAddPart(app, admin.token, { name: 'Older Chain Kit' });
      const newer = await restAddPart(app, admin.token, { name: 'Newer Chain Kit', price: 19.99 });
      const result = await app.rest<PartDoc[]>('GET', '/parts');
      expect(result.status).toBe(200);
      expect(Array.isArray(result.body)).toBe(true);
      for (const part of result.body) {
        expect(sortedKeys(part)).toEqual(partKeys);
        expect(part._id).toMatch(uuidPattern);
      }
      const ids = result.body.map((p) => p._id);
      expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
      expect(result.body.find((p) => p._id === newer)).toEqual({
        _id: newer,
        name: 'Newer Chain Kit',
        description: 'Pads for twin-disc calipers.',
        image: '/images/parts/default.svg',
        price: 19.99,
        minOrder: 10,
        available: 100,
      });
    });

    it('refuses a limit that is not a whole number with 400 and per-field errors', async () => {
      expectRefusal(await app.rest('GET', '/parts?limit=many'), 400, { limit: messages.wholeNumber });
    });
  });

  describe('GET /api/parts/{id}', () => {
    it('is public and answers one part document', async () => {
      const id = await restAddPart(app, admin.token, { name: 'Clutch Lever', price: 7.25, minOrder: 5, available: 40 });
      const result = await app.rest<PartDoc>('GET', `/parts/${id}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        _id: id,
        name: 'Clutch Lever',
        description: 'Pads for twin-disc calipers.',
        image: '/images/parts/default.svg',
        price: 7.25,
        minOrder: 5,
        available: 40,
      });
    });

    it('answers 404 {message} for an unknown id and for an id that is not a UUID', async () => {
      expectRefusal(await app.rest('GET', `/parts/${unknownId}`), 404, 'Part not found');
      expectRefusal(await app.rest('GET', '/parts/not-an-id'), 404, 'Part not found');
    });
  });

  describe('POST /api/parts', () => {
    it('lets an admin add a part: {acknowledged, insertedId}, and the part reads back as sent', async () => {
      const input = partInput({
        name: 'Fork Seal Set',
        price: 23.4,
        image: 'https://example.test/fork-seal.png',
        minOrder: 2,
        available: 30,
        description: 'Oil seals for 41 mm forks.',
      });
      const result = await app.rest<Inserted>('POST', '/parts', input, admin.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, insertedId: expect.stringMatching(uuidPattern) });
      expect(await restPart(app, result.body.insertedId)).toEqual({ _id: result.body.insertedId, ...input });
    });

    it('refuses a visitor without a token with 401 {message} and writes nothing', async () => {
      const before = await partIds();
      expectRefusal(await app.rest('POST', '/parts', partInput({ name: 'Visitor Part' })), 401);
      expect(await partIds()).toEqual(before);
    });

    it('refuses a bad or forged token with 401 {message} and writes nothing', async () => {
      const before = await partIds();
      expectRefusal(await app.rest('POST', '/parts', partInput(), 'not.a.jwt'), 401);
      expect(await partIds()).toEqual(before);
    });

    it('refuses a customer with 403 {message} and writes nothing', async () => {
      const before = await partIds();
      expectRefusal(await app.rest('POST', '/parts', partInput({ name: 'Customer Part' }), customer.token), 403);
      expect(await partIds()).toEqual(before);
    });

    it("refuses an empty part with 400 and spec §5's message for every required field, writing nothing", async () => {
      const before = await partIds();
      expectRefusal(await app.rest('POST', '/parts', {}, admin.token), 400, {
        name: messages.partNameRequired,
        price: messages.priceRequired,
        minOrder: messages.minOrderRequired,
        available: messages.availableRequired,
        description: messages.descriptionRequired,
      });
      expect(messages.partNameRequired).toBe("The part's name is required");
      expect(messages.priceRequired).toBe('Price is required');
      expect(messages.minOrderRequired).toBe("Order can't be empty");
      expect(messages.availableRequired).toBe("Available amount can't be empty");
      expect(messages.descriptionRequired).toBe("Order can't be empty");
      expect(await partIds()).toEqual(before);
    });

    it('refuses out-of-range numbers and a non-http image with 400 and per-field messages, writing nothing', async () => {
      const before = await partIds();
      const result = await app.rest(
        'POST',
        '/parts',
        partInput({ price: -1, minOrder: 0, available: -5, image: 'ftp://example.test/x.png' }),
        admin.token,
      );
      expectRefusal(result, 400, {
        price: messages.priceNegative,
        minOrder: messages.minOrderTooSmall,
        available: messages.availableNegative,
        image: messages.imageUrlInvalid,
      });
      expect(await partIds()).toEqual(before);
    });
  });

  describe('DELETE /api/part/{id}', () => {
    it('lets an admin delete a part: {acknowledged, deletedCount: 1}, after which it is 404', async () => {
      const id = await restAddPart(app, admin.token, { name: 'Doomed Part' });
      const result = await app.rest<Deleted>('DELETE', `/part/${id}`, undefined, admin.token);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, deletedCount: 1 });
      expect((await app.rest('GET', `/parts/${id}`)).status).toBe(404);
      expect(await partIds()).not.toContain(id);
    });

    it("takes the part's unpaid orders with it and keeps its paid orders", async () => {
      const id = await restAddPart(app, admin.token, { name: 'Part With Orders' });
      const unpaid = await restPlaceOrder(app, customer.token, id);
      const paid = await restPlaceOrder(app, customer.token, id);
      await restPayOrder(app, customer.token, paid);
      expect((await app.rest('DELETE', `/part/${id}`, undefined, admin.token)).status).toBe(200);
      expect((await app.rest('GET', `/order/${unpaid}`, undefined, customer.token)).status).toBe(404);
      const kept = await app.rest<OrderDoc>('GET', `/order/${paid}`, undefined, customer.token);
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ paid: true, partName: 'Part With Orders' });
    });

    it('refuses a visitor with 401 and a customer with 403, and the part stays', async () => {
      const id = await restAddPart(app, admin.token, { name: 'Protected Part' });
      expectRefusal(await app.rest('DELETE', `/part/${id}`), 401);
      expectRefusal(await app.rest('DELETE', `/part/${id}`, undefined, customer.token), 403);
      expect((await restPart(app, id))._id).toBe(id);
    });

    it('answers 404 for an unknown part', async () => {
      expectRefusal(await app.rest('DELETE', `/part/${unknownId}`, undefined, admin.token), 404, 'Part not found');
      expectRefusal(await app.rest('DELETE', '/part/nope', undefined, admin.token), 404, 'Part not found');
    });
  });
});
