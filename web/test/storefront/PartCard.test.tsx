import userEvent from '@testing-library/user-event';
import { render, screen } from '@testing-library/react';
import { MockedProvider } from '@apollo/client/testing';
import { TestRouter } from '../support/TestRouter';
import { PartCard } from '../../src/components/PartCard';
import { part } from './renderStorefront';

const longName = 'Adjustable Rear Shock Absorber 320 mm with Remote Preload Knob';
const longDescription =
  'Gas-charged rear shock with 10-step preload and rebound adjustment, 320 mm eye to eye, for naked and touring bikes.';

const renderCard = (overrides: Parameters<typeof part>[1]) =>
  render(
    <MockedProvider mocks={[]}>
      <TestRouter>
        <PartCard part={part(7, overrides)} />
      </TestRouter>
    </MockedProvider>,
  );

describe('PartCard', () => {
  it("cuts the name to 40 characters and the description to 70, each followed by '...'", () => {
    renderCard({ name: longName, description: longDescription });
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent(`${longName.slice(0, 40)}...`);
    expect(screen.getByText(`${longDescription.slice(0, 70)}...`)).toBeInTheDocument();
    expect(screen.queryByText(longDescription)).not.toBeInTheDocument();
  });

  it('leaves a short name and description whole', () => {
    renderCard({ name: 'Iridium Spark Plug CR9EIX', description: 'Long-life iridium plug.' });
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent(/^Iridium Spark Plug CR9EIX$/);
    expect(screen.getByText('Long-life iridium plug.')).toBeInTheDocument();
  });

  it("shows the price with a '$' prefix, Minimum Order and Available with their numbers", () => {
    renderCard({ price: 24.5, minOrder: 20, available: 640 });
    expect(screen.getByText('$24.50')).toBeInTheDocument();
    expect(screen.getByText('Minimum Order').nextElementSibling).toHaveTextContent('20');
    expect(screen.getByText('Available').nextElementSibling).toHaveTextContent('640');
  });

  it('links Purchase to /purchase/{id}', () => {
    renderCard({ id: '0b5c7a52-9a44-4a4e-9a1e-6a4f0e3f1a01', name: 'Steel Rear Sprocket' });
    const link = screen.getByRole('link', { name: /^Purchase/ });
    expect(link).toHaveAttribute('href', '/purchase/0b5c7a52-9a44-4a4e-9a1e-6a4f0e3f1a01');
    expect(link).toHaveAccessibleName('Purchase Steel Rear Sprocket');
  });

  it('loads its image lazily, with a size and the part name as alt text', () => {
    renderCard({ name: 'O-Ring Drive Chain', image: '/images/parts/chain.svg' });
    const img = screen.getByRole('img', { name: 'O-Ring Drive Chain' });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('width');
    expect(img).toHaveAttribute('height');
    expect(img).toHaveAttribute('src', '/images/parts/chain.svg');
  });

  it('shows its cheapest quantity break as "from $P at N+"', () => {
    renderCard({
      price: 10,
      priceTiers: [
        { minUnits: 50, price: 9 },
        { minUnits: 100, price: 8.5 },
      ],
    });
    expect(screen.getByTestId('from-tier')).toHaveTextContent('from $8.50 at 100+');
  });

  it('has an Add to cart button named after the part, which puts its smallest order in a visitor cart', async () => {
    localStorage.clear();
    renderCard({ id: 'p-cart', name: 'Chain Lube', minOrder: 6, packSize: 4 });
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart Chain Lube' }));
    const stored = JSON.parse(localStorage.getItem('partsyard.cart') ?? '[]') as { partId: string; amount: number }[];
    expect(stored.map((l) => [l.partId, l.amount])).toEqual([['p-cart', 8]]);
  });
});
