import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import type { TestApp, TestUser } from '../support/testApp';
import {
  expectRefusal,
  restAddPart,
  restPayOrder,
  restPlaceOrder,
  reviewKeys,
  sortedKeys,
  startRestApp,
  unknownId,
  uuidPattern,
  type Inserted,
  type ReviewDoc,
} from './restSupport';

describe.each(adapterDatabaseKinds)('REST reviews (/api/reviews) on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let buyer: TestUser;
  let browser: TestUser;

  beforeAll(async () => {
    app = await startRestApp(kind);
    admin = await app.signUp({ admin: true });
    buyer = await app.signUp({ name: 'Nadia Rahman' });
    browser = await app.signUp({ name: 'Window Shopper' });
  });
  afterAll(() => app?.close());

  const reviewIds = async () => (await app.rest<ReviewDoc[]>('GET', '/reviews')).body.map((r) => r._id).sort();

  /** A part the buyer has a paid order for. */
  const paidPart = async (name = 'Reviewed Part') => {
    const partId = await restAddPart(app, admin.token, { name, image: 'https://example.test/part.png' });
    await restPayOrder(app, buyer.token, await restPlaceOrder(app, buyer.token, partId));
    return partId;
  };

  describe('GET /api/reviews', () => {
    it('is public and answers an array (empty before any review)', async () => {
      const result = await app.rest<ReviewDoc[]>('GET', '/reviews');
      expect(result.status).toBe(200);
      expect(result.body).toEqual([]);
    });

    it("answers review documents with _id and spec §3's fields, the reviewer's profile and the part", async () => {
      const partId = await paidPart('Rear Shock');
      const posted = await app.rest<Inserted>('POST', '/reviews', { partId, text: 'Rides like new.' }, buyer.token);
      const result = await app.rest<ReviewDoc[]>('GET', '/reviews');
      expect(result.status).toBe(200);
      const review = result.body.find((r) => r._id === posted.body.insertedId);
      expect(review).toBeDefined();
      expect(sortedKeys(review as ReviewDoc)).toEqual(reviewKeys);
      expect(review).toEqual({
        _id: posted.body.insertedId,
        name: 'Nadia Rahman',
        email: buyer.email,
        avatar: expect.any(String),
        text: 'Rides like new.',
        partName: 'Rear Shock',
        partImage: 'https://example.test/part.png',
        partId,
      });
    });
  });

  describe('POST /api/reviews', () => {
    it("lets a buyer of a paid order review the part: {acknowledged, insertedId}; name and email are the buyer's own", async () => {
      const partId = await paidPart();
      const result = await app.rest<Inserted>(
        'POST',
        '/reviews',
        { partId, text: 'Solid part.', name: 'Someone Else', email: 'someone@else.test', partName: 'Fake' },
        buyer.token,
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, insertedId: expect.stringMatching(uuidPattern) });
      const review = (await app.rest<ReviewDoc[]>('GET', '/reviews')).body.find(
        (r) => r._id === result.body.insertedId,
      );
      expect(review).toMatchObject({ name: 'Nadia Rahman', email: buyer.email, partName: 'Reviewed Part', partId });
    });

    it('refuses a visitor with 401 and writes nothing', async () => {
      const partId = await paidPart();
      const before = await reviewIds();
      expectRefusal(await app.rest('POST', '/reviews', { partId, text: 'Anonymous praise' }), 401);
      expect(await reviewIds()).toEqual(before);
    });

    it('refuses a customer without a paid order for the part with 403 and writes nothing', async () => {
      const partId = await restAddPart(app, admin.token);
      await restPlaceOrder(app, browser.token, partId);
      const before = await reviewIds();
      expectRefusal(
        await app.rest('POST', '/reviews', { partId, text: 'Never paid for it' }, browser.token),
        403,
        'You can only add a review for paid orders.',
      );
      expect(await reviewIds()).toEqual(before);
    });

    it("refuses an empty review with 400 and spec §5's message, writing nothing", async () => {
      const partId = await paidPart();
      const before = await reviewIds();
      expectRefusal(await app.rest('POST', '/reviews', { partId, text: '   ' }, buyer.token), 400, {
        text: messages.reviewRequired,
      });
      expect(messages.reviewRequired).toBe("Review can't be empty");
      expect(await reviewIds()).toEqual(before);
    });

    it('answers 404 for an unknown part', async () => {
      expectRefusal(
        await app.rest('POST', '/reviews', { partId: unknownId, text: 'Ghost part' }, buyer.token),
        404,
        'Part not found',
      );
    });

    it('refuses a second review of the same part by the same customer with 409', async () => {
      const partId = await paidPart();
      expect((await app.rest('POST', '/reviews', { partId, text: 'First' }, buyer.token)).status).toBe(200);
      const before = await reviewIds();
      expectRefusal(await app.rest('POST', '/reviews', { partId, text: 'Second' }, buyer.token), 409);
      expect(await reviewIds()).toEqual(before);
    });
  });
});
