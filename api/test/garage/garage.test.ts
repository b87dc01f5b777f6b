import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { garageMerges, garageVehicles } from '../../src/garage/garageSchema';
import {
  bikeGoneMessage,
  garageFullMessage,
  maxGarageBikes,
  mergeIdMessage,
  notInGarageMessage,
  tooManyToMergeMessage,
  type GarageView,
} from '../../src/garage/garageService';
import type { Actor } from '../../src/services/actor';
import { uniqueCode } from '../catalog/catalogSupport';
import { expectBadInput, expectNotFound, expectUnauthenticated } from '../graphql/helpers';
import { actorOf, expectAppError, signUp } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * My garage (issue 33 point 3): a signed-in customer's bikes, each once, at most 20, one current or none; merged
 * from the browser at sign-in as the cart is (once per merge id, bounded, bikes the catalog lost dropped with a
 * note); the caller's own alone, through the service, GraphQL and the REST shim alike.
 */

const garageFields =
  'bikes { current addedAt vehicle { id name year variant make { name } model { name } } } current { id name }';

interface GarageData {
  bikes: { current: boolean; addedAt: string; vehicle: { id: string; name: string } }[];
  current: { id: string; name: string } | null;
}

interface RestGarage {
  bikes: { _id: string; name: string; make: string; model: string; year: number; variant: string; current: boolean }[];
  currentId: string | null;
}

