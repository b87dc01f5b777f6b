import { MockedProvider } from '@apollo/client/testing';
import { render, screen } from '@testing-library/react';
import { PartCard } from '../../src/components/PartCard';
import { parseBreaks, breaksText } from '../../src/features/companies/CompanyPriceList';
import { bookOf, MyPricesProvider, YourPrice, yourUnitPrice } from '../../src/lib/companyPrices';
import { TestRouter } from '../support/TestRouter';
import { part } from '../storefront/renderStorefront';

/** Company prices in the web (issue 35 point 3): "Your price" by the one rule, for members only. */
describe('company prices in the web', () => {
  const listed = part(1, {
    price: 10,
    minOrder: 10,
    priceTiers: [{ __typename: 'PriceTier', minUnits: 50, price: 8 }],
  } as never);
  const book = bookOf({
    companyId: 'c1',
    percentOff: 10,
    parts: [
      {
        partId: listed.id,
        price: 9,
        priceTiers: [{ minUnits: 20, price: 8.5 }],
      },
    ],
  });

  it('reads a myPrices answer as the rule counts it (cents, basis points)', () => {
    expect(book?.percentOffBasisPoints).toBe(1000);
    expect(book?.fixed.get(listed.id)).toEqual({ priceCents: 900, priceTiers: [{ minUnits: 20, priceCents: 850 }] });
    expect(bookOf(null)).toBeNull();
  });

  it('is the lower of the list price and the company’s at the amount, and nothing when the list’s is lower', () => {
    expect(yourUnitPrice(book, listed, 10)).toBe(900);
    expect(yourUnitPrice(book, listed, 20)).toBe(850);
    expect(yourUnitPrice(book, listed, 50)).toBeNull(); // the list's $8.00 break
    expect(yourUnitPrice(null, listed, 10)).toBeNull();
    const other = part(2, { price: 5, minOrder: 1 } as never);
    expect(yourUnitPrice(book, other, 1)).toBe(450); // 10 % off
  });

  it('shows "Your price" beside the list price for a member, at the minimum order by default', () => {
    render(<YourPrice part={listed} book={book} />);
    expect(screen.getByTestId('your-price')).toHaveTextContent('Your price$9.00 each at 10');
  });

  it('a visitor’s card shows the list price alone, and asks for no company prices', () => {
    render(
      <MockedProvider mocks={[]}>
        <TestRouter>
          <MyPricesProvider partIds={[listed.id]}>
            <PartCard part={listed} />
          </MyPricesProvider>
        </TestRouter>
      </MockedProvider>,
    );
    expect(screen.getByText('$10.00')).toBeInTheDocument();
    expect(screen.queryByTestId('your-price')).not.toBeInTheDocument();
  });

  it('the admin’s breaks are written "units at price", and anything else is refused', () => {
    expect(parseBreaks('20 at 8.50, 50 at 8')).toEqual([
      { minUnits: 20, price: 8.5 },
      { minUnits: 50, price: 8 },
    ]);
    expect(parseBreaks('  ')).toEqual([]);
    expect(parseBreaks('20+ @ $8.50; 40: 8')).toEqual([
      { minUnits: 20, price: 8.5 },
      { minUnits: 40, price: 8 },
    ]);
    expect(parseBreaks('twenty at 8')).toBeNull();
    expect(parseBreaks('20 8.5')).toBeNull();
    expect(breaksText([{ minUnits: 20, price: 8.5 }])).toBe('20 at 8.50');
  });
});
