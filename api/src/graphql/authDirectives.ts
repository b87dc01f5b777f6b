import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { adminsOnly, signInRequired } from '../errors';
import type { GraphQLContext } from './context';

/**
 * Enforces the schema's `@auth` and `@hasRole(role: ...)`: every field carrying one is wrapped so that its
 * resolver runs only for a signed-in caller (and one with the role). Rights are declared where the
 * operation is declared, in schema.graphql.
 */
export function authDirectivesTransformer(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const needsAuth = getDirective(schema, field, 'auth')?.[0];
      const roleDirective = getDirective(schema, field, 'hasRole')?.[0] as { role?: string } | undefined;
      if (!needsAuth && !roleDirective) return field;
      const requiredRole = roleDirective?.role?.toLowerCase();
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve(source, args, context: GraphQLContext, info) {
          if (!context.actor) throw context.authError ?? signInRequired();
          if (requiredRole && context.actor.role !== requiredRole) {
            throw adminsOnly();
          }
          return resolve(source, args, context, info);
        },
      };
    },
  });
}
