import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Route, Routes, useLocation } from 'react-router-dom';
import { TestRouter } from '../support/TestRouter';
import { Toasts } from '../../src/components/Toasts';
import type { PartFieldsFragment, ReviewFieldsFragment } from '../../src/generated/graphql';

/** Shows the current path and query, so a test can read what the page put in the URL. */
function Location() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

/**
 * Renders `page` at `path` with mocked GraphQL answers, the toasts, and the location readout; `route` is the page's
 * route pattern when it reads the path's parameters.
 */
export function renderStorefront(page: ReactElement, mocks: MockedResponse[], path = '/', route = '*') {
  toast.remove();
  return render(
    <MockedProvider mocks={mocks}>
      <TestRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
        </Routes>
        <Location />
        <Toasts />
      </TestRouter>
    </MockedProvider>,
  );
}

type Typed<T, N extends string> = T & { __typename: N };

/** A part as the API answers it; `n` makes the id and name unique. */
export const part = (n: number, overrides: Partial<PartFieldsFragment> = {}): Typed<PartFieldsFragment, 'Part'> => ({
  __typename: 'Part',
  id: `part-${n}`,
  name: `Test Part ${n}`,
  description: `Description of test part ${n}.`,
  image: '/images/parts/chain.svg',
  price: 10 + n,
  minOrder: 5,
  available: 100,
  priceTiers: [],
  packSize: 1,
  ...overrides,
});

export const review = (n: number): Typed<ReviewFieldsFragment, 'Review'> => ({
  __typename: 'Review',
  id: `review-${n}`,
  name: `Reviewer ${n}`,
  email: `reviewer${n}@example.com`,
  avatar: `/images/avatars/a${n}.svg`,
  text: `Review text number ${n}.`,
  partName: 'Test Part',
});
