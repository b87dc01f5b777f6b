import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import MyCompanyPage from '../../src/features/companies/MyCompanyPage';
import { limitNotAmount } from '../../src/features/companies/companyForms';
import {
  ApproveCheckoutDocument,
  DeclineCheckoutDocument,
  MyCompanyDocument,
  SetCompanyBuyerLimitDocument,
} from '../../src/generated/companies';
import { polyfillDialog, renderAdmin } from '../admin/renderAdmin';
import { approvals, awaiting, company, member } from './fixtures';

const myCompany = (mine: unknown) => ({
  request: { query: MyCompanyDocument, variables: {} },
  result: { data: { myCompany: mine, myCompanyInvitations: [] } },
});

beforeAll(polyfillDialog);

describe('Approvals on My Company (issue 35 point 2)', () => {
  it("a buyer's limit per order: a bad amount is refused under the field, the server's message too, and a good one saved", async () => {
    const limited = company({
      members: [
        member('u1', 'Ada Owner', 'ada@example.test', 'COMPANY_ADMIN'),
        member('u2', 'Ben Buyer', 'ben@example.test', 'BUYER', 250),
      ],
    });
    renderAdmin(<MyCompanyPage />, [
      myCompany(company()),
      approvals([]),
      {
        request: { query: SetCompanyBuyerLimitDocument, variables: { id: 'c1', userId: 'u2', orderLimit: 0 } },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: {
                code: 'BAD_USER_INPUT',
                fields: { orderLimit: 'A limit per order is an amount in dollars and cents from $0.01 to $999,999.99' },
              },
            }),
          ],
        },
      },
      {
        request: { query: SetCompanyBuyerLimitDocument, variables: { id: 'c1', userId: 'u2', orderLimit: 250 } },
        result: { data: { setCompanyBuyerLimit: limited } },
      },
    ]);
    const buyerRow = (await screen.findByText('Ben Buyer')).closest('tr') as HTMLElement;
    // A company admin has no limit: only buyers get the field.
    const adminRow = screen.getByText('Ada Owner').closest('tr') as HTMLElement;
    expect(within(adminRow).queryByLabelText('Limit per order ($)')).toBeNull();
    const field = within(buyerRow).getByLabelText('Limit per order ($)');
    const save = within(buyerRow).getByRole('button', { name: 'Save limit of Ben Buyer' });

    await userEvent.type(field, 'ten');
    await userEvent.click(save);
    const local = await within(buyerRow).findByText(limitNotAmount);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', local.id);

    await userEvent.clear(field);
    await userEvent.type(field, '0');
    await userEvent.click(save);
    const server = await within(buyerRow).findByText(
      'A limit per order is an amount in dollars and cents from $0.01 to $999,999.99',
    );
    expect(field).toHaveAttribute('aria-describedby', server.id);
    await waitFor(() => expect(field).toHaveFocus());

    await userEvent.clear(field);
    await userEvent.type(field, '250');
    await userEvent.click(save);
    expect(await screen.findByText("Ben Buyer's limit per order is saved.")).toBeInTheDocument();
    await waitFor(() => expect(within(buyerRow).getByLabelText('Limit per order ($)')).toHaveValue('250.00'));
    expect(within(buyerRow).getByLabelText('Limit per order ($)')).not.toHaveAttribute('aria-invalid');
  });

  it('a company admin sees the checkouts awaiting approval and approves one; a decision that came second is told', async () => {
    const first = awaiting('k1', 'Ben Buyer', 320);
    const second = awaiting('k2', 'Cat Buyer', 150);
    renderAdmin(<MyCompanyPage />, [
      myCompany(company()),
      approvals([first, second]),
      {
        request: { query: ApproveCheckoutDocument, variables: { id: 'k1' } },
        result: { data: { approveCheckout: { __typename: 'AwaitingApproval', id: 'k1' } } },
      },
      approvals([second]),
      {
        request: { query: ApproveCheckoutDocument, variables: { id: 'k2' } },
        result: {
          errors: [
            new GraphQLError('This order was declined already: its parts went back on sale', {
              extensions: { code: 'CONFLICT' },
            }),
          ],
        },
      },
      approvals([]),
    ]);
    const section = await screen.findByRole('region', { name: 'Awaiting approval' });
    const items = await within(section).findAllByTestId('awaiting-approval');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Ben Buyer: $320.00 (their limit: $100.00)');
    expect(items[0]).toHaveTextContent('2 × Brake pads at $160.00');
    await userEvent.click(
      within(items[0]).getByRole('button', { name: /^Approve the order of \$320.00 by Ben Buyer/ }),
    );
    expect(await screen.findByText('Approved: Ben Buyer can pay for it now.')).toBeInTheDocument();
    await waitFor(() => expect(within(section).getAllByTestId('awaiting-approval')).toHaveLength(1));
    await userEvent.click(within(section).getByRole('button', { name: /^Approve/ }));
    expect(await screen.findByText('This order was declined already: its parts went back on sale')).toBeInTheDocument();
    expect(await within(section).findByText('No orders await your approval.')).toBeInTheDocument();
  });

  it('Decline asks first, then declines', async () => {
    const one = awaiting('k1', 'Ben Buyer', 320);
    renderAdmin(<MyCompanyPage />, [
      myCompany(company()),
      approvals([one]),
      {
        request: { query: DeclineCheckoutDocument, variables: { id: 'k1' } },
        result: { data: { declineCheckout: { __typename: 'AwaitingApproval', id: 'k1' } } },
      },
      approvals([]),
    ]);
    const item = await screen.findByTestId('awaiting-approval');
    await userEvent.click(within(item).getByRole('button', { name: /^Decline/ }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Decline this order?');
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline order' }));
    expect(await screen.findByText('Declined: its parts went back on sale and Ben Buyer is told.')).toBeInTheDocument();
    expect(await screen.findByText('No orders await your approval.')).toBeInTheDocument();
  });

  it('a buyer sees neither limits nor approvals', async () => {
    renderAdmin(<MyCompanyPage />, [myCompany(company({ myRole: 'BUYER', members: [], invitations: [] }))]);
    expect(await screen.findByRole('heading', { name: 'My Company: Moto Works Ltd' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Awaiting approval' })).toBeNull();
    expect(screen.queryByLabelText('Limit per order ($)')).toBeNull();
  });
});
