import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../src/lib/auth';
import MyProfilePage from '../../src/features/profile/MyProfilePage';
import { MeDocument, UpdateProfileDocument } from '../../src/generated/graphql';
import { customer, renderShopping, signedInAs } from './renderShopping';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));

const me = (overrides = {}) => ({
  __typename: 'User' as const,
  id: 'u1',
  email: customer.email,
  name: customer.displayName,
  avatar: '',
  phone: '',
  education: '',
  location: '',
  linkedIn: '',
  role: 'CUSTOMER' as const,
  isAdmin: false,
  emailVerified: true,
  ...overrides,
});
const meAnswer = (user = me()) => ({ request: { query: MeDocument, variables: {} }, result: { data: { me: user } } });

beforeEach(() => jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>));

describe('My Profile', () => {
  it("greets the user, shows the default avatar and the spec's placeholders for empty fields", async () => {
    renderShopping(<MyProfilePage />, [meAnswer()], '/dashboard');
    expect(await screen.findByText('Hello, Rita Rider')).toBeInTheDocument();
    expect(screen.getByRole('img')).toHaveAttribute('src', '/images/avatars/default.svg');
    expect(screen.getByText('Full Name')).toBeInTheDocument();
    expect(screen.getByText(customer.email)).toBeInTheDocument();
    expect(screen.getByText('Please provide phone number')).toBeInTheDocument();
    expect(screen.getByText('Please provide your education')).toBeInTheDocument();
    expect(screen.getByText('Please provide your location')).toBeInTheDocument();
  });

  it("Edit profile opens the form; Update Info saves, toasts 'Profile updated.' and the view refreshes", async () => {
    const input = { phone: '01712345678', education: 'BUET', location: 'Dhaka', linkedIn: '' };
    renderShopping(
      <MyProfilePage />,
      [
        meAnswer(),
        {
          request: { query: UpdateProfileDocument, variables: { input } },
          result: { data: { updateProfile: me(input) } },
        },
      ],
      '/dashboard',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    await userEvent.type(screen.getByLabelText('Phone'), input.phone);
    await userEvent.type(screen.getByLabelText('Education'), input.education);
    await userEvent.type(screen.getByLabelText('Location'), input.location);
    expect(screen.getByLabelText('LinkedIn')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Update Info' }));
    expect(await screen.findByText('Profile updated.')).toBeInTheDocument();
    expect(await screen.findByText('01712345678')).toBeInTheDocument();
    expect(screen.getByText('BUET')).toBeInTheDocument();
    expect(screen.queryByText('Please provide phone number')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update Info' })).not.toBeInTheDocument();
  });
});
