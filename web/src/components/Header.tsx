import { Link, NavLink } from 'react-router-dom';
import { useAuth } from '../features/auth/AuthProvider';
import { useHydrated } from '../lib/hydration';
import { Brand } from './Brand';

export const navLinks = [
  { to: '/', label: 'Home' },
  { to: '/parts', label: 'Parts' },
  { to: '/portfolio', label: 'Portfolio' },
  { to: '/blog', label: 'Blog' },
];

/** Active link red, others grey. */
export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `font-semibold ${isActive ? 'text-red-600' : 'text-gray-500 hover:text-gray-800'}`;

/** The site's navigation links: in the header on large screens and in the drawer on small ones. */
export function NavItems({ className }: { className: string }) {
  return (
    <ul className={className}>
      {navLinks.map((l) => (
        <li key={l.to}>
          <NavLink to={l.to} end={l.to === '/'} className={navLinkClass}>
            {l.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export const defaultAvatar = '/images/avatars/default.svg';

function AccountMenu() {
  const { status, user, logout } = useAuth();
  // The pre-rendered home page shows the Login link (src/prerender.tsx); hydration must find it there.
  const hydrated = useHydrated();
  if (hydrated && status === 'loading')
    return <span className="loading loading-dots loading-sm text-gray-400" aria-label="Loading account" />;
  if (!hydrated || status === 'signedOut' || !user) {
    return (
      <Link to="/login" className="btn btn-primary btn-sm">
        Login
      </Link>
    );
  }
  return (
    <div className="dropdown dropdown-end">
      <div tabIndex={0} role="button" className="btn btn-ghost btn-circle avatar" aria-label="Account menu">
        <div className="w-10 rounded-full ring ring-primary ring-offset-2 ring-offset-base-100">
          <img src={user.photoURL || defaultAvatar} alt="" width={40} height={40} referrerPolicy="no-referrer" />
        </div>
      </div>
      <ul tabIndex={0} className="menu dropdown-content z-50 mt-3 w-64 rounded-box bg-base-100 p-2 shadow-lg">
        <li className="menu-title">
          <span className="block truncate text-base-content" data-testid="account-name">
            {user.displayName || 'Rider'}
          </span>
          <span className="block truncate text-xs font-normal">{user.email}</span>
        </li>
        <li>
          <Link to="/dashboard">Dashboard</Link>
        </li>
        <li>
          <button type="button" onClick={() => void logout()}>
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}

/** Brand, top navigation (hidden on small screens, in the drawer there), and the account menu. */
export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <div className="navbar mx-auto max-w-7xl px-4">
        <div className="navbar-start gap-2">
          <label htmlFor="site-drawer" className="btn btn-ghost btn-square lg:hidden" aria-label="Open menu">
            <svg
              xmlns="http://www.w3.org/2000/svg"
              className="h-6 w-6"
              fill="none"
              viewBox="0 0 24 24"
              stroke="currentColor"
            >
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth={2} d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </label>
          <Brand />
        </div>
        <nav className="navbar-center hidden lg:flex" aria-label="Main">
          <NavItems className="flex gap-8" />
        </nav>
        <div className="navbar-end">
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
