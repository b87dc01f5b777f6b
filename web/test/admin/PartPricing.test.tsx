import { pricingMessages } from '@partsyard/common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ManagePartsPage from '../../src/features/admin/ManagePartsPage';
import { CatalogDocument, SetPartPricingDocument } from '../../src/generated/graphql';
import { polyfillDialog, renderAdmin } from './renderAdmin';

/** Issue 14: a part's quantity breaks and pack size are edited from Manage Parts (setPartPricing). */

const tier = (minUnits: number, price: number) => ({ __typename: 'PriceTier' as const, minUnits, price });

const chain = {
  __typename: 'Part' as const,
  id: '7d4c7a52-0000-4000-8000-000000000001',
  name: 'Heavy-duty O-ring drive chain',
  description: 'A part',
  image: '/images/parts/chain.svg',
  price: 12.5,
  minOrder: 10,
  available: 300,
  priceTiers: [tier(50, 11)],
  packSize: 10,
};

const catalog = {
  request: { query: CatalogDocument, variables: { search: null, offset: 0, limit: 20 } },
  result: { data: { parts: { __typename: 'PartPage', items: [chain], total: 1, offset: 0, limit: 20 } } },
};

beforeAll(polyfillDialog);

async function openPricing() {
  await screen.findByText('Heavy-duty O-ring dr...');
  await userEvent.click(screen.getByRole('button', { name: `Pricing of ${chain.name}` }));
  const dialog = screen.getByRole('dialog');
  expect(within(dialog).getByRole('heading')).toHaveTextContent(`Pricing of ${chain.name}`);
  return dialog;
}

describe('Manage Parts: pricing', () => {
  it('Pricing shows the part’s breaks and pack size; saving sends them as edited', async () => {
    const priceTiers = [
      { minUnits: 50, price: 11 },
      { minUnits: 200, price: 9.75 },
    ];
    renderAdmin(<ManagePartsPage />, [
      catalog,
      {
        request: { query: SetPartPricingDocument, variables: { id: chain.id, priceTiers, packSize: 10 } },
        result: {
          data: { setPartPricing: { ...chain, priceTiers: priceTiers.map((t) => tier(t.minUnits, t.price)) } },
        },
      },
    ]);
    const dialog = await openPricing();
    expect(within(dialog).getByLabelText('Break 1: from units')).toHaveValue(50);
    expect(within(dialog).getByLabelText('Unit price ($)')).toHaveValue(11);
    expect(within(dialog).getByLabelText('Sold in packs of')).toHaveValue(10);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add a quantity break' }));
    await userEvent.type(within(dialog).getByLabelText('Break 2: from units'), '200');
    await userEvent.type(within(dialog).getAllByLabelText('Unit price ($)')[1], '9.75');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save pricing' }));
    expect(await screen.findByText('Pricing saved.')).toBeInTheDocument();
    // The dialog closes as a dialog does (its close event, so the page is no longer inert), and focus goes back
    // to the Pricing button that opened it, as after the other dialogs.
    await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Pricing of ${chain.name}` })).toHaveFocus();
  });

  it('Cancel closes the dialog without saving and gives focus back to the Pricing button', async () => {
    renderAdmin(<ManagePartsPage />, [catalog]);
    const dialog = await openPricing();
    expect(within(dialog).getByRole('button', { name: 'Save pricing' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
    expect(screen.getByRole('button', { name: `Pricing of ${chain.name}` })).toHaveFocus();
    // Opened again, it shows the part's pricing afresh.
    const again = await openPricing();
    expect(within(again).getByLabelText('Break 1: from units')).toHaveValue(50);
  });

  it('a break not cheaper than the one before is refused with the rule’s message, and nothing is sent', async () => {
    renderAdmin(<ManagePartsPage />, [catalog]);
    const dialog = await openPricing();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add a quantity break' }));
    await userEvent.type(within(dialog).getByLabelText('Break 2: from units'), '100');
    await userEvent.type(within(dialog).getAllByLabelText('Unit price ($)')[1], '11');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save pricing' }));
    const message = await within(dialog).findByText(pricingMessages.tierPriceNotLower);
    // Tied to its field and announced, as every form's messages are (ShopForm's FieldFrame).
    const price = within(dialog).getAllByLabelText('Unit price ($)')[1];
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(price).toHaveAccessibleDescription(pricingMessages.tierPriceNotLower);
    expect(message).toHaveAttribute('aria-live', 'polite');
    // Focus goes to the field in error, as after any form's refused submit.
    await waitFor(() => expect(price).toHaveFocus());
    expect(screen.queryByText('Pricing saved.')).not.toBeInTheDocument();
    expect(dialog).toHaveAttribute('open');
  });
});
