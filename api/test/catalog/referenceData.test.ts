import { referenceMessages } from '../../src/catalog/referenceData';
import { dataOf, expectBadInput, expectForbidden, expectNotFound, tag, unknownId } from '../graphql/helpers';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp, type TestUser } from '../support/testApp';

/**
 * Issue 33: what an admin needs to keep the catalog's reference data: brands and categories created and renamed,
 * a category moved in the tree (never into a loop), makes, models and vehicles created. Names another row holds
 * are refused, naming it.
 */
jest.setTimeout(120_000);

describe.each(databaseKinds)('the catalog reference data on %s', (kind) => {
  let app: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    app = await startTestApp(kind);
    [admin, customer] = await Promise.all([app.signUp({ admin: true }), app.signUp()]);
  });
  afterAll(() => app?.close());

  const gql = <T>(query: string, variables: Record<string, unknown>, token = admin.token) =>
    app.gql<T>(query, variables, token);
  const createCategory = async (name: string, parentId?: string) =>
    dataOf(
      await gql<{ createCategory: { id: string; name: string; slug: string; parent: { id: string } | null } }>(
        'mutation($name: String!, $parent: ID) { createCategory(name: $name, parentId: $parent) { id name slug parent { id } } }',
        { name, parent: parentId },
      ),
    ).createCategory;
  const move = (id: string, parentId: string | null) =>
    gql<{ updateCategory: { parent: { id: string } | null } }>(
      'mutation($id: ID!, $parent: ID) { updateCategory(id: $id, parentId: $parent) { parent { id } } }',
      { id, parent: parentId },
    );

  it('creates and renames brands; a name another brand holds, whatever its case, is refused', async () => {
    const name = `Brembo ${tag()}`;
    const created = dataOf(
      await gql<{ createBrand: { id: string; name: string; slug: string } }>(
        'mutation($name: String!) { createBrand(name: $name) { id name slug } }',
        { name: `  ${name}  ` },
      ),
    ).createBrand;
    expect(created).toMatchObject({ name, slug: name.toLowerCase().replace(' ', '-') });
    expectBadInput(
      await gql('mutation($name: String!) { createBrand(name: $name) { id } }', { name: name.toUpperCase() }),
      { name: referenceMessages.brandTaken(name) },
    );
    expectBadInput(await gql('mutation { createBrand(name: "   ") { id } }', {}), {
      name: referenceMessages.nameRequired,
    });
    const other = `Nissin ${tag()}`;
    dataOf(await gql('mutation($name: String!) { createBrand(name: $name) { id } }', { name: other }));
    expectBadInput(
      await gql('mutation($id: ID!, $name: String!) { renameBrand(id: $id, name: $name) { id } }', {
        id: created.id,
        name: other.toLowerCase(),
      }),
      { name: referenceMessages.brandTaken(other) },
    );
    const renamed = dataOf(
      await gql<{ renameBrand: { name: string; slug: string } }>(
        'mutation($id: ID!, $name: String!) { renameBrand(id: $id, name: $name) { name slug } }',
        { id: created.id, name: `${name} Racing` },
      ),
    ).renameBrand;
    // The slug stays: addresses already shared keep working.
    expect(renamed).toEqual({ name: `${name} Racing`, slug: created.slug });
    expectNotFound(await gql('mutation($id: ID!) { renameBrand(id: $id, name: "X") { id } }', { id: unknownId() }));
    expectForbidden(await gql('mutation { createBrand(name: "Mine") { id } }', {}, customer.token));
  });

  it('builds the category tree and refuses a move that would make a loop, naming both', async () => {
    const brakes = await createCategory(`Brakes ${tag()}`);
    const pads = await createCategory('Pads', brakes.id);
    const sintered = await createCategory('Sintered', pads.id);
    expect(pads.parent).toEqual({ id: brakes.id });
    expectBadInput(
      await gql('mutation($p: ID!) { createCategory(name: "pads", parentId: $p) { id } }', { p: brakes.id }),
      { name: referenceMessages.categoryTaken('pads', brakes.name) },
    );
    expectBadInput(await move(brakes.id, sintered.id), {
      parentId: referenceMessages.categoryLoop(brakes.name, 'Sintered'),
    });
    expectBadInput(await move(pads.id, pads.id), { parentId: referenceMessages.categoryUnderItself('Pads') });
    expectBadInput(await move(pads.id, unknownId()), { parentId: referenceMessages.noSuchCategory });
    // A move that makes no loop is made; null moves to the top; a rename leaves it where it is.
    expect(dataOf(await move(sintered.id, brakes.id)).updateCategory.parent).toEqual({ id: brakes.id });
    expect(dataOf(await move(pads.id, null)).updateCategory.parent).toBeNull();
    const renamed = dataOf(
      await gql<{ updateCategory: { name: string; parent: { id: string } | null } }>(
        'mutation($id: ID!) { updateCategory(id: $id, name: "Sintered pads") { name parent { id } } }',
        { id: sintered.id },
      ),
    ).updateCategory;
    expect(renamed).toEqual({ name: 'Sintered pads', parent: { id: brakes.id } });
    // Two moves at once that would close a loop together: one of them is refused.
    const a = await createCategory(`A ${tag()}`);
    const b = await createCategory(`B ${tag()}`);
    const [ab, ba] = await Promise.all([move(a.id, b.id), move(b.id, a.id)]);
    expect([ab, ba].filter((r) => r.errors).length).toBe(1);
  });

  it('creates makes, models and vehicles; the same one twice is refused', async () => {
    const makeName = `Husqvarna ${tag()}`;
    const make = dataOf(
      await gql<{ createMake: { id: string } }>('mutation($n: String!) { createMake(name: $n) { id } }', {
        n: makeName,
      }),
    ).createMake;
    expectBadInput(await gql('mutation($n: String!) { createMake(name: $n) { id } }', { n: makeName }), {
      name: referenceMessages.makeTaken(makeName),
    });
    const model = dataOf(
      await gql<{ createModel: { id: string; make: { id: string } } }>(
        'mutation($m: ID!) { createModel(makeId: $m, name: "FE 350") { id make { id } } }',
        { m: make.id },
      ),
    ).createModel;
    expect(model.make).toEqual({ id: make.id });
    expectBadInput(await gql('mutation($m: ID!) { createModel(makeId: $m, name: "fe 350") { id } }', { m: make.id }), {
      name: referenceMessages.modelTaken('FE 350', makeName),
    });
    expectBadInput(await gql('mutation($m: ID!) { createModel(makeId: $m, name: "X") { id } }', { m: unknownId() }), {
      makeId: referenceMessages.noSuchMake,
    });
    const vehicle = dataOf(
      await gql<{ createVehicle: { name: string; year: number; variant: string } }>(
        'mutation($m: ID!) { createVehicle(modelId: $m, year: 2021, variant: "  EU  ") { name year variant } }',
        { m: model.id },
      ),
    ).createVehicle;
    expect(vehicle).toEqual({ name: `2021 ${makeName} FE 350 EU`, year: 2021, variant: 'EU' });
    expectBadInput(
      await gql('mutation($m: ID!) { createVehicle(modelId: $m, year: 2021, variant: "EU") { id } }', { m: model.id }),
      { variant: referenceMessages.vehicleTaken(`2021 ${makeName} FE 350 EU`) },
    );
    expectBadInput(await gql('mutation($m: ID!) { createVehicle(modelId: $m, year: 1700) { id } }', { m: model.id }), {
      year: referenceMessages.year,
    });
    const listed = dataOf(
      await gql<{ vehicles: { name: string }[] }>('query($m: ID!) { vehicles(modelId: $m) { name } }', { m: model.id }),
    ).vehicles;
    expect(listed).toEqual([{ name: `2021 ${makeName} FE 350 EU` }]);
  });
});
