import type { ApolloServerPlugin } from '@apollo/server';
import type { NextFunction, Request, Response } from 'express';
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { maxPriceTiers } from '@partsyard/common';
import { catalogListCap } from '../catalog/catalogService';
import { numberHitLimit } from '../catalog/numberLookup';
import { facetValueLimit } from '../catalog/catalogQuery';
import { bodyRefusal } from '../http/requestBody';
import { maxCartLines } from '../services/cartService';
import { maxGarageBikes } from '../garage/garageService';
import { maxCandidates, suggestionsPerLine } from '../ordering/quickOrderCheck';
import { maxSavedListLines, maxSavedLists } from '../ordering/savedListsService';
import { companyLimits } from '../companies/companiesService';
import { companyPriceLimits } from '../companies/companyPrices';
import { invoiceLimits } from '../invoicing/invoicingService';

/**
 * Bounds on what one GraphQL request may ask for, checked before anything runs. Every operation is small
 * in this shop; the limits leave room for integrators and keep a hostile query from costing much.
 */
export const queryLimits = {
  /** Field nesting (`ofType`, the wrappers of a type in introspection, does not count). */
  maxDepth: 8,
  /**
   * Fields a query may resolve: each field counts 1, once per item of the lists around it. A list counts
   * its `limit` argument (or its page's), the field's default when none is sent, else `listSize`.
   * Introspection has its own budget (`maxIntrospectionCost`).
   */
  maxCost: 10_000,
  /**
   * Fields the introspection of one operation (`__schema`, `__type`, all of them together) may return, counted by
   * what it really returns: GraphiQL's complete query is about 5,100 today and grows with the schema. It reads
   * the schema in memory (never the database), and graphql-js refuses introspection lists nested in each other,
   * so this bound is on the answer's size, kept apart from `maxCost` so that a growing schema never squeezes
   * what a data query may ask for.
   */
  maxIntrospectionCost: 30_000,
  /** A list with no limit argument, or a limit above it, counts this many items (the largest page served). */
  listSize: 200,
  /**
   * Lists the server itself keeps short, counted at their bound rather than `listSize`: a part's quantity
   * breaks (maxPriceTiers), a cart's lines and a checkout's orders (maxCartLines), the catalog's lists of brands,
   * categories, makes, models and vehicles (catalogListCap), a look-up by number (numberHitLimit), a garage's bikes
   * and its merge's notes (maxGarageBikes), the catalog's facets (facetValueLimit), a quick-order line's suggestions and
   * candidates, and saved lists (api/src/ordering).
   */
  boundedLists: {
    'Part.priceTiers': maxPriceTiers,
    'Cart.lines': maxCartLines,
    'Checkout.orders': maxCartLines,
    'CartMerge.notes': maxCartLines,
    'Query.brands': catalogListCap,
    'Query.categories': catalogListCap,
    'Query.makes': catalogListCap,
    'Query.models': catalogListCap,
    'Query.vehicles': catalogListCap,
    'Query.partsByNumber': numberHitLimit,
    'Garage.bikes': maxGarageBikes,
    'GarageMerge.notes': maxGarageBikes,
    'CatalogFacets.categories': facetValueLimit,
    'CatalogFacets.brands': facetValueLimit,
    'QuickOrderLine.suggestions': suggestionsPerLine,
    'QuickOrderLine.candidates': maxCandidates,
    'Query.savedLists': maxSavedLists,
    'SavedList.lines': maxSavedListLines,
    'Query.myCompanyInvitations': companyLimits.invitationsShown,
    'Company.addresses': companyLimits.addresses,
    'Company.invitations': companyLimits.pendingInvitations,
    'MyPrices.parts': companyPriceLimits.myPricesIds,
    'MyPartPrice.priceTiers': maxPriceTiers,
    'CompanyPartPrice.priceTiers': maxPriceTiers,
    'AwaitingApproval.orders': maxCartLines,
    'Invoice.lines': maxCartLines,
    'Invoice.payments': invoiceLimits.payments,
  } as Record<string, number>,
  /** Aliased fields (each alias runs its field again). */
  maxAliases: 20,
  /** Operations in one batched HTTP request (a JSON array of operations). */
  maxBatch: 10,
  /** Lexical tokens of a document: bounds parsing and validation before anything else is looked at. */
  maxTokens: 2000,
};

export type QueryLimits = typeof queryLimits;

/** A refusal of the request as a whole, before execution: HTTP 400 and a code the caller can act on. */
function tooComplex(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
}

export interface OperationSize {
  depth: number;
  /** Data fields (the budget `maxCost`). */
  cost: number;
  /** Fields the introspection returns (the budget `maxIntrospectionCost`). */
  introspection: number;
  aliases: number;
}

/** The variables a measure depended on: those given as a `limit`, or any of them (`any`). */
export interface VariablesRead {
  names: Set<string>;
  any: boolean;
}

