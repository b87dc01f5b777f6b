import { loginSchema } from '@partsyard/common';
import { Formik, useFormikContext } from 'formik';
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useClientSettings } from '../../lib/clientSettings';
import { authErrorMessage } from '../../lib/authErrors';
import { useAuth } from '../../lib/auth';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { GoogleSignIn } from './GoogleSignIn';
import { returnTo } from './returnTo';
import { BusyButton } from '../../components/BusyButton';

/** The demo customer of the embedded default (ARCHITECTURE.md); the form starts with it in demo mode only. */
export const demoCustomer = { email: 'customer@partsyard.test', password: 'Customer#2026' };

/**
 * Fills in the demo customer once the settings say demo mode, if nobody has typed yet. The settings may arrive
 * after the form is shown: the form is not made anew then (it was, and what a fast typist had entered was
 * replaced, and a press on Login could land on a button being taken away).
 */
function DemoPrefill({ demo }: { demo: boolean }) {
  const { dirty, submitCount, setValues } = useFormikContext<typeof demoCustomer>();
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!demo || done) return;
    setDone(true);
    if (!dirty && submitCount === 0) void setValues(demoCustomer, false);
  }, [demo, done, dirty, submitCount, setValues]);
  return null;
}

export default function LoginPage() {
  const { login, status } = useAuth();
  const settings = useClientSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState('');
  const done = () => void navigate(returnTo(location.state), { replace: true });
  // Someone already signed in has nothing to do here: on to where they were going.
  if (status === 'signedIn') return <Navigate to={returnTo(location.state)} replace />;
  if (status === 'loading') return <Spinner centered />;

  return (
    <section className="mx-auto flex max-w-md flex-col gap-6 px-4 py-12">
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <h1 className="text-center text-2xl font-bold">Login</h1>
          <Formik
            initialValues={{ email: '', password: '' }}
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
                <DemoPrefill demo={settings?.demoMode === true} />
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
          <p className="text-center text-sm">
            New to PartsYard?{' '}
            <Link to="/signup" state={location.state as unknown} className="link link-primary">
              Create an account
            </Link>
          </p>
          <GoogleSignIn onDone={done} onError={setError} />
        </div>
      </div>
    </section>
  );
}
