import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth, useOptionalAuth } from '../lib/auth';
import { useHydrated } from '../lib/hydration';
import { CartBadge } from './cart/CartBadge';
import { GarageButton } from './garage/GarageButton';
import { Brand } from './Brand';
import { Modal } from './Modal';

export const navLinks = [
  { to: '/', label: 'Home' },
  { to: '/parts', label: 'Parts' },
  { to: '/portfolio', label: 'Portfolio' },
  { to: '/blog', label: 'Blog' },
];

/** Active link red, others grey. */
export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `font-semibold ${isActive ? 'text-red-600' : 'text-gray-500 hover:text-gray-800'}`;

/** Links for signed-in customers only: ordering by part number (issue 34). */
export const signedInLinks = [{ to: '/quick-order', label: 'Quick order' }];

/**
 * The site's navigation links: in the header on large screens and in the drawer on small ones (which passes
 * `onChoose` to close itself when a link is chosen). Quick order joins them once signed in (after hydration: the
 * pre-rendered pages are a visitor's).
 */
export function NavItems({ className, onChoose }: { className: string; onChoose?: () => void }) {
  const signedIn = useOptionalAuth()?.status === 'signedIn';
  const hydrated = useHydrated();
  const links = hydrated && signedIn ? [...navLinks, ...signedInLinks] : navLinks;
  return (
    <ul className={className}>
      {links.map((l) => (
        <li key={l.to}>
          <NavLink to={l.to} end={l.to === '/'} className={navLinkClass} onClick={onChoose}>
            {l.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export const defaultAvatar = '/images/avatars/default.svg';

/**
 * Closes a menu on Escape (focus back on its button) and on a click or focus outside it; a menu open when
 * the page changes closes too.
 */
function useMenu(button: React.RefObject<HTMLElement | null>, panel: React.RefObject<HTMLElement | null>) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && (button.current?.contains(target) || panel.current?.contains(target));
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (!inside(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open, button, panel]);
  return [open, setOpen] as const;
}

function AccountMenu() {
  const { status, user, logout } = useAuth();
  const location = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useMenu(button, panel);
  const panelId = useId();
  // The pre-rendered pages show the Login link (src/prerender.tsx); hydration must find it there.
  const hydrated = useHydrated();
  if (hydrated && status === 'loading')
    return (
      <span className="loading loading-dots loading-sm text-gray-600" role="status" aria-label="Loading account" />
    );
  if (!hydrated || status === 'signedOut' || !user) {
    // After login, back to the page the visitor was on (not on the sign-in pages themselves).
    const onSignInPage = ['/login', '/signup'].includes(location.pathname);
    return (
      <Link
        to="/login"
        state={onSignInPage ? (location.state as unknown) : { from: location }}
        className="btn btn-primary btn-sm"
      >
        Login
      </Link>
    );
  }
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-circle avatar"
        aria-label="Account menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <span className="w-10 rounded-full ring ring-primary ring-offset-2 ring-offset-base-100">
          <img src={user.photoURL || defaultAvatar} alt="" width={40} height={40} referrerPolicy="no-referrer" />
        </span>
      </button>
      <div
        ref={panel}
        id={panelId}
        hidden={!open}
        className="absolute right-0 z-50 mt-3 w-64 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
      >
        <p className="px-3 py-2">
          <span className="block truncate font-semibold" data-testid="account-name">
            {user.displayName || 'Rider'}
          </span>
          <span className="block truncate text-xs text-base-content/80">{user.email}</span>
        </p>
        <ul className="menu w-full p-0">
          <li>
            <Link to="/dashboard" state={{ home: true }} onClick={() => setOpen(false)}>
              Dashboard
            </Link>
          </li>
          <li>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                void logout();
              }}
            >
              Logout
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}

/**
 * The navigation on small screens: a drawer from the left (a modal dialog: Escape, the backdrop, the close
 * button or choosing a page closes it, and focus goes back to the menu button).
 */
function MobileMenu() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const titleId = useId();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-square lg:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <svg
          xmlns="http://www.w3.org/2000/svg"
          className="h-6 w-6"
          fill="none"
          viewBox="0 0 24 24"
          stroke="currentColor"
          aria-hidden="true"
        >
          <path strokeLinecap="round" strokeLinejoin="round" strokeWidth={2} d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        labelledBy={titleId}
        className="fixed inset-y-0 left-0 m-0 h-full max-h-none w-72 max-w-[85vw] bg-base-100 p-6 shadow-xl backdrop:bg-black/40 open:flex open:flex-col"
      >
        <div className="mb-6 flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-lg font-bold">
            Menu
          </h2>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
        <nav aria-label="Mobile">
          {/* Choosing a page closes the drawer at once, the page already shown included (its path stays). */}
          <NavItems
            onChoose={() => setOpen(false)}
            className="menu w-full gap-2 p-0 text-lg [&_a.active]:bg-red-50 [&_a.active]:text-red-700"
          />
        </nav>
      </Modal>
    </>
  );
}

/** Brand, top navigation (hidden on small screens, in the drawer there), My garage, the cart and the account menu. */
export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100">
      <div className="navbar mx-auto max-w-7xl px-4">
        <div className="navbar-start gap-2">
          <MobileMenu />
          <Brand />
        </div>
        <nav className="navbar-center hidden lg:flex" aria-label="Main">
          <NavItems className="flex gap-8" />
        </nav>
        <div className="navbar-end gap-1">
          <GarageButton />
          <CartBadge />
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