/**
 * Measures an operation with its fragments expanded and refuses it (throws a QUERY_TOO_COMPLEX GraphQLError)
 * past a limit: nesting and aliases as written, then the cost, given up as soon as it passes the budget (so a
 * query built to explode costs no more than the budget to measure).
 * Data fields are estimated from the lists' limits; introspection (`__schema`, `__type`) reads the schema,
 * so it is counted by walking the schema with graphql-js's own introspection resolvers.
 */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
  limits: QueryLimits = queryLimits,
  reads?: VariablesRead,
): OperationSize {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const variableValues: Record<string, unknown> = {};
  for (const v of operation.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    const value =
      variables[name] !== undefined ? variables[name] : v.defaultValue && valueFromASTUntyped(v.defaultValue);
    if (value !== undefined) variableValues[name] = value;
  }
  const introspectionInfo = { schema } as GraphQLResolveInfo;
  let introspected = 0;

  const tooCostly = (): never => {
    throw tooComplex(
      `The query is too costly: it could resolve more than ${limits.maxCost} fields (each field counts once per ` +
        `item of the lists around it; a list counts its limit, or ${limits.listSize}). Ask for fewer fields or smaller pages.`,
    );
  };

  /** The field selections of a selection set, fragments expanded, each with the type it is selected on. */
  function* fieldsOf(
    selectionSet: SelectionSetNode,
    parent: GraphQLCompositeType,
  ): Generator<[FieldNode, GraphQLCompositeType]> {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        yield [selection, parent];
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const condition = fragment.typeCondition && schema.getType(fragment.typeCondition.name.value);
      yield* fieldsOf(fragment.selectionSet, condition && isCompositeType(condition) ? condition : parent);
    }
  }

  const fieldOf = (parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined => {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
    if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
    return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
  };

  /**
   * Nesting and aliases of a selection set as written, fragments expanded (each use of a fragment counts its
   * aliases again). Remembered per fragment, so a fragment spread many times is looked at once.
   */
  const shapes = new Map<string, { depth: number; aliases: number }>();
  const shapeOf = (selectionSet: SelectionSetNode): { depth: number; aliases: number } => {
    const shape = { depth: 0, aliases: 0 };
    for (const selection of selectionSet.selections) {
      let inner: { depth: number; aliases: number };
      if (selection.kind === Kind.FIELD) {
        const below = selection.selectionSet ? shapeOf(selection.selectionSet) : { depth: 0, aliases: 0 };
        inner = {
          depth: below.depth + (selection.name.value === 'ofType' ? 0 : 1),
          aliases: below.aliases + (selection.alias ? 1 : 0),
        };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = shapeOf(selection.selectionSet);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!shapes.has(name)) {
          shapes.set(name, { depth: 0, aliases: 0 }); // a cycle (refused by validation) ends here
          if (fragment) shapes.set(name, shapeOf(fragment.selectionSet));
        }
        inner = shapes.get(name) as { depth: number; aliases: number };
      }
      shape.depth = Math.max(shape.depth, inner.depth);
      shape.aliases += inner.aliases;
    }
    return shape;
  };

  /** The page size a `limit` argument asks for (its default when not sent), within [1, listSize]. */
  const limitOf = (field: GraphQLField<unknown, unknown>, selection: FieldNode): number | undefined => {
    const node = selection.arguments?.find((a) => a.name.value === 'limit')?.value;
    if (node?.kind === Kind.VARIABLE) reads?.names.add(node.name.value);
    let value: unknown =
      node?.kind === Kind.VARIABLE ? variableValues[node.name.value] : node ? valueFromASTUntyped(node) : undefined;
    value ??= field.args.find((a) => a.name === 'limit')?.defaultValue;
    if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
    return Math.max(1, Math.min(value, limits.listSize));
  };

  const tooLarge = (): never => {
    throw tooComplex(
      `The query is too costly: its introspection could return more than ${limits.maxIntrospectionCost} fields. ` +
        'Ask for fewer types or fields at once.',
    );
  };

  /** Introspection: walks the schema objects it would return, counting each field once per object. */
  const introspectionCost = (
    selectionSet: SelectionSetNode,
    type: GraphQLCompositeType,
    value: unknown,
    budget: number,
  ): number => {
    let cost = 0;
    for (const [selection, parent] of fieldsOf(selectionSet, type)) {
      const field = fieldOf(parent, selection.name.value);
      if (!field) continue;
      if (++cost > budget) tooLarge();
      const named = getNamedType(field.type);
      if (!selection.selectionSet || !isCompositeType(named)) continue;
      let result: unknown;
      if (reads) reads.any = true; // arguments of introspection fields, which may be variables
      try {
        const args = getArgumentValues(field, selection, variableValues);
        result = field.resolve
          ? field.resolve(value, args, undefined, introspectionInfo)
          : (value as Record<string, unknown>)[field.name];
      } catch {
        continue; // a bad argument: execution reports it
      }
      for (const item of Array.isArray(result) ? result : [result]) {
        if (item === null || item === undefined) continue;
        cost += introspectionCost(selection.selectionSet, named, item, budget - cost);
      }
    }
    return cost;
  };

  /** Data: each field counts 1, and a list's selection once per item it may hold. */
  const dataCost = (
    selectionSet: SelectionSetNode,
    type: GraphQLCompositeType,
    pageLimit: number | undefined,
    budget: number,
  ): number => {
    let cost = 0;
    for (const [selection, parent] of fieldsOf(selectionSet, type)) {
      const name = selection.name.value;
      const field = fieldOf(parent, name);
      if (!field) continue; // unknown fields never get here: validation refused them
      if (name === SchemaMetaFieldDef.name || name === TypeMetaFieldDef.name) {
        introspected += introspectionCost(
          { kind: Kind.SELECTION_SET, selections: [selection] },
          parent,
          null,
          limits.maxIntrospectionCost - introspected,
        );
        continue;
      }
      if (++cost > budget) tooCostly();
      const named = getNamedType(field.type);
      if (!selection.selectionSet || !isCompositeType(named)) continue;
      const ownLimit = limitOf(field, selection);
      const bound = limits.boundedLists[`${parent.name}.${name}`];
      const items = isListType(getNullableType(field.type)) ? (bound ?? ownLimit ?? pageLimit ?? limits.listSize) : 1;
      const children = dataCost(selection.selectionSet, named, ownLimit, Math.floor((budget - cost) / items));
      cost += items * children;
    }
    return cost;
  };

  const { depth, aliases } = shapeOf(operation.selectionSet);
  if (depth > limits.maxDepth)
    throw tooComplex(`The query is too deep: fields are nested more than ${limits.maxDepth} levels`);
  if (aliases > limits.maxAliases) throw tooComplex(`The query uses more than ${limits.maxAliases} aliases`);
  const root = schema.getRootType(operation.operation);
  const cost = root ? dataCost(operation.selectionSet, root, undefined, limits.maxCost) : 0;
  return { depth, cost, introspection: introspected, aliases };
}

