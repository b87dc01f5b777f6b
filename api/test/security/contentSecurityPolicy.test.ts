import type { Request, Response } from 'express';
import type { Config } from '../../src/config';
import { contentSecurityPolicy } from '../../src/http/contentSecurityPolicy';

/** The policy the middleware sets on an answer to a page opened under `hostname`. */
function policyFor(config: Pick<Config, 'firebase' | 'stripe'>) {
  const middleware = contentSecurityPolicy(config);
  return (hostname: string) => {
    let policy = '';
    const res = { setHeader: (_name: string, value: string) => (policy = value) } as unknown as Response;
    let passedOn = false;
    middleware({ hostname } as Request, res, () => (passedOn = true));
    expect(passedOn).toBe(true);
    return policy;
  };
}

const firebase = (emulatorHost: string | undefined) =>
  ({ emulatorHost, authDomain: 'shop.firebaseapp.com' }) as Config['firebase'];
const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.split(' ')
    .slice(1);

describe('the Content-Security-Policy (made once, or once per host name: issue 15)', () => {
  it('with a loopback emulator, lets the page reach it under the host name it was opened with', () => {
    const policy = policyFor({ firebase: firebase('127.0.0.1:9099'), stripe: null });
    const shop = policy('shop.example');
    expect(directive(shop, 'connect-src')).toEqual([
      "'self'",
      'http://127.0.0.1:9099',
      'http://localhost:9099',
      'http://shop.example:9099',
    ]);
    expect(directive(shop, 'frame-src')).toEqual(directive(shop, 'connect-src')?.slice(1));
    // Another host name gets its own, and the first is still its own when asked again (kept or not).
    expect(directive(policy('other.example'), 'connect-src')).toContain('http://other.example:9099');
    expect(policy('shop.example')).toBe(shop);
    // A Host header that is no plain host name is never written into the policy.
    expect(directive(policy('evil.example:1/"; script-src *'), 'connect-src')).toEqual([
      "'self'",
      'http://127.0.0.1:9099',
      'http://localhost:9099',
    ]);
    // Many host names (the Host header is the client's): each still gets its own, whatever was forgotten.
    for (let i = 0; i < 200; i++) {
      expect(directive(policy(`host${i}.example`), 'connect-src')).toContain(`http://host${i}.example:9099`);
    }
    expect(policy('shop.example')).toBe(shop);
    expect(directive(shop, 'script-src')).toEqual(["'self'"]);
  });

  it('with real Firebase (and Stripe), is the same for every host name', () => {
    const policy = policyFor({ firebase: firebase(undefined), stripe: {} as Config['stripe'] });
    const one = policy('shop.example');
    expect(policy('other.example')).toBe(one);
    expect(directive(one, 'script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://apis.google.com']);
    expect(directive(one, 'connect-src')).toEqual([
      "'self'",
      'https://api.stripe.com',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
    ]);
    expect(directive(one, 'frame-src')).toEqual([
      'https://js.stripe.com',
      'https://hooks.stripe.com',
      'https://shop.firebaseapp.com',
    ]);
  });

  it('with a remote emulator and no Stripe, names that emulator only', () => {
    const policy = policyFor({ firebase: firebase('auth.internal:9099'), stripe: null });
    expect(directive(policy('shop.example'), 'connect-src')).toEqual(["'self'", 'http://auth.internal:9099']);
    expect(directive(policy('shop.example'), 'frame-src')).toEqual(['http://auth.internal:9099']);
  });
});
