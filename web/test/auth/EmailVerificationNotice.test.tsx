import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-hot-toast/headless';
import { Toasts } from '../../src/components/Toasts';
import { useAuth } from '../../src/lib/auth';
import { EmailVerificationNotice } from '../../src/features/auth/EmailVerificationNotice';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));

const sendVerificationEmail = jest.fn(async () => {});
const checkVerification = jest.fn(async () => false);

function signedIn(emailVerified: boolean, status = 'signedIn') {
  jest.mocked(useAuth).mockReturnValue({
    status,
    user: { uid: 'u1', email: 'new@example.test', emailVerified, displayName: 'Nia', photoURL: '' },
    sendVerificationEmail,
    checkVerification,
  } as unknown as ReturnType<typeof useAuth>);
}

const renderNotice = () => {
  toast.remove();
  return render(
    <>
      <EmailVerificationNotice />
      <Toasts />
    </>,
  );
};

describe('the email verification notice', () => {
  beforeEach(() => {
    sendVerificationEmail.mockClear();
    checkVerification.mockReset();
  });

  it('says so when the signed-in user has not verified their email, and offers the verification email', async () => {
    signedIn(false);
    renderNotice();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your email address new@example.test is not verified yet. You can shop as you are',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send verification email' }));
    expect(sendVerificationEmail).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent(
      'We sent a verification link to new@example.test. Open it, then choose “I have verified it”.',
    );
  });

  it('"I have verified it" asks Firebase again: not yet, or verified (toast)', async () => {
    signedIn(false);
    renderNotice();
    await userEvent.click(screen.getByRole('button', { name: 'Send verification email' }));
    checkVerification.mockResolvedValueOnce(false);
    await userEvent.click(screen.getByRole('button', { name: 'I have verified it' }));
    expect(screen.getByRole('status')).toHaveTextContent('Not verified yet: open the link in the email first.');
    checkVerification.mockResolvedValueOnce(true);
    await userEvent.click(screen.getByRole('button', { name: 'I have verified it' }));
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
  });

  it('shows nothing to a verified user, a visitor, or while sign-in state loads', () => {
    for (const [verified, status] of [
      [true, 'signedIn'],
      [false, 'signedOut'],
      [false, 'loading'],
    ] as const) {
      signedIn(verified, status);
      const { container, unmount } = render(<EmailVerificationNotice />);
      expect(container).toBeEmptyDOMElement();
      unmount();
    }
  });

  it('"Not now" hides it', async () => {
    signedIn(false);
    renderNotice();
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Account verification' })).not.toBeInTheDocument();
  });
});
