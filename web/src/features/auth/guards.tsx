import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useMeQuery } from '../../generated/graphql';
import { useAuth } from './AuthProvider';

/** The signed-in user's admin flag, as the server says (spec §6: a lookup by the server). */
export function useIsAdmin(): { isAdmin: boolean; loading: boolean } {
  const { status } = useAuth();
  const { data, loading } = useMeQuery({ skip: status !== 'signedIn', fetchPolicy: 'cache-and-network' });
  return {
    isAdmin: Boolean(data?.me.isAdmin),
    loading: status === 'loading' || (status === 'signedIn' && loading && !data),
  };
}

/** Signed-in guard: spinner while sign-in state loads; otherwise content, or /login carrying where we were. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <Spinner centered />;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

/** Admin guard: spinner while auth or admin status loads; no user or a non-admin goes to /login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const { isAdmin, loading } = useIsAdmin();
  const location = useLocation();
  if (status === 'loading' || loading) return <Spinner centered />;
  if (status === 'signedOut' || !isAdmin) return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}
