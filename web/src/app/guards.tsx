import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../components/Spinner';
import { useAuth } from '../lib/auth';
import { useIsAdmin } from '../lib/useIsAdmin';

/** Signed-in guard: spinner while sign-in state loads; otherwise content, or /login carrying where we were. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <Spinner centered />;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

/**
 * Admin guard: spinner while auth or admin status loads; no user or a non-admin goes to /login (spec). A signed-in
 * non-admin arrives there marked `adminOnly`, so that the login page tells them the page is for admins instead of
 * sending them back to it (which sent them to /login again: a loop of thousands of navigations, issue 32).
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const { isAdmin, loading } = useIsAdmin();
  const location = useLocation();
  if (status === 'loading' || loading) return <Spinner centered />;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location }} />;
  if (!isAdmin) return <Navigate to="/login" replace state={{ from: location, adminOnly: true }} />;
  return <>{children}</>;
}
