import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompaniesPage from '../../src/features/companies/CompaniesPage';
import { CompaniesDocument } from '../../src/generated/companies';
import { renderAdmin } from '../admin/renderAdmin';

const summary = (id: string, name: string, taxId: string, memberCount: number) => ({
  __typename: 'CompanySummary' as const,
  id,
  name,
  taxId,
  memberCount,
});

const page = (search: string | null, items: ReturnType<typeof summary>[]) => ({
  request: { query: CompaniesDocument, variables: { search, offset: 0, limit: 20 } },
  result: { data: { companies: { __typename: 'CompanyPage', items, total: items.length } } },
});

describe('Companies (shop admins)', () => {
  it('lists every company with its tax number and members, each linking to its page, and searches', async () => {
    renderAdmin(
      <CompaniesPage />,
      [
        page(null, [summary('c1', 'Moto Works Ltd', 'GB123456789', 2), summary('c2', 'Rider Dealers', 'DE-99', 5)]),
        page('rider', [summary('c2', 'Rider Dealers', 'DE-99', 5)]),
      ],
      '/dashboard/companies',
    );
    const link = await screen.findByRole('link', { name: 'Moto Works Ltd' });
    expect(link).toHaveAttribute('href', '/dashboard/companies/c1');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('GB123456789')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(screen.getAllByTestId('company-row')).toHaveLength(2);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search companies' }), 'rider');
    expect(await screen.findByText('1', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.getAllByTestId('company-row')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Rider Dealers' })).toBeInTheDocument();
  });

  it('says so when no company matches', async () => {
    renderAdmin(<CompaniesPage />, [page('zzz', [])], '/dashboard/companies?q=zzz');
    expect(await screen.findByText('No companies match "zzz".')).toBeInTheDocument();
  });
});