describe.each(databaseKinds)('my garage (%s)', (kind) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(() => app?.close());

  const garage = () => app.server.services.garage;
  const db = () => app.server.database.db;
  const newCustomer = async (): Promise<{ user: TestUser; actor: Actor }> => {
    const user = await signUp(app);
    return { user, actor: await actorOf(app, user) };
  };
  /** A make of its own with a model (CRF450R) and `years` of it: "2019 Honda CRF450R" names them. */
  async function bikes(years: number[], variant = ''): Promise<{ id: string; name: string }[]> {
    const [make] = await db()
      .insert(makes)
      .values({ name: 'Honda', slug: `honda-${uniqueCode().toLowerCase()}` })
      .returning();
    const [model] = await db().insert(models).values({ makeId: make.id, name: 'CRF450R', slug: 'crf450r' }).returning();
    const rows = await db()
      .insert(vehicles)
      .values(years.map((year) => ({ modelId: model.id, year, variant })))
      .returning();
    return rows.map((v) => ({ id: v.id, name: `${v.year} Honda CRF450R${variant ? ` ${variant}` : ''}` }));
  }
  const years = (n: number) => Array.from({ length: n }, (_, i) => 1990 + i);
  const shape = (g: GarageView) => ({
    bikes: g.bikes.map((b) => [b.vehicle.name, b.current]),
    current: g.current?.name ?? null,
  });
  const rowsOf = (userId: string) => db().select().from(garageVehicles).where(eq(garageVehicles.userId, userId));

  describe('the service', () => {
    it('adds bikes in order, each once; one is current at a time, or none', async () => {
      const { actor } = await newCustomer();
      const [b2018, b2019, b2020] = await bikes([2018, 2019, 2020]);
      expect(shape(await garage().myGarage(actor))).toEqual({ bikes: [], current: null });
      await garage().addToGarage(actor, b2018.id);
      const added = await garage().addToGarage(actor, b2019.id, true);
      expect(added.added).toBe(true);
      expect(shape(added.garage)).toEqual({
        bikes: [
          ['2018 Honda CRF450R', false],
          ['2019 Honda CRF450R', true],
        ],
        current: '2019 Honda CRF450R',
      });
      // Adding a bike already there changes nothing but, when asked, which one is current.
      const again = await garage().addToGarage(actor, b2018.id, true);
      expect(again.added).toBe(false);
      expect(shape(again.garage).current).toBe('2018 Honda CRF450R');
      await garage().addToGarage(actor, b2020.id);
      const current = await garage().setCurrentVehicle(actor, b2020.id);
      expect(current.bikes.filter((b) => b.current).map((b) => b.vehicle.name)).toEqual(['2020 Honda CRF450R']);
      expect(shape(await garage().setCurrentVehicle(actor, null))).toEqual({
        bikes: [
          ['2018 Honda CRF450R', false],
          ['2019 Honda CRF450R', false],
          ['2020 Honda CRF450R', false],
        ],
        current: null,
      });
    });

    it('removing the current bike leaves none current; a bike not there, or no such vehicle, is NOT_FOUND and changes nothing', async () => {
      const { actor } = await newCustomer();
      const [a, b] = await bikes([2018, 2019]);
      await garage().addToGarage(actor, a.id, true);
      expect(shape(await garage().removeFromGarage(actor, a.id))).toEqual({ bikes: [], current: null });
      const notThere = await expectAppError(garage().removeFromGarage(actor, b.id), 'NOT_FOUND');
      expect(notThere.message).toBe(notInGarageMessage);
      await expectAppError(garage().removeFromGarage(actor, 'not-an-id'), 'NOT_FOUND');
      await expectAppError(garage().addToGarage(actor, randomUUID()), 'NOT_FOUND');
      await expectAppError(garage().addToGarage(actor, "1' or '1'='1"), 'NOT_FOUND');
      // Making current a bike that is not in the garage keeps the current one.
      await garage().addToGarage(actor, b.id, true);
      await expectAppError(garage().setCurrentVehicle(actor, a.id), 'NOT_FOUND');
      await expectAppError(garage().setCurrentVehicle(actor, 'junk'), 'NOT_FOUND');
      expect(shape(await garage().myGarage(actor)).current).toBe('2019 Honda CRF450R');
    });

    it(`holds at most ${maxGarageBikes} bikes, also when adds race`, async () => {
      const { actor } = await newCustomer();
      const many = await bikes(years(maxGarageBikes + 5));
      for (const bike of many.slice(0, maxGarageBikes)) await garage().addToGarage(actor, bike.id);
      const full = await expectAppError(garage().addToGarage(actor, many[maxGarageBikes].id, true), 'BAD_USER_INPUT');
      expect(full.fields).toEqual({ vehicleId: garageFullMessage });
      expect((await garage().myGarage(actor)).bikes).toHaveLength(maxGarageBikes);
      expect((await garage().myGarage(actor)).current).toBeNull();
      // A bike already there can still be made current in a full garage.
      await garage().addToGarage(actor, many[0].id, true);

      const racer = (await newCustomer()).actor;
      const outcomes = await Promise.allSettled(many.map((bike) => garage().addToGarage(racer, bike.id)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(maxGarageBikes);
      expect(await rowsOf(racer.userId)).toHaveLength(maxGarageBikes);
    });

    it('one current bike even when two are made current at once', async () => {
      const { actor } = await newCustomer();
      const fleet = await bikes(years(6));
      for (const bike of fleet) await garage().addToGarage(actor, bike.id);
      await Promise.all(fleet.map((bike) => garage().setCurrentVehicle(actor, bike.id)));
      expect((await rowsOf(actor.userId)).filter((r) => r.current)).toHaveLength(1);
    });

    it('a vehicle taken out of the catalog leaves every garage; a deleted account takes its garage with it', async () => {
      const { user, actor } = await newCustomer();
      const [gone, kept] = await bikes([2018, 2019]);
      await garage().addToGarage(actor, kept.id);
      await garage().addToGarage(actor, gone.id, true);
      await db().delete(vehicles).where(eq(vehicles.id, gone.id));
      expect(shape(await garage().myGarage(actor))).toEqual({ bikes: [['2019 Honda CRF450R', false]], current: null });
      const admin = await actorOf(app, await signUp(app, { admin: true }));
      await app.server.services.users.deleteUser(admin, user.userId);
      expect(await rowsOf(user.userId)).toEqual([]);
    });
  });

  describe('merging a visitor’s garage at sign-in', () => {
    it('adds the visitor’s bikes not there yet, in their order; their current bike becomes the current one', async () => {
      const { actor } = await newCustomer();
      const [a, b, c] = await bikes([2018, 2019, 2020]);
      await garage().addToGarage(actor, a.id, true);
      const merged = await garage().mergeGarage(actor, [c.id, a.id, c.id], b.id);
      expect(merged.notes).toEqual([]);
      expect(merged.repeated).toBe(false);
      expect(shape(merged.garage)).toEqual({
        bikes: [
          ['2018 Honda CRF450R', false],
          ['2020 Honda CRF450R', false],
          ['2019 Honda CRF450R', true],
        ],
        current: '2019 Honda CRF450R',
      });
      // Without a current bike of the visitor's, the account's stays.
      const [d] = await bikes([2021]);
      expect(shape((await garage().mergeGarage(actor, [d.id])).garage).current).toBe('2019 Honda CRF450R');
    });

    it('drops bikes the catalog no longer has (or never had), with a note, and merges the rest', async () => {
      const { actor } = await newCustomer();
      const [a] = await bikes([2019]);
      const unknown = randomUUID();
      const merged = await garage().mergeGarage(actor, ['not-a-uuid', unknown, a.id], unknown);
      expect(merged.notes).toEqual([
        { vehicleId: 'not-a-uuid', message: bikeGoneMessage },
        { vehicleId: unknown, message: bikeGoneMessage },
      ]);
      expect(shape(merged.garage)).toEqual({ bikes: [['2019 Honda CRF450R', false]], current: null });
    });

    it(`is bounded: more than ${maxGarageBikes} bikes are refused whole; past the garage's room they are left out with a note`, async () => {
      const { actor } = await newCustomer();
      const fleet = await bikes(years(maxGarageBikes + 1));
      const tooMany = await expectAppError(
        garage().mergeGarage(
          actor,
          fleet.map((b) => b.id),
          null,
          randomUUID(),
        ),
        'BAD_USER_INPUT',
      );
      expect(tooMany.fields).toEqual({ vehicleIds: tooManyToMergeMessage });
      // The current bike counts too when the list lacks it.
      await expectAppError(
        garage().mergeGarage(
          actor,
          fleet.slice(0, maxGarageBikes).map((b) => b.id),
          fleet[maxGarageBikes].id,
        ),
        'BAD_USER_INPUT',
      );
      expect(await rowsOf(actor.userId)).toEqual([]);
      expect(await db().select().from(garageMerges).where(eq(garageMerges.userId, actor.userId))).toEqual([]);

      for (const bike of fleet.slice(0, maxGarageBikes - 2)) await garage().addToGarage(actor, bike.id);
      const rest = fleet.slice(maxGarageBikes - 2);
      const merged = await garage().mergeGarage(
        actor,
        rest.map((b) => b.id),
        rest[2].id,
      );
      expect(merged.garage.bikes).toHaveLength(maxGarageBikes);
      expect(merged.notes).toEqual([
        { vehicleId: rest[2].id, message: `${rest[2].name}: ${garageFullMessage}; left out` },
      ]);
      expect(merged.garage.current).toBeNull();
    });

    it('counts once per merge id: sent again it changes nothing (a bike removed since stays removed) and answers the same notes', async () => {
      const { actor } = await newCustomer();
      const [a, b] = await bikes([2018, 2019]);
      const mergeId = randomUUID();
      const unknown = randomUUID();
      const first = await garage().mergeGarage(actor, [a.id, b.id, unknown], b.id, mergeId);
      expect(first.repeated).toBe(false);
      await garage().removeFromGarage(actor, b.id);
      const again = await garage().mergeGarage(actor, [a.id, b.id, unknown], b.id, mergeId);
      expect(again.repeated).toBe(true);
      expect(again.notes).toEqual(first.notes);
      expect(shape(again.garage)).toEqual({ bikes: [['2018 Honda CRF450R', false]], current: null });
      // Two sent at once: one merges, the other waits for it and is its repeat.
      const racing = randomUUID();
      const [c] = await bikes([2020]);
      const both = await Promise.all([
        garage().mergeGarage(actor, [c.id], c.id, racing),
        garage().mergeGarage(actor, [c.id], c.id, racing),
      ]);
      expect(both.map((m) => m.repeated).sort()).toEqual([false, true]);
      // Without an id, merging the same garage twice ends where merging it once does.
      const once = shape((await garage().mergeGarage(actor, [a.id, c.id], a.id)).garage);
      expect(shape((await garage().mergeGarage(actor, [a.id, c.id], a.id)).garage)).toEqual(once);
      const badId = await expectAppError(garage().mergeGarage(actor, [a.id], null, 'twice'), 'BAD_USER_INPUT');
      expect(badId.fields).toEqual({ mergeId: mergeIdMessage });
    });
  });

  describe('through GraphQL', () => {
    it('answers the caller’s own garage with the bikes named; a visitor is asked to sign in; nothing is kept by a shared cache', async () => {
      const { user } = await newCustomer();
      const [bike] = await bikes([2019]);
      expectUnauthenticated(await app.gql(`{ myGarage { ${garageFields} } }`));
      expectUnauthenticated(
        await app.gql('mutation($id: ID!) { addToGarage(vehicleId: $id) { current { id } } }', { id: bike.id }),
      );
      const added = await app.gql<{ addToGarage: GarageData }>(
        `mutation($id: ID!) { addToGarage(vehicleId: $id, makeCurrent: true) { ${garageFields} } }`,
        { id: bike.id },
        user.token,
      );
      expect(added.errors).toBeUndefined();
      expect(added.data?.addToGarage.current).toEqual({ id: bike.id, name: '2019 Honda CRF450R' });
      expect(added.data?.addToGarage.bikes[0].addedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

      const asked = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({ query: `{ myGarage { ${garageFields} } }` }),
      });
      expect(asked.headers.get('cache-control')).toBe('no-store');
      expect(asked.headers.get('vary')).toMatch(/Authorization/i);
      const body = (await asked.json()) as { data: { myGarage: GarageData } };
      expect(body.data.myGarage.bikes.map((b) => [b.vehicle.name, b.current])).toEqual([['2019 Honda CRF450R', true]]);
    });

    it('another customer can neither read, change nor empty it', async () => {
      const owner = await newCustomer();
      const other = await newCustomer();
      const [bike] = await bikes([2019]);
      await garage().addToGarage(owner.actor, bike.id, true);
      const before = await rowsOf(owner.actor.userId);

      const theirs = await app.gql<{ myGarage: GarageData }>(`{ myGarage { ${garageFields} } }`, {}, other.user.token);
      expect(theirs.data?.myGarage).toEqual({ bikes: [], current: null });
      expectNotFound(
        await app.gql(
          'mutation($id: ID!) { removeFromGarage(vehicleId: $id) { current { id } } }',
          { id: bike.id },
          other.user.token,
        ),
      );
      expectNotFound(
        await app.gql(
          'mutation($id: ID) { setCurrentVehicle(vehicleId: $id) { current { id } } }',
          { id: bike.id },
          other.user.token,
        ),
      );
      // Clearing, adding and merging touch the caller's own garage only.
      await app.gql('mutation { setCurrentVehicle(vehicleId: null) { current { id } } }', {}, other.user.token);
      await app.gql(
        'mutation($ids: [ID!]!) { mergeGarage(vehicleIds: $ids) { repeated } }',
        { ids: [bike.id] },
        other.user.token,
      );
      expect(await rowsOf(owner.actor.userId)).toEqual(before);
      expect((await rowsOf(other.actor.userId)).map((r) => r.vehicleId)).toEqual([bike.id]);
    });

    it('refuses bad input with its field and changes nothing', async () => {
      const { user, actor } = await newCustomer();
      const fleet = await bikes(years(maxGarageBikes + 1));
      expectBadInput(
        await app.gql(
          'mutation($ids: [ID!]!) { mergeGarage(vehicleIds: $ids) { repeated } }',
          { ids: fleet.map((b) => b.id) },
          user.token,
        ),
        { vehicleIds: tooManyToMergeMessage },
      );
      expectBadInput(
        await app.gql(
          'mutation($ids: [ID!]!, $m: ID) { mergeGarage(vehicleIds: $ids, mergeId: $m) { repeated } }',
          { ids: [fleet[0].id], m: 'x' },
          user.token,
        ),
        { mergeId: mergeIdMessage },
      );
      expectNotFound(
        await app.gql(
          'mutation($id: ID!) { addToGarage(vehicleId: $id) { current { id } } }',
          { id: 'x'.repeat(5000) },
          user.token,
        ),
      );
      expect(await rowsOf(actor.userId)).toEqual([]);
    });
  });

  describe('through the REST shim', () => {
    it('GET, PUT, PUT current, DELETE and merge, in document shapes, never kept by a shared cache', async () => {
      const { user } = await newCustomer();
      const [a, b, c] = await bikes([2018, 2019, 2020], 'ABS');
      const call = <T>(method: string, path: string, body?: unknown) => app.rest<T>(method, path, body, user.token);

      expect((await app.rest('GET', '/garage')).status).toBe(401);
      const put = await call<{ acknowledged: boolean; upsertedCount: number; garage: RestGarage }>(
        'PUT',
        `/garage/${a.id}`,
        {
          current: true,
        },
      );
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        acknowledged: true,
        upsertedCount: 1,
        garage: {
          bikes: [
            {
              _id: a.id,
              name: '2018 Honda CRF450R ABS',
              make: 'Honda',
              model: 'CRF450R',
              year: 2018,
              variant: 'ABS',
              current: true,
              addedAt: expect.stringMatching(/^\d{4}-/) as string,
            },
          ],
          currentId: a.id,
        },
      });
      expect((await call<{ upsertedCount: number }>('PUT', `/garage/${a.id}`)).body.upsertedCount).toBe(0);
      await call('PUT', `/garage/${b.id}`);
      const current = await call<{ garage: RestGarage }>('PUT', '/garage/current', { vehicleId: b.id });
      expect(current.body.garage.currentId).toBe(b.id);
      expect(
        (await call<{ garage: RestGarage }>('PUT', '/garage/current', { vehicleId: null })).body.garage.currentId,
      ).toBeNull();
      const removed = await call<{ deletedCount: number; garage: RestGarage }>('DELETE', `/garage/${a.id}`);
      expect([removed.body.deletedCount, removed.body.garage.bikes.map((x) => x._id)]).toEqual([1, [b.id]]);
      expect((await call('DELETE', `/garage/${a.id}`)).status).toBe(404);
      const merged = await call<{ garage: RestGarage; notes: unknown[]; repeated: boolean }>('POST', '/garage/merge', {
        vehicleIds: [c.id, a.id],
        currentId: c.id,
        mergeId: randomUUID(),
      });
      expect(merged.body.garage.bikes.map((x) => x.name)).toEqual([
        '2019 Honda CRF450R ABS',
        '2020 Honda CRF450R ABS',
        '2018 Honda CRF450R ABS',
      ]);
      expect([merged.body.garage.currentId, merged.body.notes, merged.body.repeated]).toEqual([c.id, [], false]);

      const read = await fetch(`${app.url}/api/garage`, { headers: { authorization: `Bearer ${user.token}` } });
      expect(read.status).toBe(200);
      expect(read.headers.get('cache-control')).toBe('no-store');
      expect(read.headers.get('vary')).toMatch(/Authorization/i);
      expect(((await read.json()) as RestGarage).currentId).toBe(c.id);
    });

    it('answers bad input with 400 and its field, unknown vehicles with 404, and changes nothing', async () => {
      const { user, actor } = await newCustomer();
      const [a] = await bikes([2019]);
      const call = (method: string, path: string, body?: unknown) =>
        app.rest<{ message: string; errors?: Record<string, string> }>(method, path, body, user.token);
      const cases: [string, string, unknown, number, Record<string, string> | undefined][] = [
        ['PUT', `/garage/${a.id}`, { current: 'yes' }, 400, { current: 'current must be true or false' }],
        ['PUT', '/garage/current', { vehicleId: 42 }, 400, { vehicleId: 'vehicleId must be a vehicle id or null' }],
        [
          'POST',
          '/garage/merge',
          { vehicleIds: 'all' },
          400,
          { vehicleIds: 'vehicleIds must be a list of vehicle ids' },
        ],
        [
          'POST',
          '/garage/merge',
          { vehicleIds: [{}] },
          400,
          { vehicleIds: 'vehicleIds must be a list of vehicle ids' },
        ],
        ['POST', '/garage/merge', { vehicleIds: [], mergeId: 7 }, 400, { mergeId: 'mergeId must be a UUID or null' }],
        ['PUT', `/garage/${randomUUID()}`, {}, 404, undefined],
        ['PUT', '/garage/%E0%A4%A', {}, 400, undefined],
        ['PUT', '/garage/current', { vehicleId: a.id }, 404, undefined],
      ];
      for (const [method, path, body, status, errors] of cases) {
        const answer = await call(method, path, body);
        expect({ path, status: answer.status, errors: answer.body.errors }).toEqual({ path, status, errors });
        expect(answer.body.message).toBeTruthy();
      }
      expect(await rowsOf(actor.userId)).toEqual([]);
    });
  });
});
