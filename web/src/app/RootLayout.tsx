import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Footer } from '../components/Footer';
import { Header, NavItems } from '../components/Header';
import { useAuth } from '../features/auth/AuthProvider';
import { EmailVerificationNotice } from '../features/auth/EmailVerificationNotice';
import { onSessionExpired } from '../lib/session';

/** Scrolls to the top on every route change (spec §2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    // Some browsers return a promise from scrollTo; an effect must not return it (React would call it).
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** The API refused our session (401/403 on protected data): back to /, then signed out (spec §4). */
function SessionExpiredRedirect() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionExpired(() => {
        // Leave the protected page first (the home page may still have to load), and sign out only once
        // there, so the protected page's guard does not send the user to /login instead.
        void Promise.resolve(navigate('/', { replace: true })).then(() => logout());
      }),
    [navigate, logout],
  );
  return null;
}

/** Header, page, footer; on small screens the navigation lives in a drawer. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    const toggle = document.getElementById('site-drawer') as HTMLInputElement | null;
    if (toggle) toggle.checked = false;
  }, [pathname]);
  return (
    <div className="drawer">
      <input id="site-drawer" type="checkbox" className="drawer-toggle" aria-label="Menu" />
      <div className="drawer-content flex min-h-screen flex-col">
        <ScrollToTop />
        <SessionExpiredRedirect />
        <Header />
        <EmailVerificationNotice />
        <main className="flex-1">
          <Outlet />
        </main>
        <Footer />
      </div>
      <div className="drawer-side z-50">
        <label htmlFor="site-drawer" aria-label="Close menu" className="drawer-overlay" />
        <nav aria-label="Mobile" className="min-h-full w-72 bg-base-100 p-6">
          <NavItems className="menu gap-2 text-lg" />
        </nav>
      </div>
    </div>
  );
}
