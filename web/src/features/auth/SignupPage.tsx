import { signupSchema } from '@partsyard/common';
import { Formik } from 'formik';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { authErrorMessage } from '../../lib/authErrors';
import { prepareSignIn, useAuth } from '../../lib/auth';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { GoogleSignIn } from './GoogleSignIn';
import { returnTo } from './returnTo';
import { BusyButton } from '../../components/BusyButton';

export default function SignupPage() {
  const { signup, status } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState('');
  const done = () => void navigate(returnTo(location.state), { replace: true });
  // Someone already signed in has nothing to do here: on to where they were going.
  if (status === 'signedIn') return <Navigate to={returnTo(location.state)} replace />;
  if (status === 'loading') return <Spinner centered />;

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
          <h1 className="text-center text-2xl font-bold">Sign Up</h1>
          <Formik
            initialValues={{ name: '', email: '', password: '' }}
            validationSchema={signupSchema}
            onSubmit={async (values) => {
              setError('');
              try {
                await signup(values.name.trim(), values.email.trim(), values.password);
                done();
              } catch (e) {
                setError(authErrorMessage(e));
              }
            }}
          >
            {({ isSubmitting }) => (
              <ShopForm className="flex flex-col gap-3">
                <FormField name="name" label="Name" autoComplete="name" />
                <FormField name="email" label="Email" type="email" autoComplete="email" />
                <FormField name="password" label="Password" type="password" autoComplete="new-password" />
                {error && (
                  <p className="text-sm text-red-600" role="alert">
                    {error}
                  </p>
                )}
                <BusyButton className="btn btn-primary mt-2 w-full" busy={isSubmitting}>
                  Sign Up
                </BusyButton>
              </ShopForm>
            )}
          </Formik>
          <p className="text-center text-sm">
            Already have an account?{' '}
            <Link to="/login" state={location.state as unknown} className="link link-primary">
              Login
            </Link>
          </p>
          <GoogleSignIn onDone={done} onError={setError} />
        </div>
      </div>
    </section>
  );
}
