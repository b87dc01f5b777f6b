import { ApolloError } from '@apollo/client';
import { authErrorMessage } from '../../src/lib/authErrors';

describe('authErrorMessage', () => {
  it("shows our server's message when the token exchange is refused (identity provider unreachable: 503)", () => {
    // What HttpLink throws for a non-2xx answer: a ServerError carrying the parsed body.
    const networkError = Object.assign(new Error('Response not successful: Received status code 503'), {
      name: 'ServerError',
      statusCode: 503,
      result: {
        errors: [
          {
            message: 'Sign-in is unavailable right now, try again shortly',
            extensions: { code: 'SERVICE_UNAVAILABLE' },
          },
        ],
      },
    });
    expect(authErrorMessage(new ApolloError({ networkError }))).toBe(
      'Sign-in is unavailable right now, try again shortly',
    );
  });

  it("words the identity provider's own codes for a shopper", () => {
    expect(authErrorMessage({ code: 'auth/network-request-failed' })).toBe(
      'Could not reach the sign-in service. Check your connection and try again.',
    );
    expect(authErrorMessage(new Error('Firebase: something odd'))).toBe('something odd');
  });

  it('says the same for an unknown email as for a wrong password: the form does not tell which emails have accounts', () => {
    const unknown = authErrorMessage({ code: 'auth/user-not-found' });
    expect(unknown).toBe('Wrong email or password.');
    expect(authErrorMessage({ code: 'auth/wrong-password' })).toBe(unknown);
    expect(authErrorMessage({ code: 'auth/invalid-credential' })).toBe(unknown);
  });
});
