import { adapterDatabaseKinds } from '../support/env';
import { addPart, payOrder, placeOrder } from '../support/fixtures';
import type { TestUser } from '../support/testApp';
import {
  contactFields,
  dataOf,
  expectBadInput,
  expectConflict,
  expectForbidden,
  expectNotFound,
  expectUnauthenticated,
  isoDate,
  reviewFields,
  startHarness,
  tag,
  unknownId,
  type ContactMessageData,
  type Harness,
  type ReviewData,
} from './helpers';

// Starting an app and signing users up takes seconds; jest's 5 s default is too short.
jest.setTimeout(120_000);

const contactInput = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ana',
  lastName: 'Rider',
  phone: '01712345678',
  email: 'ana.rider@example.test',
  message: 'Do you ship brake pads to Sylhet?',
  ...overrides,
});

describe.each(adapterDatabaseKinds)('reviews and contact messages over GraphQL on %s', (kind) => {
  let h: Harness;
  let admin: TestUser;
  let customer: TestUser;
  let otherCustomer: TestUser;

  beforeAll(async () => {
    h = await startHarness(kind);
    admin = await h.signUp({ admin: true });
    customer = await h.signUp({ name: 'Reviewing Rider' });
    otherCustomer = await h.signUp({ name: 'Other Rider' });
  });
  afterAll(() => h?.app.close());

  const addReview = (input: Record<string, unknown>, token?: string) =>
    h.app.gql<{ addReview: ReviewData }>(
      `mutation($input: ReviewInput!) { addReview(input: $input) { ${reviewFields} } }`,
      { input },
      token,
    );
  const listReviews = (limit?: number, token?: string) =>
    h.app.gql<{ reviews: ReviewData[] }>(
      `query($limit: Int) { reviews(limit: $limit) { ${reviewFields} } }`,
      limit === undefined ? {} : { limit },
      token,
    );
  const send = (input: Record<string, unknown>, token?: string) =>
    h.app.gql<{ sendContactMessage: ContactMessageData }>(
      `mutation($input: ContactInput!) { sendContactMessage(input: $input) { ${contactFields} } }`,
      { input },
      token,
    );
  const messagesPage = (token?: string, variables: Record<string, unknown> = {}) =>
    h.app.gql<{ contactMessages: { items: ContactMessageData[]; total: number } }>(
      `query($offset: Int, $limit: Int) {
        contactMessages(offset: $offset, limit: $limit) { items { ${contactFields} } total }
      }`,
      variables,
      token,
    );

  /** A part `buyer` has a paid order for. */
  const paidPart = async (buyer: TestUser, name = `Brake Disc ${tag()}`) => {
    const partId = await addPart(h.app, admin.token, { name, image: '/images/parts/disc.svg' });
    const order = await placeOrder(h.app, buyer.token, partId);
    await payOrder(h.app, buyer.token, order.id);
    return partId;
  };

  describe('Mutation.addReview', () => {
    it('after a paid order the customer reviews the part, under their own name and email', async () => {
      const name = `Brake Disc ${tag()}`;
      const partId = await paidPart(customer, name);
      const review = dataOf(await addReview({ partId, text: '  Stops on a dime.  ' }, customer.token)).addReview;
      expect(review).toEqual({
        id: expect.any(String),
        name: 'Reviewing Rider',
        email: customer.email,
        avatar: '',
        text: 'Stops on a dime.',
        partId,
        partName: name,
        partImage: '/images/parts/disc.svg',
        createdAt: isoDate,
      });
      expect(dataOf(await listReviews(100)).reviews).toContainEqual(review);
    });

    it('refuses a customer without any order for the part: FORBIDDEN, 403, and adds nothing', async () => {
      const partId = await addPart(h.app, admin.token);
      const before = dataOf(await listReviews(100)).reviews.length;
      expectForbidden(await addReview({ partId, text: 'Never bought it' }, customer.token));
      expect(dataOf(await listReviews(100)).reviews.length).toBe(before);
    });

    it('refuses a customer whose order for the part is not paid: FORBIDDEN, 403', async () => {
      const partId = await addPart(h.app, admin.token);
      await placeOrder(h.app, customer.token, partId);
      expectForbidden(await addReview({ partId, text: 'Not paid yet' }, customer.token));
    });

    it("does not count another customer's paid order: FORBIDDEN, 403", async () => {
      const partId = await paidPart(otherCustomer);
      expectForbidden(await addReview({ partId, text: 'Borrowed a friend’s' }, customer.token));
    });

    it('lets a customer review a part once: a second review is a CONFLICT', async () => {
      const partId = await paidPart(customer);
      dataOf(await addReview({ partId, text: 'First impression' }, customer.token));
      expectConflict(await addReview({ partId, text: 'Second thoughts' }, customer.token));
      const texts = dataOf(await listReviews(100))
        .reviews.filter((r) => r.partId === partId)
        .map((r) => r.text);
      expect(texts).toEqual(['First impression']);
    });

    it("refuses an empty or blank review with the spec's message", async () => {
      const partId = await paidPart(customer);
      expectBadInput(await addReview({ partId, text: '' }, customer.token), { text: "Review can't be empty" });
      expectBadInput(await addReview({ partId, text: '   ' }, customer.token), { text: "Review can't be empty" });
    });

    it('answers NOT_FOUND for an unknown part', async () => {
      expectNotFound(await addReview({ partId: unknownId(), text: 'Which part?' }, customer.token));
    });

    it('is refused to a visitor (401), and adds nothing', async () => {
      const partId = await paidPart(otherCustomer);
      expectUnauthenticated(await addReview({ partId, text: 'Anonymous praise' }));
      expectUnauthenticated(await addReview({ partId, text: 'Anonymous praise' }, h.badTokens.expired(otherCustomer)));
      expect(dataOf(await listReviews(100)).reviews.map((r) => r.text)).not.toContain('Anonymous praise');
    });
  });

  describe('Query.reviews', () => {
    it('answers anyone the latest reviews, newest first', async () => {
      const first = dataOf(await addReview({ partId: await paidPart(customer), text: 'Older' }, customer.token));
      const second = dataOf(await addReview({ partId: await paidPart(customer), text: 'Newer' }, customer.token));
      for (const token of [undefined, otherCustomer.token, admin.token, h.badTokens.random]) {
        const latest = dataOf(await listReviews(2, token)).reviews;
        expect(latest.map((r) => r.id)).toEqual([second.addReview.id, first.addReview.id]);
      }
    });

    it('answers 20 at most by default', async () => {
      expect(dataOf(await listReviews()).reviews.length).toBeLessThanOrEqual(20);
    });

    it('refuses a limit above 100 or below 1', async () => {
      expectBadInput(await listReviews(101), { limit: 'Must be a whole number from 1 to 100' });
      expectBadInput(await listReviews(0), { limit: 'Must be a whole number from 1 to 100' });
    });
  });

  describe('Mutation.sendContactMessage', () => {
    it('takes a message from a visitor, keeping the email in lower case', async () => {
      const sent = dataOf(await send(contactInput({ email: 'Ana.Rider@Example.TEST' }))).sendContactMessage;
      expect(sent).toEqual({
        id: expect.any(String),
        firstName: 'Ana',
        lastName: 'Rider',
        phone: '01712345678',
        email: 'ana.rider@example.test',
        message: 'Do you ship brake pads to Sylhet?',
        createdAt: isoDate,
      });
    });

    it('takes a message from a signed-in customer too, and the phone is optional', async () => {
      const input = contactInput({ message: `No phone ${tag()}` });
      delete (input as { phone?: string }).phone;
      expect(dataOf(await send(input, customer.token)).sendContactMessage).toMatchObject({
        phone: '',
        message: input.message,
      });
    });

    it.each([
      ['an empty first name', { firstName: '' }, { firstName: 'First name is required' }],
      ['an empty last name', { lastName: ' ' }, { lastName: 'Last name is required' }],
      ['an empty email', { email: '' }, { email: 'Email is required' }],
      ['an email that is not one', { email: 'ana-at-example' }, { email: 'Provide a valid email' }],
      ['an empty message', { message: '' }, { message: 'Message is required' }],
      [
        'everything empty',
        { firstName: '', lastName: '', email: '', message: '' },
        {
          firstName: 'First name is required',
          lastName: 'Last name is required',
          email: 'Email is required',
          message: 'Message is required',
        },
      ],
    ])('refuses %s with its message, and keeps nothing', async (_case, overrides, fields) => {
      const before = dataOf(await messagesPage(admin.token)).contactMessages.total;
      expectBadInput(await send(contactInput(overrides)), fields);
      expect(dataOf(await messagesPage(admin.token)).contactMessages.total).toBe(before);
    });
  });

  describe('Query.contactMessages', () => {
    it('lets an admin read the messages, newest first, with the total', async () => {
      const older = dataOf(await send(contactInput({ message: `Older ${tag()}` }))).sendContactMessage;
      const newer = dataOf(await send(contactInput({ message: `Newer ${tag()}` }))).sendContactMessage;
      const page = dataOf(await messagesPage(admin.token, { limit: 200 })).contactMessages;
      expect(page.items.slice(0, 2)).toEqual([newer, older]);
      expect(page.total).toBe(page.items.length);
      const second = dataOf(await messagesPage(admin.token, { offset: 1, limit: 1 })).contactMessages;
      expect({ total: second.total, items: second.items }).toEqual({ total: page.total, items: [older] });
    });

    it('refuses a limit above 200', async () => {
      expectBadInput(await messagesPage(admin.token, { limit: 201 }), {
        limit: 'Must be a whole number from 1 to 200',
      });
    });

    it('is refused to a customer (403), to a visitor (401) and to a bad token (401)', async () => {
      expectForbidden(await messagesPage(customer.token));
      expectUnauthenticated(await messagesPage());
      expectUnauthenticated(await messagesPage(h.badTokens.random));
    });
  });
});
