import { isEnumType, isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { buildSchema, schemaPath } from '../src/app';
import { resolvers } from '../src/graphql/resolvers';

/** schema.graphql is the contract: documented throughout, and every operation has a resolver. */
describe('schema.graphql', () => {
  const schema: GraphQLSchema = buildSchema();
  const ownTypes = Object.values(schema.getTypeMap()).filter(
    (t) => !t.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name),
  );

  it('describes every type, field, input field and enum value', () => {
    const missing: string[] = [];
    for (const type of ownTypes) {
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          if (!field.description) missing.push(`${type.name}.${field.name}`);
      }
      if (isEnumType(type))
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('has a resolver for every query and mutation', () => {
    const query = Object.keys(schema.getQueryType()?.getFields() ?? {});
    const mutation = Object.keys(schema.getMutationType()?.getFields() ?? {});
    expect(query.filter((f) => !(resolvers.Query as Record<string, unknown>)[f])).toEqual([]);
    expect(mutation.filter((f) => !(resolvers.Mutation as Record<string, unknown>)[f])).toEqual([]);
  });

  it('declares who may call each protected operation with @auth or @hasRole', () => {
    const sdl = readFileSync(schemaPath, 'utf8');
    for (const adminOnly of [
      'orders(',
      'users(',
      'contactMessages(',
      'addPart(',
      'deletePart(',
      'markOrderShipped(',
      'grantAdmin(',
      'deleteUser(',
    ]) {
      const line = sdl.split('\n').find((l) => l.trim().startsWith(adminOnly));
      expect(line).toMatch(/@hasRole\(role: ADMIN\)/);
    }
  });
});
