import { render, screen } from '@testing-library/react';
import { PriceBreaks } from '../../src/components/cart/PriceBreaks';
import { brakePads } from '../shopping/renderShopping';

/**
 * Issue 35 point 3: a company member is told the break that applies and the next one by their own rule (the lower
 * of the list price and the company's), never a list saving their price already beats.
 */
describe('PriceBreaks', () => {
  const part = {
    ...brakePads(),
    price: 24.5,
    packSize: 1,
    priceTiers: [
      { __typename: 'PriceTier' as const, minUnits: 100, price: 22 },
      { __typename: 'PriceTier' as const, minUnits: 300, price: 20 },
    ],
  };

  it('a customer sees the list break that applies and the next list break', () => {
    render(<PriceBreaks part={part} amount={150} />);
    expect(screen.getByTestId('tier-applies')).toHaveTextContent('$22.00 per unit applies from 100 units.');
    expect(screen.getByTestId('next-tier')).toHaveTextContent(
      'Order 150 more (300 in all) and pay $20.00 per unit: $2.00 less each.',
    );
  });

  it('a member at $21.00 is promised no saving at 100 (list $22.00) but the one at 300, and no list break applies', () => {
    render(<PriceBreaks part={part} amount={40} company={{ fixed: { priceCents: 2100, priceTiers: [] } }} />);
    expect(screen.queryByTestId('tier-applies')).not.toBeInTheDocument();
    expect(screen.getByTestId('next-tier')).toHaveTextContent(
      'Order 260 more (300 in all) and pay $20.00 per unit: $1.00 less each.',
    );
  });

  it('a member whose own breaks go lower is told their next break', () => {
    const company = { fixed: { priceCents: 2100, priceTiers: [{ minUnits: 50, priceCents: 1800 }] } };
    render(<PriceBreaks part={part} amount={40} company={company} />);
    expect(screen.getByTestId('next-tier')).toHaveTextContent(
      'Order 10 more (50 in all) and pay $18.00 per unit: $3.00 less each.',
    );
  });
});