/** Refuses an operation over the limits once it is parsed and validated, before it runs (HTTP 400). */
export function queryLimitsPlugin(limits: QueryLimits = queryLimits): ApolloServerPlugin {
  // Apollo keeps one parsed document per query text, so an operation asked again is the same node. Its size
  // depends on nothing but the node and the values of the variables given as a `limit`: an operation within the
  // limits is measured once per such values (up to `keptSizes`), not on every request, which cost a signed-in
  // read about 3 % of its CPU (issue 15). One over a limit is measured (and refused) each time; one whose
  // introspection fields take arguments is measured each time too, as it may read any variable.
  const keptSizes = 64;
  const measured = new WeakMap<OperationDefinitionNode, { names: string[]; within: Set<string> }>();
  const keyOf = (names: string[], variables: Record<string, unknown>) =>
    names.map((name) => (variables[name] === undefined ? '' : JSON.stringify(variables[name]))).join('\n');
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          const variables = request.variables ?? {};
          const known = measured.get(operation);
          if (known?.within.has(keyOf(known.names, variables))) return;
          const reads: VariablesRead = { names: new Set(), any: false };
          measureOperation(schema, document, operation, variables, limits, reads);
          if (reads.any) return;
          const entry = known ?? { names: [...reads.names].sort(), within: new Set<string>() };
          if (entry.within.size >= keptSizes) entry.within.clear();
          entry.within.add(keyOf(entry.names, variables));
          measured.set(operation, entry);
        },
      };
    },
  };
}

/** A refusal of an HTTP request to /graphql in GraphQL's error shape (no operation ran). */
export function sendGraphQLRefusal(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ errors: [{ message, extensions: { code } }] });
}

/** Batched requests (a JSON array of operations) may hold at most `maxBatch` operations; refused before any runs. */
export function refuseLargeBatches(req: Request, res: Response, next: NextFunction): void {
  if (Array.isArray(req.body) && req.body.length > queryLimits.maxBatch) {
    sendGraphQLRefusal(
      res,
      400,
      'BATCH_TOO_LARGE',
      `A batch may hold at most ${queryLimits.maxBatch} operations; this one has ${req.body.length}`,
    );
    return;
  }
  next();
}

/** A body /graphql could not read (too large, not JSON): the REST shim's refusal, in GraphQL's error shape. */
export function graphqlBodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const refusal = bodyRefusal(error);
  if (!refusal) return next(error);
  sendGraphQLRefusal(res, refusal.status, refusal.code, refusal.message);
}
