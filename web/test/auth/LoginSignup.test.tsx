import { MockedProvider } from '@apollo/client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { TestRouter } from '../support/TestRouter';
import LoginPage, { demoCustomer } from '../../src/features/auth/LoginPage';
import SignupPage from '../../src/features/auth/SignupPage';

const login = jest.fn();
const signup = jest.fn();
let demoMode = false;
let settingsReady = true;
let status: 'signedOut' | 'signedIn' = 'signedOut';

jest.mock('../../src/lib/auth', () => ({
  useAuth: () => ({ login, signup, loginWithGoogle: jest.fn(), status, user: null }),
}));
jest.mock('../../src/lib/clientSettings', () => ({
  useClientSettings: () => (settingsReady ? { demoMode, firebase: {}, payments: { mode: 'test' } } : null),
}));

function renderAt(path: string, from?: string) {
  return render(
    <MockedProvider mocks={[]}>
      <TestRouter initialEntries={[{ pathname: path, state: from ? { from: { pathname: from } } : null }]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/dashboard/my-orders" element={<p>Now at My Orders</p>} />
          <Route path="*" element={<p>Now at another page</p>} />
        </Routes>
      </TestRouter>
    </MockedProvider>,
  );
}

beforeEach(() => {
  login.mockReset();
  signup.mockReset();
  demoMode = false;
  settingsReady = true;
  status = 'signedOut';
});

describe('the login form', () => {
  it('shows the required messages', async () => {
    renderAt('/login');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(login).not.toHaveBeenCalled();
  });

  it('shows the email shape and password length messages', async () => {
    renderAt('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Provide a valid email')).toBeInTheDocument();
    expect(screen.getByText('Must be 6 characters or longer')).toBeInTheDocument();
  });

  it("shows the identity provider's message in red under the form", async () => {
    login.mockRejectedValue(
      Object.assign(new Error('Firebase: Error (auth/invalid-credential).'), { code: 'auth/invalid-credential' }),
    );
    renderAt('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'rider@example.test');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Wrong email or password.');
    expect(alert).toHaveClass('text-red-600');
  });

  it('returns to the page the guard came from after login', async () => {
    login.mockResolvedValue(undefined);
    renderAt('/login', '/dashboard/my-orders');
    await userEvent.type(screen.getByLabelText('Email'), 'rider@example.test');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Now at My Orders')).toBeInTheDocument();
    expect(login).toHaveBeenCalledWith('rider@example.test', 'secret1');
  });

  it('is prefilled with the demo customer in demo mode only', async () => {
    demoMode = true;
    renderAt('/login');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(demoCustomer.email));
    expect(screen.getByLabelText('Password')).toHaveValue(demoCustomer.password);
  });

  it('waits for the client settings: no form before them, then the demo customer in demo mode', async () => {
    demoMode = true;
    settingsReady = false;
    const page = () => (
      <MockedProvider mocks={[]}>
        <TestRouter initialEntries={['/login']}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
          </Routes>
        </TestRouter>
      </MockedProvider>
    );
    const { rerender } = render(page());
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    settingsReady = true; // the client settings arrive
    rerender(page());
    expect(screen.getByLabelText('Email')).toHaveValue(demoCustomer.email);
    expect(screen.getByLabelText('Password')).toHaveValue(demoCustomer.password);
  });
});

describe('a visitor who is signed in already (issue 16)', () => {
  it.each(['/login', '/signup'])('%s sends them on to where they were going, without a form', (path) => {
    status = 'signedIn';
    renderAt(path, '/dashboard/my-orders');
    expect(screen.getByText('Now at My Orders')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it.each(['/login', '/signup'])('%s sends them to / when they came straight to it', (path) => {
    status = 'signedIn';
    renderAt(path);
    expect(screen.getByText('Now at another page')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});

describe('the signup form', () => {
  it('shows the name messages', async () => {
    renderAt('/signup');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'R2-D2 <script>');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Provide a valid name')).toBeInTheDocument();
    expect(signup).not.toHaveBeenCalled();
  });

  it('signs up with an accented name', async () => {
    signup.mockResolvedValue(undefined);
    renderAt('/signup');
    await userEvent.type(screen.getByLabelText('Name'), "Zoë O'Brien-Ñúñez");
    await userEvent.type(screen.getByLabelText('Email'), 'zoe@example.test');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(signup).toHaveBeenCalledWith("Zoë O'Brien-Ñúñez", 'zoe@example.test', 'secret1'));
  });
});
