// Kept apart from lib/firebase.ts so pages can word errors without loading the Firebase SDK.
import { errorMessage } from './apollo';
import { messages } from '@partsyard/common';

const friendly: Record<string, string> = {
  'auth/invalid-credential': 'Wrong email or password.',
  'auth/wrong-password': 'Wrong email or password.',
  // One message whether the email has no account or the password is wrong: the form must not tell
  // a stranger which emails have accounts here.
  'auth/user-not-found': 'Wrong email or password.',
  'auth/email-already-in-use': 'An account with this email already exists. Log in instead.',
  'auth/too-many-requests': 'Too many attempts. Wait a moment and try again.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/popup-closed-by-user': 'The Google sign-in window was closed before signing in.',
  'auth/popup-blocked': 'The browser blocked the Google sign-in window. Allow pop-ups and try again.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/weak-password': messages.passwordTooShort,
};

/** The identity provider's message for a failed sign-in, in words a shopper understands. */
export function authErrorMessage(error: unknown): string {
  // Our server's answer to the token exchange (e.g. 503 while the identity provider cannot be reached).
  if (error && typeof error === 'object' && ('graphQLErrors' in error || 'networkError' in error)) {
    return errorMessage(error);
  }
  const code = (error as { code?: string })?.code;
  if (code && friendly[code]) return friendly[code];
  return error instanceof Error ? error.message.replace(/^Firebase: /, '') : 'Sign-in failed';
}
