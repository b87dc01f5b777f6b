import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { cleanup, render, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { TestRouter } from '../support/TestRouter';
import { useAuth } from '../../src/lib/auth';
import { RequireAdmin, RequireAuth } from '../../src/app/guards';
import { MeDocument } from '../../src/generated/graphql';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));

const me = (isAdmin: boolean) => ({
  request: { query: MeDocument, variables: {} },
  result: {
    data: {
      me: {
        __typename: 'User',
        id: 'u1',
        email: 'rider@example.test',
        name: 'Rider',
        avatar: '',
        phone: '',
        education: '',
        location: '',
        linkedIn: '',
        role: isAdmin ? 'ADMIN' : 'CUSTOMER',
        isAdmin,
        emailVerified: true,
      },
    },
  },
});

function LoginPage() {
  const location = useLocation();
  const state = location.state as { from?: { pathname: string }; adminOnly?: boolean } | null;
  return (
    <>
      <p>login page, back to {state?.from?.pathname}</p>
      {state?.adminOnly ? <p>marked: admins only</p> : null}
    </>
  );
}

function renderAt(status: string, mocks: MockedResponse[], guard: 'auth' | 'admin') {
  jest.mocked(useAuth).mockReturnValue({ status } as unknown as ReturnType<typeof useAuth>);
  const Guard = guard === 'auth' ? RequireAuth : RequireAdmin;
  return render(
    <MockedProvider mocks={mocks}>
      <TestRouter initialEntries={['/dashboard/users']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route
            path="/dashboard/users"
            element={
              <Guard>
                <p>the protected page</p>
              </Guard>
            }
          />
        </Routes>
      </TestRouter>
    </MockedProvider>,
  );
}

describe('the route guards (spec §2)', () => {
  it('RequireAuth: a spinner while sign-in state loads, the page when signed in, /login with the origin when not', async () => {
    const { unmount } = renderAt('loading', [], 'auth');
    expect(screen.getByRole('status')).toBeInTheDocument();
    unmount();
    renderAt('signedIn', [], 'auth').unmount();
    renderAt('signedOut', [], 'auth');
    expect(screen.getByText('login page, back to /dashboard/users')).toBeInTheDocument();
  });

  it('RequireAdmin: an admin sees the page', async () => {
    renderAt('signedIn', [me(true)], 'admin');
    expect(screen.getByRole('status')).toBeInTheDocument(); // while the server says who this is
    expect(await screen.findByText('the protected page')).toBeInTheDocument();
  });

  it('RequireAdmin: a customer goes to /login carrying where they were', async () => {
    renderAt('signedIn', [me(false)], 'admin');
    expect(await screen.findByText('login page, back to /dashboard/users')).toBeInTheDocument();
    expect(screen.queryByText('the protected page')).not.toBeInTheDocument();
  });

  it('RequireAdmin: a customer arrives at /login marked as refused for not being an admin; a visitor does not', async () => {
    renderAt('signedIn', [me(false)], 'admin');
    expect(await screen.findByText('marked: admins only')).toBeInTheDocument();
    cleanup();
    renderAt('signedOut', [], 'admin');
    expect(screen.getByText('login page, back to /dashboard/users')).toBeInTheDocument();
    expect(screen.queryByText('marked: admins only')).not.toBeInTheDocument();
  });

  it('RequireAdmin: a visitor goes to /login carrying where they were', () => {
    renderAt('signedOut', [], 'admin');
    expect(screen.getByText('login page, back to /dashboard/users')).toBeInTheDocument();
  });
});
