import { loginSchema } from '@partsyard/common';
import { Formik } from 'formik';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useClientSettings } from '../../lib/clientSettings';
import { authErrorMessage } from '../../lib/authErrors';
import { prepareSignIn, useAuth } from '../../lib/auth';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { GoogleSignIn } from './GoogleSignIn';
import { adminOnly, returnTo } from './returnTo';
import { BusyButton } from '../../components/BusyButton';

/** The demo customer of the embedded default (ARCHITECTURE.md); the form starts with it in demo mode only. */
export const demoCustomer = { email: 'customer@partsyard.test', password: 'Customer#2026' };

export default function LoginPage() {
  const { login, status } = useAuth();
  const settings = useClientSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState('');
  const done = () => void navigate(returnTo(location.state), { replace: true });
  // Someone already signed in has nothing to do here: on to where they were going.
  if (status === 'signedIn' && adminOnly(location.state)) return <AdminOnly />;
  if (status === 'signedIn') return <Navigate to={returnTo(location.state)} replace />;
  // The form waits for the client settings (as the payment page does): in demo mode it starts with the demo
  // customer, and made anew when they arrived late it replaced what a fast typist had entered and could swallow
  // a press on Login (a browser-test flake showed it). Without the settings no sign-in can work anyway. The card
  // around it shows meanwhile: the page is pre-rendered so (web/scripts/prerender.mjs), and paints before the
  // scripts have run.
  const ready = status !== 'loading' && settings;
  const initial = settings?.demoMode ? demoCustomer : { email: '', password: '' };

  return (
    // The identity SDK downloads once the visitor turns to the form (lib/auth.tsx).
    <section
      className="mx-auto flex max-w-md flex-col gap-6 px-4 py-12"
      onPointerEnter={prepareSignIn}
      onPointerDown={prepareSignIn}
      onFocus={prepareSignIn}
    >
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <h1 className="text-center text-2xl font-bold">Login</h1>
          {!ready ? (
            <div className="flex min-h-72 items-center justify-center">
              <Spinner />
            </div>
          ) : (
            <Formik
              initialValues={initial}
              validationSchema={loginSchema}
              onSubmit={async (values) => {
                setError('');
                try {
                  await login(values.email.trim(), values.password);
                  done();
                } catch (e) {
                  setError(authErrorMessage(e));
                }
              }}
            >
              {({ isSubmitting }) => (
                <ShopForm className="flex flex-col gap-3">
                  <FormField name="email" label="Email" type="email" autoComplete="email" />
                  <FormField name="password" label="Password" type="password" autoComplete="current-password" />
                  {error && (
                    <p className="text-sm text-red-600" role="alert">
                      {error}
                    </p>
                  )}
                  <BusyButton className="btn btn-primary mt-2 w-full" busy={isSubmitting}>
                    Login
                  </BusyButton>
                </ShopForm>
              )}
            </Formik>
          )}
          <p className="text-center text-sm">
            New to PartsYard?{' '}
            <Link to="/signup" state={location.state as unknown} className="link link-primary">
              Create an account
            </Link>
          </p>
          {ready && <GoogleSignIn onDone={done} onError={setError} />}
        </div>
      </div>
    </section>
  );
}

/** A signed-in visitor whom the admin guard sent here: told once, with the way to their own pages. */
function AdminOnly() {
  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 px-4 py-12">
      <h1 className="text-2xl font-bold">This page is for admins</h1>
      <p>Your account is not an admin's, so that page stays closed to it.</p>
      <Link to="/dashboard" className="btn btn-primary self-start">
        Go to your dashboard
      </Link>
    </section>
  );
}
