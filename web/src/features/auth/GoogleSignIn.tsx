import { emulatorGoogleAccountSchema } from '@partsyard/common';
import { Formik } from 'formik';
import { useId, useState } from 'react';
import { useClientSettings } from '../../app/ClientSettings';
import { BusyButton } from '../../components/BusyButton';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { Modal } from '../../components/Modal';
import { authErrorMessage } from '../../lib/authErrors';
import { useAuth, type EmulatorGoogleAccount } from './AuthProvider';

/**
 * With the Auth emulator (embedded default), Google's account chooser is the emulator's: this dialog stands
 * in for it (an email and a name, as the emulator's own page asks), because the SDK's popup cannot reach it
 * offline (see googleIdTokenForEmulator).
 */
function EmulatorGoogleChooser({
  open,
  onClose,
  onChosen,
}: {
  open: boolean;
  onClose: () => void;
  onChosen: (account: EmulatorGoogleAccount) => Promise<void>;
}) {
  const titleId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} className="modal modal-bottom sm:modal-middle">
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-bold">
          Sign in with Google
        </h2>
        <p className="mt-1 text-sm text-base-content/80">
          Auth emulator (local test accounts): the account is created the first time you use its email.
        </p>
        {open && (
          <Formik<EmulatorGoogleAccount>
            initialValues={{ email: '', name: '' }}
            validationSchema={emulatorGoogleAccountSchema}
            onSubmit={onChosen}
          >
            {({ isSubmitting }) => (
              <ShopForm className="mt-4 flex flex-col gap-3" aria-label="Google test account" idPrefix="google">
                <FormField name="email" label="Google email" type="email" autoComplete="email" />
                <FormField name="name" label="Name (optional)" autoComplete="name" />
                <div className="modal-action">
                  <button type="button" className="btn" onClick={onClose}>
                    Cancel
                  </button>
                  <BusyButton className="btn btn-primary" busy={isSubmitting}>
                    Sign in with Google
                  </BusyButton>
                </div>
              </ShopForm>
            )}
          </Formik>
        )}
      </div>
    </Modal>
  );
}

/** 'OR', then Google sign-in; `onError` gets the provider's message, `onDone` runs after success. */
export function GoogleSignIn({ onDone, onError }: { onDone: () => void; onError: (message: string) => void }) {
  const { loginWithGoogle } = useAuth();
  const settings = useClientSettings();
  const [choosing, setChoosing] = useState(false);
  const signIn = async (account?: EmulatorGoogleAccount) => {
    onError('');
    try {
      await loginWithGoogle(account);
      setChoosing(false);
      onDone();
    } catch (e) {
      setChoosing(false);
      onError(authErrorMessage(e));
    }
  };
  return (
    <>
      <div className="divider">OR</div>
      <GoogleButton
        onClick={() => (settings?.firebase.emulatorUrl ? setChoosing(true) : void signIn())}
        disabled={!settings}
      />
      <EmulatorGoogleChooser open={choosing} onClose={() => setChoosing(false)} onChosen={signIn} />
    </>
  );
}

function GoogleButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <button type="button" className="btn w-full border-base-300 bg-white" onClick={onClick} disabled={disabled}>
      <svg aria-hidden width="18" height="18" viewBox="0 0 48 48">
        <path
          fill="#FFC107"
          d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
        />
        <path
          fill="#FF3D00"
          d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
        />
        <path
          fill="#4CAF50"
          d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
        />
        <path
          fill="#1976D2"
          d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
        />
      </svg>
      Continue With Google
    </button>
  );
}
