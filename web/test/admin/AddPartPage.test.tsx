import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
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
