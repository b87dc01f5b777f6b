import { useEffect, useId, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useIsAdmin } from '../../lib/useIsAdmin';

const everyone = [{ to: '/dashboard', label: 'My Profile', end: true }];
const customers = [
  { to: '/dashboard/my-orders', label: 'My Orders' },
  { to: '/dashboard/add-review', label: 'Add Review' },
  { to: '/quick-order', label: 'Quick Order' },
  { to: '/dashboard/lists', label: 'My Lists' },
  { to: '/dashboard/company', label: 'My Company' },
];
const admins = [
  { to: '/dashboard/overview', label: 'Overview' },
  { to: '/dashboard/users', label: 'All Users' },
  { to: '/dashboard/all-orders', label: 'Manage All Orders' },
  { to: '/dashboard/add-parts', label: 'Add A Part' },
  { to: '/dashboard/manage-parts', label: 'Manage Parts' },
  { to: '/dashboard/imports', label: 'Import Catalog' },
  { to: '/dashboard/companies', label: 'Companies' },
  { to: '/dashboard/messages', label: 'Messages' },
];

/**
 * Side menu by role (spec §2 "Dashboard menu") beside the nested page. Below `lg` the menu folds under a
 * Menu button, in the page's flow (never under the sticky header): choosing a page or Escape folds it, and
 * Escape gives focus back to the button.
 */
export default function DashboardLayout() {
  const { isAdmin, loading } = useIsAdmin();
  const items = [...everyone, ...(loading ? [] : isAdmin ? admins : customers)];
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const location = useLocation();
  const { pathname } = location;
  const fromHeader = (location.state as { home?: unknown } | null)?.home === true;
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  // The header's Dashboard link opens an admin's dashboard on the overview (their home); /dashboard itself stays
  // My Profile for everyone, as the spec has it.
  if (!loading && isAdmin && pathname === '/dashboard' && fromHeader) {
    return <Navigate to="/dashboard/overview" replace />;
  }
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="mb-6 flex items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-primary sm:text-3xl">Welcome to Your Dashboard</h1>
        <button
          ref={button}
          type="button"
          className="btn btn-outline btn-sm lg:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
      </div>
      <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
        <nav id={menuId} aria-label="Dashboard" className={`${open ? 'block' : 'hidden'} lg:block lg:w-64 lg:shrink-0`}>
          <ul className="menu w-full gap-1 rounded-box bg-base-200 p-4">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={'end' in item}
                  className={({ isActive }) => (isActive ? 'menu-active font-semibold' : '')}
                  onClick={() => setOpen(false)}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">{loading ? <Spinner centered /> : <Outlet />}</div>
      </div>
    </div>
  );
}
