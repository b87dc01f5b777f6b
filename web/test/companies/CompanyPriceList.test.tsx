import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { Route, Routes } from 'react-router-dom';
import CompanyAdminPage from '../../src/features/companies/CompanyAdminPage';
import { companyPriceTexts } from '../../src/features/companies/CompanyPriceList';
import {
  CompanyDocument,
  CompanyPriceListDocument,
  PartBySkuDocument,
  SetCompanyPartPriceDocument,
  SetCompanyPercentOffDocument,
} from '../../src/generated/companies';
import { polyfillDialog, renderAdmin } from '../admin/renderAdmin';
import { company } from './fixtures';

const pad = {
  __typename: 'Part' as const,
  id: 'p1',
  sku: 'PY-000123',
  name: 'Sintered Brake Pads',
  price: 12.5,
};
const partPrice = {
  __typename: 'CompanyPartPrice' as const,
  part: pad,
  price: 9,
  priceTiers: [{ __typename: 'PriceTier' as const, minUnits: 20, price: 8.5 }],
};
const priceList = (items: unknown[], percentOff: number | null = 10) => ({
  request: { query: CompanyPriceListDocument, variables: { id: 'c1', offset: 0, limit: 50 } },
  result: {
    data: {
      companyPriceList: { __typename: 'CompanyPricePage', companyId: 'c1', percentOff, total: items.length, items },
    },
  },
});
const companyAnswer = {
  request: { query: CompanyDocument, variables: { id: 'c1' } },
  result: { data: { company: company({ myRole: null }) } },
};

const renderPage = (mocks: Parameters<typeof renderAdmin>[1]) =>
  renderAdmin(
    <Routes>
      <Route path="/dashboard/companies/:companyId" element={<CompanyAdminPage />} />
    </Routes>,
    mocks,
    '/dashboard/companies/c1',
  );

beforeAll(polyfillDialog);

describe("A company's price list (shop admins)", () => {
  it('shows the percentage and each fixed price with its breaks beside the list price', async () => {
    renderPage([companyAnswer, priceList([partPrice])]);
    const row = await screen.findByTestId('company-price-row');
    expect(row).toHaveTextContent('PY-000123');
    expect(row).toHaveTextContent('$12.50');
    expect(row).toHaveTextContent('$9.00');
    expect(row).toHaveTextContent('20 at 8.50');
    expect(screen.getByLabelText('Percentage off the list price')).toHaveValue('10');
  });

  it('a percentage the server refuses says why under its field', async () => {
    const message = 'The percentage off is a number above 0 and at most 90 (up to two decimals), or empty for none';
    renderPage([
      companyAnswer,
      priceList([], null),
      {
        request: { query: SetCompanyPercentOffDocument, variables: { id: 'c1', percentOff: 95 } },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: { code: 'BAD_USER_INPUT', fields: { percentOff: message } },
            }),
          ],
        },
      },
    ]);
    const field = await screen.findByLabelText('Percentage off the list price');
    await userEvent.type(field, '95');
    await userEvent.click(screen.getByRole('button', { name: 'Save percentage' }));
    const shown = await screen.findByText(message);
    expect(field).toHaveAttribute('aria-describedby', shown.id);
  });

  it('sets a part’s price by its SKU, with breaks; a break written otherwise is refused under its field', async () => {
    renderPage([
      companyAnswer,
      priceList([]),
      {
        request: { query: PartBySkuDocument, variables: { number: 'py-000123' } },
        result: {
          data: {
            partsByNumber: [{ __typename: 'PartNumberHit', match: 'EXACT', part: { ...pad, minOrder: 10 } }],
          },
        },
      },
      {
        request: {
          query: SetCompanyPartPriceDocument,
          variables: { id: 'c1', partId: 'p1', price: 9, priceTiers: [{ minUnits: 20, price: 8.5 }] },
        },
        result: { data: { setCompanyPartPrice: partPrice } },
      },
      priceList([partPrice]),
    ]);
    await userEvent.type(await screen.findByLabelText('Part SKU'), 'py-000123');
    await userEvent.type(screen.getByLabelText('Company unit price ($)'), '9');
    const breaks = screen.getByLabelText('Quantity breaks (optional)');
    await userEvent.type(breaks, 'twenty at 8.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save part price' }));
    const refused = await screen.findByText(companyPriceTexts.breaksFormat);
    expect(breaks).toHaveAttribute('aria-describedby', refused.id);
    await userEvent.clear(breaks);
    await userEvent.type(breaks, '20 at 8.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save part price' }));
    expect(await screen.findByText('Company price for PY-000123 saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('company-price-row')).toHaveLength(1));
  });
});
