import { ApolloLink } from '@apollo/client';
import { MockedProvider, MockLink, type MockedResponse } from '@apollo/client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import PartPage from '../../src/features/parts/PartPage';
import {
  PartDetailsDocument,
  PartFitDocument,
  PartFitmentDocument,
  type FitVerdict,
  type PartDetailsQuery,
  type PartFitmentQueryVariables,
} from '../../src/generated/partPage';
import { GarageContext, type GarageContextValue } from '../../src/lib/garage/garage';
import { TestRouter } from '../support/TestRouter';
import { part } from './renderStorefront';

/**
 * The part page (issue 33 point 3): its brand, category (a link to the category's page), SKU and numbers; a
 * replacement said first; whether it fits the current bike, in the server's words, asked only with a bike; and the
 * bikes it fits, paged and searched.
 */

const padsId = '0b5c7a52-9a44-4a4e-9a1e-6a4f0e3f1a01';
const crf2019 = { id: 'vehicle-crf-2019', name: '2019 Honda CRF450R' };

type Details = NonNullable<PartDetailsQuery['part']>;
const ebc = { __typename: 'Brand' as const, id: 'brand-ebc', name: 'EBC' };

/** The pads as the API answers PartDetails; `overrides` changes any field. */
const pads = (overrides: Partial<Details> = {}) => ({
  ...part(1, { id: padsId, name: 'Sintered Front Brake Pads' }),
  sku: 'PY-00001',
  universal: false,
  brand: ebc as Details['brand'],
  category: {
    __typename: 'Category' as const,
    id: 'cat-pads',
    name: 'Brake pads',
    slug: 'brake-pads',
    parent: { __typename: 'Category' as const, id: 'cat-brakes', name: 'Brakes', slug: 'brakes' },
  },
  numbers: [
    { __typename: 'PartNumber' as const, kind: 'MANUFACTURER' as const, raw: 'FA185HH', brand: ebc },
    { __typename: 'PartNumber' as const, kind: 'OEM' as const, raw: '06455-MEN-A71', brand: null },
  ],
  replacedBy: null,
  ...overrides,
});

const details = (answer: ReturnType<typeof pads> | null, id = padsId): MockedResponse => ({
  request: { query: PartDetailsDocument, variables: { id } },
  result: { data: { part: answer } },
});

const fit = (verdict: FitVerdict, message: string, vehicleId = crf2019.id): MockedResponse => ({
  request: { query: PartFitDocument, variables: { id: padsId, vehicleId } },
  result: { data: { part: { __typename: 'Part', id: padsId, fits: { __typename: 'Fits', verdict, message } } } },
});

/** A fitment answer for `variables`: bikes numbered from offset + 1 (2001 Honda Bike 1...), `total` in all. */
const fitment = (variables: Omit<PartFitmentQueryVariables, 'id'>, total: number, name = 'Honda CRF450R') => {
  const count = Math.max(0, Math.min(variables.limit, total - variables.offset));
  const items = Array.from({ length: count }, (_, i) => {
    const n = variables.offset + i + 1;
    return {
      __typename: 'Fitment' as const,
      vehicle: { __typename: 'Vehicle' as const, id: `vehicle-${name}-${n}`, name: `${2000 + n} ${name}` },
      position: n === 1 ? 'front' : '',
      quantity: n === 1 ? 2 : 1,
      note: n === 1 ? 'cut to 114 links' : '',
    };
  });
  return {
    request: { query: PartFitmentDocument, variables: { id: padsId, ...variables } },
    result: {
      data: {
        part: {
          __typename: 'Part',
          id: padsId,
          fitment: { __typename: 'FitmentPage', items, total, offset: variables.offset, limit: variables.limit },
        },
      },
    },
  };
};
const firstPage = { offset: 0, limit: 20, search: null };

/** A garage as the provider gives it: `current` the bike shopped for, or none. */
function garageWith(current: typeof crf2019 | null): GarageContextValue {
  return {
    kind: 'visitor',
    loading: false,
    bikes: current ? [current] : [],
    current,
    add: jest.fn(),
    remove: jest.fn(),
    setCurrent: jest.fn(() => Promise.resolve()),
    openGarage: jest.fn(),
    prepareGarage: jest.fn(),
  };
}

