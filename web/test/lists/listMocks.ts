import type { MockedResponse } from '@apollo/client/testing';
import { MeDocument } from '../../src/generated/graphql';
import {
  SavedListDocument,
  SavedListsDocument,
  type CartFromLinesFieldsFragment,
  type SavedListFieldsFragment,
  type SavedListsQuery,
} from '../../src/generated/lists';
import { customer } from '../shopping/renderShopping';

type Line = SavedListFieldsFragment['lines'][number];
type CheckLine = CartFromLinesFieldsFragment['check']['lines'][number];

/** The signed-in user as `me` answers, a customer unless told otherwise. */
export const meAnswer = (isAdmin = false): MockedResponse => ({
  request: { query: MeDocument, variables: {} },
  result: {
    data: {
      me: {
        __typename: 'User',
        id: 'u1',
        email: customer.email,
        name: customer.displayName,
        avatar: '',
        phone: '',
        education: '',
        location: '',
        linkedIn: '',
        role: isAdmin ? 'ADMIN' : 'CUSTOMER',
        isAdmin,
        emailVerified: true,
      },
    },
  },
});

export const part = (id: string, name: string, sku: string) => ({
  __typename: 'Part' as const,
  id,
  name,
  sku,
  minOrder: 10,
  packSize: 1,
});

/** A list's line: `quantity` of a part at `unitPrice`. */
export const listLine = (
  over: Partial<Line> & { part: (Line['part'] & { sku?: string }) | null },
): Line & { __typename: 'SavedListLine' } => ({
  __typename: 'SavedListLine',
  id: `line-${over.part?.id ?? over.sku ?? 'gone'}`,
  sku: over.part?.sku ?? 'SKU',
  partName: over.part?.name ?? 'Part',
  quantity: 20,
  replacement: null,
  unitPrice: 2.5,
  lineTotal: 50,
  problem: null,
  ...over,
});

export const savedList = (
  lines: Line[],
  over: Partial<SavedListFieldsFragment> = {},
): SavedListFieldsFragment & { __typename: 'SavedList' } => ({
  __typename: 'SavedList',
  id: 'list-1',
  name: 'Workshop consumables',
  total: lines.reduce((sum, l) => sum + (l.problem ? 0 : (l.lineTotal ?? 0)), 0),
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
  lines,
  ...over,
});

export const summary = (id: string, name: string, lineCount: number) => ({
  __typename: 'SavedListSummary' as const,
  id,
  name,
  lineCount,
  updatedAt: '2026-03-02T10:00:00.000Z',
});

export const listsAnswer = (lists: SavedListsQuery['savedLists']): MockedResponse => ({
  request: { query: SavedListsDocument, variables: {} },
  result: { data: { savedLists: lists } },
});

export const listAnswer = (list: SavedListFieldsFragment): MockedResponse => ({
  request: { query: SavedListDocument, variables: { id: list.id } },
  result: { data: { savedList: list } },
});

/** A checked line: fine unless `problem` is given. */
export const checkLine = (
  line: number,
  p: ReturnType<typeof part> | null,
  problem?: { kind: string; message: string },
  replacement?: ReturnType<typeof part>,
) => ({
  __typename: 'QuickOrderLine',
  line,
  number: p?.sku ?? 'GONE-1',
  quantity: '20',
  part: p ? { __typename: 'Part', id: p.id, name: p.name, sku: p.sku } : null,
  problem: problem
    ? {
        __typename: 'QuickOrderProblem',
        kind: problem.kind as CheckLine['problem'] extends infer P ? (P extends { kind: infer K } ? K : never) : never,
        message: problem.message,
      }
    : null,
  replacement: replacement
    ? { __typename: 'Part', id: replacement.id, name: replacement.name, sku: replacement.sku }
    : null,
  replacementProblem: null,
  note: null,
});

/** What putting lines into the cart answers: all added (an empty cart stands for the new one in these tests), or none. */
export const cartFromLines = (lines: CheckLine[]) => {
  const bad = lines.filter((l) => l.problem).length;
  return {
    __typename: 'CartFromLines' as const,
    added: bad === 0,
    check: { __typename: 'QuickOrderCheck', problemCount: bad, ready: bad === 0, lines },
    cart: { __typename: 'Cart', total: 0, units: 0, problem: null, ready: false, lines: [] },
  };
};
