import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { Route, Routes } from 'react-router-dom';
import CompanyAdminPage from '../../src/features/companies/CompanyAdminPage';
import {
  CompanyDocument,
  CompanyPriceListDocument,
  InviteToCompanyDocument,
  RemoveCompanyMemberDocument,
} from '../../src/generated/companies';
import { polyfillDialog, renderAdmin } from '../admin/renderAdmin';
import { approvals, company, member, noInvoicing } from './fixtures';

const asShopAdmin = company({ myRole: null });
const companyAnswer = (answer: unknown) => ({
  request: { query: CompanyDocument, variables: { id: 'c1' } },
  result: { data: { company: answer } },
});

/** The company's price list (an empty one) under its details. */
const emptyPriceList = {
  request: { query: CompanyPriceListDocument, variables: { id: 'c1', offset: 0, limit: 50 } },
  result: {
    data: {
      companyPriceList: { __typename: 'CompanyPricePage', companyId: 'c1', percentOff: null, total: 0, items: [] },
    },
  },
};

const renderPage = (mocks: Parameters<typeof renderAdmin>[1]) =>
  renderAdmin(
    <Routes>
      <Route path="/dashboard/companies/:companyId" element={<CompanyAdminPage />} />
    </Routes>,
    // The company's approvals list (issue 35 point 2: none waiting here) and its price list show too.
    [...noInvoicing(), ...mocks, approvals([]), approvals([]), emptyPriceList],
    '/dashboard/companies/c1',
  );

beforeAll(polyfillDialog);

describe("A company's page (shop admins)", () => {
  it('a shop admin removes a member after confirming, naming them', async () => {
    renderPage([
      companyAnswer(asShopAdmin),
      {
        request: { query: RemoveCompanyMemberDocument, variables: { id: 'c1', userId: 'u2' } },
        result: {
          data: {
            removeCompanyMember: company({
              myRole: null,
              members: [member('u1', 'Ada Owner', 'ada@example.test', 'COMPANY_ADMIN')],
            }),
          },
        },
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Moto Works Ltd' })).toBeInTheDocument();
    expect(screen.queryByText('Your role')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave company' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Ben Buyer from the company' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this member?' });
    expect(dialog).toHaveTextContent('Ben Buyer no longer buys for Moto Works Ltd, at once.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Member removed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('member-row')).toHaveLength(1));
  });

  it('an invitation the server refuses shows its message under the email field', async () => {
    renderPage([
      companyAnswer(asShopAdmin),
      {
        request: {
          query: InviteToCompanyDocument,
          variables: { id: 'c1', email: 'ben@example.test', role: 'COMPANY_ADMIN' },
        },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: {
                code: 'BAD_USER_INPUT',
                fields: { email: 'The account with this address is a member of the company already' },
              },
            }),
          ],
        },
      },
    ]);
    await userEvent.type(await screen.findByLabelText('Email address'), 'ben@example.test');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'COMPANY_ADMIN');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    const message = await screen.findByText('The account with this address is a member of the company already');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-describedby', message.id);
  });

  it('an unknown company says so', async () => {
    renderPage([
      {
        request: { query: CompanyDocument, variables: { id: 'c1' } },
        result: { errors: [new GraphQLError('Company not found', { extensions: { code: 'NOT_FOUND' } })] },
      },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no such company.');
    expect(screen.getByRole('link', { name: 'All companies' })).toHaveAttribute('href', '/dashboard/companies');
  });
});
