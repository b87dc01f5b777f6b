import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import MyCompanyPage from '../../src/features/companies/MyCompanyPage';
import {
  AcceptCompanyInvitationDocument,
  CreateCompanyDocument,
  DeclineCompanyInvitationDocument,
  MyCompanyDocument,
  SetCompanyMemberRoleDocument,
} from '../../src/generated/companies';
import { polyfillDialog, renderAdmin } from '../admin/renderAdmin';
import { approvals, company, invitationToMe, member, noInvoicing } from './fixtures';

const myCompany = (mine: unknown, invitations: unknown[] = []) => ({
  request: { query: MyCompanyDocument, variables: {} },
  result: { data: { myCompany: mine, myCompanyInvitations: invitations } },
});

beforeAll(polyfillDialog);

describe('My Company', () => {
  it("creating a company shows the server's messages under their fields, tied to them", async () => {
    renderAdmin(<MyCompanyPage />, [
      ...noInvoicing(),
      myCompany(null),
      {
        request: { query: CreateCompanyDocument, variables: { input: { name: 'Moto Works Ltd', taxId: 'GB#1' } } },
        result: {
          errors: [
            new GraphQLError('Invalid input', {
              extensions: {
                code: 'BAD_USER_INPUT',
                fields: { taxId: 'A tax number is 1 to 50 letters, digits, spaces, dots, dashes or slashes' },
              },
            }),
          ],
        },
      },
    ]);
    await userEvent.type(await screen.findByLabelText('Company name'), '  Moto Works Ltd ');
    await userEvent.type(screen.getByLabelText('Tax number'), 'GB#1');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    const message = await screen.findByText('A tax number is 1 to 50 letters, digits, spaces, dots, dashes or slashes');
    const field = screen.getByLabelText('Tax number');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', message.id);
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.getByLabelText('Company name')).not.toHaveAttribute('aria-invalid');
  });

  it('a company created shows at once, with its creator as company admin', async () => {
    const created = company({
      addresses: [],
      members: [member('u1', 'Ada Owner', 'ada@example.test', 'COMPANY_ADMIN')],
    });
    renderAdmin(<MyCompanyPage />, [
      ...noInvoicing(),
      myCompany(null),
      {
        request: {
          query: CreateCompanyDocument,
          variables: { input: { name: 'Moto Works Ltd', taxId: 'GB123456789' } },
        },
        result: { data: { createCompany: created } },
      },
      approvals([]),
    ]);
    await userEvent.type(await screen.findByLabelText('Company name'), 'Moto Works Ltd');
    await userEvent.type(screen.getByLabelText('Tax number'), 'GB123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByRole('heading', { name: 'My Company: Moto Works Ltd' })).toBeInTheDocument();
    expect(screen.getByText('Company admin', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send invitation' })).toBeInTheDocument();
  });

  it('an invitation to my address is accepted: I see the company as a buyer, without its members', async () => {
    const joined = company({ myRole: 'BUYER', members: [], invitations: [] });
    renderAdmin(<MyCompanyPage />, [
      ...noInvoicing(),
      myCompany(null, [invitationToMe]),
      {
        request: { query: AcceptCompanyInvitationDocument, variables: { id: 'i1' } },
        result: { data: { acceptCompanyInvitation: joined } },
      },
    ]);
    const invitation = await screen.findByTestId('my-invitation');
    expect(invitation).toHaveTextContent('Moto Works Ltd invites you as buyer');
    await userEvent.click(
      within(invitation).getByRole('button', { name: 'Accept the invitation from Moto Works Ltd' }),
    );
    expect(await screen.findByText('You joined Moto Works Ltd.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'My Company: Moto Works Ltd' })).toBeInTheDocument();
    expect(screen.getByText('12 Harbour Road', { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Members' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove the address/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave company' })).toBeInTheDocument();
  });

  it('an invitation declined goes away', async () => {
    renderAdmin(<MyCompanyPage />, [
      ...noInvoicing(),
      myCompany(null, [invitationToMe]),
      {
        request: { query: DeclineCompanyInvitationDocument, variables: { id: 'i1' } },
        result: {
          data: { declineCompanyInvitation: { __typename: 'CompanyInvitation', id: 'i1', status: 'DECLINED' } },
        },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Decline the invitation from Moto Works Ltd' }));
    expect(await screen.findByText('Invitation from Moto Works Ltd declined.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('my-invitation')).not.toBeInTheDocument());
    expect(screen.getByText(/No invitations for you/)).toBeInTheDocument();
  });

  it('a company admin changes a member’s role; the last admin refused by the server is toasted and kept', async () => {
    const promoted = company({
      members: [
        member('u1', 'Ada Owner', 'ada@example.test', 'COMPANY_ADMIN'),
        member('u2', 'Ben Buyer', 'ben@example.test', 'COMPANY_ADMIN'),
      ],
    });
    renderAdmin(<MyCompanyPage />, [
      ...noInvoicing(),
      myCompany(company()),
      approvals([]),
      {
        request: { query: SetCompanyMemberRoleDocument, variables: { id: 'c1', userId: 'u2', role: 'COMPANY_ADMIN' } },
        result: { data: { setCompanyMemberRole: promoted } },
      },
      {
        request: { query: SetCompanyMemberRoleDocument, variables: { id: 'c1', userId: 'u1', role: 'BUYER' } },
        result: {
          errors: [
            new GraphQLError('A company needs a company admin: make another member company admin first', {
              extensions: { code: 'CONFLICT' },
            }),
          ],
        },
      },
    ]);
    const benRole = await screen.findByLabelText('Role of Ben Buyer');
    expect(benRole).toHaveValue('BUYER');
    await userEvent.selectOptions(benRole, 'COMPANY_ADMIN');
    expect(await screen.findByText('Ben Buyer is now company admin.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Role of Ben Buyer')).toHaveValue('COMPANY_ADMIN'));

    await userEvent.selectOptions(screen.getByLabelText('Role of Ada Owner'), 'BUYER');
    expect(
      await screen.findByText('A company needs a company admin: make another member company admin first'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Role of Ada Owner')).toHaveValue('COMPANY_ADMIN'));
  });
});
