import { useEffect, type MouseEvent } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Footer } from '../components/Footer';
import { Header } from '../components/Header';
import { useAuth } from '../lib/auth';
import { EmailVerificationNotice } from '../features/auth/EmailVerificationNotice';
import { CartMerger } from '../features/cart/CartMerger';
import { GarageProvider } from '../features/garage/GarageProvider';
import { usePageMeta } from '../lib/pageMeta';
import { onSessionExpired } from '../lib/session';

/** How long a deep link waits for its anchor to appear (pages and their sections load lazily). */
const anchorWaitMs = 5000;

/**
 * Scrolls to the top on every route change (spec §2), or, when the address names an anchor (`/#contact`,
 * `/blog#what-is-a-unit-test`), to that anchor once the page has rendered it.
 */
function ScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) {
      // Some browsers return a promise from scrollTo; an effect must not return it (React would call it).
      window.scrollTo(0, 0);
      return;
    }
    const scroll = () => {
      const target = document.getElementById(id);
      if (!target) return false;
      target.scrollIntoView({ block: 'start' });
      return true;
    };
    if (scroll()) return;
    const observer = new MutationObserver(() => {
      if (scroll()) stop();
    });
    const timer = setTimeout(() => stop(), anchorWaitMs);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname, hash]);
  return null;
}

/** The API refused our session (401): back to /, then signed out (spec §4, ARCHITECTURE.md). */
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

/** The page's title and description, from the shared list of routes (common/src/pages.ts). */
function PageMeta() {
  const { pathname } = useLocation();
  usePageMeta(pathname);
  return null;
}

/** Keyboard users skip the header: focus and view go to the page's main content. */
function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById('main');
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView();
  };
  return (
    <a
      href="#main"
      onClick={skip}
      className="sr-only z-[60] rounded-field bg-base-100 px-4 py-2 font-semibold text-base-content shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to content
    </a>
  );
}

/** Skip link, header, page, footer; My garage around them all (the header's button, the catalog's chip). */
export function RootLayout() {
  return (
    <GarageProvider>
      <div className="flex min-h-screen flex-col">
        <SkipLink />
        <ScrollOnNavigate />
        <SessionExpiredRedirect />
        <CartMerger />
        <PageMeta />
        <Header />
        <EmailVerificationNotice />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <Outlet />
        </main>
        <Footer />
      </div>
    </GarageProvider>
  );
}
