import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { render, waitFor } from '@testing-library/react';
import { CartMerger } from '../../src/features/cart/CartMerger';
import { MergeCartDocument, type MergeCartMutationVariables } from '../../src/generated/graphql';
import { useAuth } from '../../src/lib/auth';
import { visitorCart } from '../../src/lib/cart/visitorCart';
import { brakePads, customer, signedInAs } from './renderShopping';

/**
 * Issue 32: a visitor's cart is merged into the account at sign-in with an id chosen when the merge starts and
 * kept with the cart, so a merge sent again (the page reloaded while the answer was on its way) is recognised by
 * the server and counts once; a cart that changed is a new merge.
 */

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn(), useOptionalAuth: jest.fn() }));

const pads = brakePads();
const emptyCart = { __typename: 'Cart', total: 0, units: 0, problem: null, ready: false, lines: [] };

/** One answer to MergeCart, noting the variables it was asked with. */
function mergeAnswer(sent: MergeCartMutationVariables[], answer: 'lost' | 'merged'): MockedResponse {
  return {
    request: { query: MergeCartDocument },
    variableMatcher: (variables: MergeCartMutationVariables) => {
      sent.push(variables);
      return true;
    },
    ...(answer === 'lost'
      ? { error: new Error('Failed to fetch') }
      : { result: { data: { mergeCart: { __typename: 'CartMerge', cart: emptyCart, notes: [] } } } }),
  };
}

const renderMerger = (mock: MockedResponse) =>
  render(
    <MockedProvider mocks={[mock]}>
      <CartMerger />
    </MockedProvider>,
  );

afterEach(() => visitorCart.clear());

describe('merging a visitor’s cart at sign-in', () => {
  it('a merge whose answer was lost is sent again with the same id; once merged the cart and its id are gone', async () => {
    jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>);
    visitorCart.set({ partId: pads.id, amount: 30, seenUnitPrice: 24.5, part: pads });
    const sent: MergeCartMutationVariables[] = [];
    // The first page never hears back (reloaded, or the connection dropped): the cart stays in the browser.
    const first = renderMerger(mergeAnswer(sent, 'lost'));
    await waitFor(() => expect(sent).toHaveLength(1));
    first.unmount();
    expect(visitorCart.lines()).toHaveLength(1);
    // The reloaded page sends the same merge again: same lines, same id.
    renderMerger(mergeAnswer(sent, 'merged'));
    await waitFor(() => expect(visitorCart.lines()).toHaveLength(0));
    expect(sent).toHaveLength(2);
    expect(sent[0].mergeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0].lines).toEqual([{ partId: pads.id, amount: 30 }]);
    // The next cart is another merge.
    visitorCart.set({ partId: pads.id, amount: 20, seenUnitPrice: 24.5, part: pads });
    expect(visitorCart.mergeId()).not.toBe(sent[0].mergeId);
  });

  it('a cart changed after a merge was started is merged under a new id', () => {
    visitorCart.set({ partId: pads.id, amount: 30, seenUnitPrice: 24.5, part: pads });
    const started = visitorCart.mergeId();
    expect(visitorCart.mergeId()).toBe(started);
    visitorCart.set({ partId: pads.id, amount: 40, seenUnitPrice: 24.5, part: pads });
    expect(visitorCart.mergeId()).not.toBe(started);
  });
});