/** Renders the page of part `id` with the mocked answers; `sent` names the operations it asked, in order. */
function renderPart(mocks: MockedResponse[], garage = garageWith(null), id = padsId) {
  const sent: string[] = [];
  const recorder = new ApolloLink((operation, forward) => {
    sent.push(operation.operationName);
    return forward(operation);
  });
  render(
    <MockedProvider link={ApolloLink.from([recorder, new MockLink(mocks)])}>
      <GarageContext.Provider value={garage}>
        <TestRouter initialEntries={[`/parts/${id}`]}>
          <Routes>
            <Route path="/parts/:partId" element={<PartPage />} />
          </Routes>
        </TestRouter>
      </GarageContext.Provider>
    </MockedProvider>,
  );
  return { garage, sent };
}

const fitSentence = () => screen.findByTestId('part-fit');

describe('the part page', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the brand, the category under its parent (links to their pages), our SKU and the numbers with kind and brand', async () => {
    renderPart([details(pads()), fitment(firstPage, 3)]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sintered Front Brake Pads' })).toBeInTheDocument();
    const facts = screen.getByTestId('part-facts');
    expect(within(facts).getByText('Brand').nextElementSibling).toHaveTextContent('EBC');
    expect(within(facts).getByText('Our SKU').nextElementSibling).toHaveTextContent('PY-00001');
    expect(within(facts).getByRole('link', { name: 'Brake pads' })).toHaveAttribute('href', '/categories/brake-pads');
    expect(within(facts).getByRole('link', { name: 'Brakes' })).toHaveAttribute('href', '/categories/brakes');
    const numbers = within(screen.getByRole('list', { name: 'Part numbers' })).getAllByTestId('part-number');
    expect(numbers.map((n) => n.textContent)).toEqual(['Manufacturer number (EBC)FA185HH', 'OEM number06455-MEN-A71']);
    expect(screen.queryByTestId('replaced-by')).not.toBeInTheDocument();
    expect(screen.queryByTestId('part-universal')).not.toBeInTheDocument();
  });

  it('without a bike, asks for no fit and offers to choose one (it opens My garage)', async () => {
    const user = userEvent.setup();
    const { garage, sent } = renderPart([details(pads()), fitment(firstPage, 3)]);
    await screen.findByRole('heading', { level: 1 });
    expect(await fitSentence()).toHaveTextContent('Choose your bike to see whether this part fits it.');
    await user.click(screen.getByRole('button', { name: 'Choose your bike' }));
    expect(garage.openGarage).toHaveBeenCalledTimes(1);
    expect(await screen.findAllByTestId('fitment-row')).toHaveLength(3);
    expect(await fitSentence()).not.toHaveTextContent(/Could not|fits your/i);
    expect(sent).toEqual(['PartDetails', 'PartFitment']);
  });

  it.each([
    ['FITS', 'Fits your 2019 Honda CRF450R', 'alert-success'],
    ['DOES_NOT_FIT', 'Does not fit your 2019 Honda CRF450R', 'alert-error'],
    ['FITS_WITH_NOTE', 'Fits your 2019 Honda CRF450R with a note: cut to 114 links', 'alert-warning'],
  ] as const)('with a current bike, says %s in the server’s words: “%s” (%s)', async (verdict, message, style) => {
    const { sent } = renderPart([details(pads()), fit(verdict, message), fitment(firstPage, 3)], garageWith(crf2019));
    const sentence = await within(await fitSentence()).findByText(message);
    // The part's own answer has no bike in it: the fit is asked apart.
    expect(sent.filter((name) => name === 'PartFit')).toHaveLength(1);
    const alert = sentence.closest('.alert');
    expect(alert).toHaveClass(style);
    expect(alert).toHaveAttribute('data-verdict', verdict);
    // The bike's chip, to change or clear it.
    expect(screen.getByRole('button', { name: 'Change your bike' })).toBeInTheDocument();
  });

  it('says when the fit could not be checked', async () => {
    renderPart(
      [
        details(pads()),
        {
          request: { query: PartFitDocument, variables: { id: padsId, vehicleId: crf2019.id } },
          result: { errors: [{ message: 'Vehicle not found', extensions: { code: 'NOT_FOUND' } }] },
        } as MockedResponse,
        fitment(firstPage, 3),
      ],
      garageWith(crf2019),
    );
    expect(
      await within(await fitSentence()).findByText(/Could not check the fit: Vehicle not found/),
    ).toBeInTheDocument();
  });

  it('a replaced part says “Replaced by” first, with a link to the replacing part', async () => {
    const replacement = { __typename: 'Part' as const, id: 'part-new', name: 'Sintered Pads, current', sku: 'PY-2' };
    renderPart([details(pads({ replacedBy: replacement, available: 0 })), fitment(firstPage, 0)]);
    const notice = await screen.findByTestId('replaced-by');
    expect(notice).toHaveTextContent(/^Replaced by Sintered Pads, current/);
    expect(within(notice).getByRole('link', { name: 'Sintered Pads, current' })).toHaveAttribute(
      'href',
      '/parts/part-new',
    );
    // Before the part's own details in the page's order.
    expect(
      notice.compareDocumentPosition(screen.getByRole('heading', { name: 'About this part' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.getByText('Out of stock for now.')).toBeInTheDocument();
  });

  it('a universal part says “Universal: fits any bike”, and lists no bikes one by one', async () => {
    renderPart([details(pads({ universal: true, category: null, brand: null, numbers: [] })), fitment(firstPage, 0)]);
    expect(await screen.findByTestId('part-universal')).toHaveTextContent('Universal: fits any bike');
    expect(
      await screen.findByText('Universal: it fits any bike, so no bikes are listed one by one.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('part-facts')).toHaveTextContent('BrandNot given');
    expect(screen.queryByRole('list', { name: 'Part numbers' })).not.toBeInTheDocument();
  });

  it('lists the bikes it fits with position, quantity and note, 20 a page, Next asking for the following 20', async () => {
    const user = userEvent.setup();
    renderPart([details(pads()), fitment(firstPage, 45), fitment({ ...firstPage, offset: 20 }, 45)]);
    expect(await screen.findByText('Fits 45 bikes')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'The bikes this part fits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Bike', 'Position', 'Quantity', 'Note']);
    const rows = screen.getAllByTestId('fitment-row');
    expect(rows).toHaveLength(20);
    expect(
      within(rows[0])
        .getAllByRole('cell')
        .map((c) => c.lastChild?.textContent),
    ).toEqual(['2001 Honda CRF450R', 'front', '2', 'cut to 114 links']);
    const pages = screen.getByRole('navigation', { name: 'Pages of the bikes it fits' });
    expect(pages).toHaveTextContent('Showing 1–20 of 45');
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('fitment-row')[0]).toHaveTextContent('2021 Honda CRF450R'));
    expect(pages).toHaveTextContent('Showing 21–40 of 45');
  });

  it('searches the bikes once the typing pauses, from the first page', async () => {
    // Fake time: only the finished word is asked for (a query per keystroke would find no mocked answer).
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderPart([
      details(pads()),
      fitment(firstPage, 45),
      fitment({ ...firstPage, offset: 20 }, 45),
      fitment({ ...firstPage, search: 'yz' }, 3, 'Yamaha YZ450F'),
    ]);
    await screen.findByText('Fits 45 bikes');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 21–40 of 45');
    await user.type(screen.getByRole('searchbox', { name: 'Search the bikes it fits' }), 'yz');
    expect(await screen.findByText('Fits 3 bikes matching “yz”')).toBeInTheDocument();
    expect(screen.getAllByTestId('fitment-row').map((r) => r.firstChild?.lastChild?.textContent)).toEqual([
      '2001 Yamaha YZ450F',
      '2002 Yamaha YZ450F',
      '2003 Yamaha YZ450F',
    ]);
    expect(screen.queryByRole('navigation', { name: 'Pages of the bikes it fits' })).not.toBeInTheDocument();
  });

  it('says when no bike it fits matches the search', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderPart([details(pads()), fitment(firstPage, 3), fitment({ ...firstPage, search: 'ducati' }, 0)]);
    await screen.findByText('Fits 3 bikes');
    await user.type(screen.getByRole('searchbox', { name: 'Search the bikes it fits' }), 'ducati');
    expect(await screen.findByText('No bike it fits matches “ducati”.')).toBeInTheDocument();
  });

  it('an unknown part shows “Part not found”', async () => {
    renderPart([details(null, 'nope')], garageWith(null), 'nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Part not found' })).toBeInTheDocument();
  });
});
