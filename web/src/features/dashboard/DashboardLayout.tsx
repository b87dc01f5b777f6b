import { NavLink, Outlet } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useIsAdmin } from '../auth/guards';

const everyone = [{ to: '/dashboard', label: 'My Profile', end: true }];
const customers = [
  { to: '/dashboard/my-orders', label: 'My Orders' },
  { to: '/dashboard/add-review', label: 'Add Review' },
];
const admins = [
  { to: '/dashboard/users', label: 'All Users' },
  { to: '/dashboard/all-orders', label: 'Manage All Orders' },
  { to: '/dashboard/add-parts', label: 'Add A Part' },
  { to: '/dashboard/manage-parts', label: 'Manage Parts' },
  { to: '/dashboard/messages', label: 'Messages' },
];

/** Side menu by role (spec §2 "Dashboard menu") beside the nested page; a drawer on small screens. */
export default function DashboardLayout() {
  const { isAdmin, loading } = useIsAdmin();
  const items = [...everyone, ...(loading ? [] : isAdmin ? admins : customers)];
  return (
    <div className="drawer mx-auto max-w-7xl lg:drawer-open">
      <input id="dashboard-drawer" type="checkbox" className="drawer-toggle" aria-label="Dashboard menu" />
      <div className="drawer-content px-4 py-8">
        <div className="mb-6 flex items-center justify-between gap-4">
          <h1 className="text-2xl font-bold text-primary sm:text-3xl">Welcome to Your Dashboard</h1>
          <label htmlFor="dashboard-drawer" className="btn btn-outline btn-sm lg:hidden">
            Menu
          </label>
        </div>
        {loading ? <Spinner centered /> : <Outlet />}
      </div>
      <div className="drawer-side z-30 lg:z-auto">
        <label htmlFor="dashboard-drawer" aria-label="Close dashboard menu" className="drawer-overlay" />
        <ul className="menu min-h-full w-64 gap-1 bg-base-200 p-4 lg:mt-8 lg:min-h-0 lg:rounded-box">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={'end' in item}
                className={({ isActive }) => (isActive ? 'menu-active font-semibold' : '')}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
