import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context';

/**
 * The schema's `@auth` and `@hasRole(role: ...)` declare, for integrators, who may call an operation; the
 * services decide it (api/src/services/rights.ts, checked against these directives by the rights test). On
 * those fields this only translates a token that was sent but refused (expired, revoked, not ours) into its
 * own 401, as the REST shim does; a visitor without a token reaches the service, which answers 401 itself.
 */
export function authDirectivesTransformer(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const declared = getDirective(schema, field, 'auth')?.[0] ?? getDirective(schema, field, 'hasRole')?.[0];
      if (!declared) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve(source, args, context: GraphQLContext, info) {
          if (!context.actor && context.authError) throw context.authError;
          return resolve(source, args, context, info);
        },
      };
    },
  });
}
