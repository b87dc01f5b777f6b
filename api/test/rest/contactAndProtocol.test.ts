import { messages } from '@partsyard/common';
import { adapterDatabaseKinds } from '../support/env';
import { partInput } from '../support/fixtures';
import type { TestApp, TestUser } from '../support/testApp';
import { expectRefusal, startRestApp, uuidPattern, type ContactDoc, type Inserted, type PartDoc } from './restSupport';

const contactInput = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Rahim',
  lastName: 'Uddin',
  phone: '01912345678',
  email: 'Rahim@Example.test',
  message: 'Do you ship to Rajshahi?',
  ...overrides,
});

describe.each(adapterDatabaseKinds)('REST contact messages and HTTP protocol errors on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    app = await startRestApp(kind);
    admin = await app.signUp({ admin: true });
    customer = await app.signUp();
  });
  afterAll(() => app?.close());

  const contactIds = async () =>
    (await app.rest<ContactDoc[]>('GET', '/contact', undefined, admin.token)).body.map((m) => m._id).sort();
  const partIds = async () => (await app.rest<PartDoc[]>('GET', '/parts')).body.map((p) => p._id).sort();

  describe('POST /api/contact', () => {
    it('takes a message from a visitor: {acknowledged, insertedId}', async () => {
      const result = await app.rest<Inserted>('POST', '/contact', contactInput());
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ acknowledged: true, insertedId: expect.stringMatching(uuidPattern) });
      expect(await contactIds()).toContain(result.body.insertedId);
    });

    it('refuses a message missing its fields with 400 and the shared messages, writing nothing', async () => {
      const before = await contactIds();
      expectRefusal(await app.rest('POST', '/contact', {}), 400, {
        firstName: messages.firstNameRequired,
        lastName: messages.lastNameRequired,
        email: messages.emailRequired,
        message: messages.messageRequired,
      });
      expectRefusal(await app.rest('POST', '/contact', contactInput({ email: 'nope' })), 400, {
        email: 'Provide a valid email',
      });
      expect(await contactIds()).toEqual(before);
    });
  });

  describe('GET /api/contact', () => {
    it('lets an admin read the messages, newest first, as documents with _id', async () => {
      const first = await app.rest<Inserted>('POST', '/contact', contactInput({ message: 'First question' }));
      const second = await app.rest<Inserted>('POST', '/contact', contactInput({ message: 'Second question' }));
      const result = await app.rest<ContactDoc[]>('GET', '/contact', undefined, admin.token);
      expect(result.status).toBe(200);
      const ids = result.body.map((m) => m._id);
      expect(ids.indexOf(second.body.insertedId)).toBeLessThan(ids.indexOf(first.body.insertedId));
      expect(result.body.find((m) => m._id === first.body.insertedId)).toEqual({
        _id: first.body.insertedId,
        firstName: 'Rahim',
        lastName: 'Uddin',
        phone: '01912345678',
        email: 'rahim@example.test',
        message: 'First question',
        createdAt: expect.any(String),
      });
    });

    it('refuses a customer with 403 and a visitor with 401', async () => {
      expectRefusal(await app.rest('GET', '/contact', undefined, customer.token), 403);
      expectRefusal(await app.rest('GET', '/contact'), 401);
    });
  });

  describe('protocol errors', () => {
    it('answers an unknown route with 404 {message}', async () => {
      expectRefusal(await app.rest('GET', '/no-such-thing'), 404, 'No route GET /api/no-such-thing');
      expectRefusal(await app.rest('POST', '/users', {}, admin.token), 404, 'No route POST /api/users');
    });

    it('answers a body that is not valid JSON with 400 {message} and writes nothing', async () => {
      const before = await partIds();
      expectRefusal(
        await app.rest('POST', '/parts', '{"name": "Broken', admin.token),
        400,
        'Request body is not valid JSON',
      );
      expectRefusal(await app.rest('POST', '/contact', '{not json'), 400, 'Request body is not valid JSON');
      expect(await partIds()).toEqual(before);
    });

    it('answers a body over 100kb with 413 {message} and writes nothing', async () => {
      const beforeParts = await partIds();
      const beforeMessages = await contactIds();
      const huge = 'x'.repeat(101 * 1024);
      expectRefusal(
        await app.rest('POST', '/parts', partInput({ description: huge }), admin.token),
        413,
        'Request body is too large',
      );
      expectRefusal(
        await app.rest('POST', '/contact', contactInput({ message: huge })),
        413,
        'Request body is too large',
      );
      expect(await partIds()).toEqual(beforeParts);
      expect(await contactIds()).toEqual(beforeMessages);
    });

    it('accepts a body just under the limit (the limit is 100kb, not less)', async () => {
      const result = await app.rest('POST', '/contact', contactInput({ message: 'y'.repeat(90 * 1024) }));
      // Under the size limit the request reaches validation, which bounds a message's length.
      expectRefusal(result, 400, { message: messages.tooLong(2000) });
    });
  });
});
