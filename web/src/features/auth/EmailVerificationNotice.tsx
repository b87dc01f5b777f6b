import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { authErrorMessage } from '../../lib/authErrors';
import { BusyButton } from '../../components/BusyButton';
import { useAuth } from '../../lib/auth';

/**
 * Tells a signed-in user whose email is not verified yet, and offers the verification email. Shopping does not
 * wait for it (the spec's flow stays as it is); a role (admin) only ever goes to a verified address.
 */
export function EmailVerificationNotice() {
  const { status, user, sendVerificationEmail, checkVerification } = useAuth();
  const [busy, setBusy] = useState<'send' | 'check' | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [hidden, setHidden] = useState(false);
  if (status !== 'signedIn' || !user || user.emailVerified || hidden) return null;

  const send = async () => {
    setBusy('send');
    setNote('');
    try {
      await sendVerificationEmail();
      setSentTo(user.email);
    } catch (error) {
      setNote(authErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const check = async () => {
    setBusy('check');
    setNote('');
    try {
      if (await checkVerification()) toast.success('Your email address is verified.');
      else setNote('Not verified yet: open the link in the email first.');
    } catch (error) {
      setNote(authErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      aria-label="Account verification"
      className="border-b border-warning/40 bg-warning/15 px-4 py-3 text-sm text-base-content"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <p className="min-w-0 flex-1 break-words" role="status">
          {sentTo ? (
            <>
              We sent a verification link to <strong>{sentTo}</strong>. Open it, then choose “I have verified it”.
            </>
          ) : (
            <>
              Your email address <strong>{user.email}</strong> is not verified yet. You can shop as you are; verifying
              it proves the address is yours.
            </>
          )}
          {note && <span className="ml-1 font-semibold">{note}</span>}
        </p>
        <div className="flex flex-wrap gap-2">
          <BusyButton
            type="button"
            className="btn btn-sm btn-outline"
            busy={busy === 'send'}
            spinner="xs"
            disabled={busy !== null}
            onClick={() => void send()}
          >
            {sentTo ? 'Send it again' : 'Send verification email'}
          </BusyButton>
          {sentTo && (
            <BusyButton
              type="button"
              className="btn btn-sm btn-primary"
              busy={busy === 'check'}
              spinner="xs"
              disabled={busy !== null}
              onClick={() => void check()}
            >
              I have verified it
            </BusyButton>
          )}
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setHidden(true)}>
            Not now
          </button>
        </div>
      </div>
    </section>
  );
}
