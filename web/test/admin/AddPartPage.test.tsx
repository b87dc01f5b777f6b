import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { pricingMessages } from '@partsyard/common';
import AddPartPage from '../../src/features/admin/AddPartPage';
import { AddPartDocument } from '../../src/generated/graphql';
import { renderAdmin } from './renderAdmin';

const input = {
  name: 'Steel brake line',
  price: 18.5,
  image: '/images/parts/brake-line.svg',
  minOrder: 5,
  available: 120,
  description: 'Braided steel brake line.',
};

async function fillForm() {
  await userEvent.type(screen.getByLabelText('Part Name'), input.name);
  await userEvent.type(screen.getByLabelText('Price'), String(input.price));
  await userEvent.type(screen.getByLabelText('Part Image URL'), input.image);
  await userEvent.type(screen.getByLabelText('Minimum order'), String(input.minOrder));
  await userEvent.type(screen.getByLabelText('Available parts'), String(input.available));
  await userEvent.type(screen.getByLabelText('Description'), input.description);
}

describe('Add A Part', () => {
  it("submitting empty shows the shared rules' messages word for word", async () => {
    renderAdmin(<AddPartPage />, []);
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText("The part's name is required")).toBeInTheDocument();
    expect(screen.getByText('Price is required')).toBeInTheDocument();
    expect(screen.getByText("Available amount can't be empty")).toBeInTheDocument();
    // Minimum order and Description share the spec's text.
    expect(screen.getAllByText("Order can't be empty")).toHaveLength(2);
  });

  it('an image that is not an http(s) or /images/ address is refused', async () => {
    renderAdmin(<AddPartPage />, []);
    await userEvent.type(screen.getByLabelText('Part Image URL'), 'javascript:alert(1)');
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText('Provide an http(s) image URL')).toBeInTheDocument();
  });

  it('a valid part is added: toast, and the form is empty again', async () => {
    renderAdmin(<AddPartPage />, [
      {
        request: { query: AddPartDocument, variables: { input: { ...input, priceTiers: [], packSize: 1 } } },
        result: { data: { addPart: { __typename: 'Part', id: 'p-new', ...input, priceTiers: [], packSize: 1 } } },
      },
    ]);
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText('Part added.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Part Name')).toHaveValue(''));
    expect(screen.getByLabelText('Description')).toHaveValue('');
  });

  it('quantity breaks and a pack size typed in the form are sent with the part', async () => {
    const priceTiers = [
      { minUnits: 20, price: 17 },
      { minUnits: 100, price: 15.5 },
    ];
    renderAdmin(<AddPartPage />, [
      {
        request: { query: AddPartDocument, variables: { input: { ...input, priceTiers, packSize: 5 } } },
        result: { data: { addPart: { __typename: 'Part', id: 'p-new', ...input, priceTiers, packSize: 5 } } },
      },
    ]);
    await fillForm();
    expect(screen.getByText('No quantity breaks: one price for any amount.')).toBeInTheDocument();
    for (const [i, tier] of priceTiers.entries()) {
      await userEvent.click(screen.getByRole('button', { name: 'Add a quantity break' }));
      await userEvent.type(screen.getByLabelText(`Break ${i + 1}: from units`), String(tier.minUnits));
      await userEvent.type(screen.getAllByLabelText('Unit price ($)')[i], String(tier.price));
    }
    await userEvent.clear(screen.getByLabelText('Sold in packs of'));
    await userEvent.type(screen.getByLabelText('Sold in packs of'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText('Part added.')).toBeInTheDocument();
    // The form, breaks included, is empty again.
    await waitFor(() => expect(screen.queryAllByTestId('tier-row')).toHaveLength(0));
    expect(screen.getByLabelText('Sold in packs of')).toHaveValue(1);
  });

  it('a break that does not cost less than the price is refused with the rule’s message, and nothing is sent', async () => {
    renderAdmin(<AddPartPage />, []);
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add a quantity break' }));
    await userEvent.type(screen.getByLabelText('Break 1: from units'), '2');
    await userEvent.type(screen.getByLabelText('Unit price ($)'), '18.5');
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText(pricingMessages.tierPriceNotLower)).toBeInTheDocument();
    expect(screen.getByText(pricingMessages.tierUnitsTooFew(5))).toBeInTheDocument();
    expect(screen.queryByText('Part added.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Part Name')).toHaveValue(input.name);
  });

  it("the server's per-field messages show under the fields", async () => {
    renderAdmin(<AddPartPage />, [
      {
        request: { query: AddPartDocument, variables: { input: { ...input, priceTiers: [], packSize: 1 } } },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: { code: 'BAD_USER_INPUT', fields: { name: 'A part with this name exists' } },
            }),
          ],
        },
      },
    ]);
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add part' }));
    expect(await screen.findByText('A part with this name exists')).toBeInTheDocument();
    expect(screen.getByText('Invalid input')).toBeInTheDocument();
    expect(screen.getByLabelText('Part Name')).toHaveValue(input.name);
  });
});
