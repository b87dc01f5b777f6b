import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { RequireAdmin, RequireAuth } from './guards';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

/** Every page is its own chunk, loaded when its route is first visited. Routes are listed for the server too,
 * with their titles: common/src/pages.ts. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: () => load().then((m) => ({ Component: m.default })),
});

const admin = (path: string, load: () => Promise<{ default: ComponentType }>): RouteObject => ({
  path,
  element: (
    <RequireAdmin>
      <Outlet />
    </RequireAdmin>
  ),
  children: [{ index: true, ...page(load) }],
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, ...page(() => import('../features/home/HomePage')) },
          { path: 'parts', ...page(() => import('../features/parts/CatalogPage')) },
          { path: 'parts/:partId', ...page(() => import('../features/parts/PartPage')) },
          { path: 'categories/:slug', ...page(() => import('../features/parts/CategoryPage')) },
          { path: 'bikes/:make/:model/:year', ...page(() => import('../features/parts/BikePage')) },
          { path: 'bikes/:make/:model/:year/:variant', ...page(() => import('../features/parts/BikePage')) },
          { path: 'portfolio', ...page(() => import('../features/portfolio/PortfolioPage')) },
          { path: 'blog', ...page(() => import('../features/blog/BlogPage')) },
          { path: 'cart', ...page(() => import('../features/cart/CartPage')) },
          { path: 'quick-order', ...page(() => import('../features/quickOrder/QuickOrderPage')) },
          { path: 'login', ...page(() => import('../features/auth/LoginPage')) },
          { path: 'signup', ...page(() => import('../features/auth/SignupPage')) },
          {
            element: (
              <RequireAuth>
                <Outlet />
              </RequireAuth>
            ),
            children: [
              { path: 'purchase/:partId', ...page(() => import('../features/orders/PurchasePage')) },
              { path: 'payment/:orderId', ...page(() => import('../features/payments/PaymentPage')) },
              { path: 'reviews/:partId', ...page(() => import('../features/reviews/ReviewPage')) },
              {
                path: 'dashboard',
                ...page(() => import('../features/dashboard/DashboardLayout')),
                children: [
                  { index: true, ...page(() => import('../features/profile/MyProfilePage')) },
                  { path: 'my-orders', ...page(() => import('../features/orders/MyOrdersPage')) },
                  { path: 'add-review', ...page(() => import('../features/reviews/AddReviewPage')) },
                  { path: 'lists', ...page(() => import('../features/lists/MyListsPage')) },
                  { path: 'lists/:listId', ...page(() => import('../features/lists/SavedListPage')) },
                  { path: 'company', ...page(() => import('../features/companies/MyCompanyPage')) },
                  admin('overview', () => import('../features/admin/OverviewPage')),
                  admin('users', () => import('../features/admin/AllUsersPage')),
                  admin('all-orders', () => import('../features/admin/ManageOrdersPage')),
                  admin('manage-parts', () => import('../features/admin/ManagePartsPage')),
                  admin('manage-parts/:partId', () => import('../features/admin/EditPartPage')),
                  admin('add-parts', () => import('../features/admin/AddPartPage')),
                  admin('messages', () => import('../features/admin/MessagesPage')),
                  admin('imports', () => import('../features/imports/ImportsPage')),
                  admin('companies', () => import('../features/companies/CompaniesPage')),
                  admin('companies/:companyId', () => import('../features/companies/CompanyAdminPage')),
                ],
              },
            ],
          },
          { path: '*', ...page(() => import('../features/misc/NotFoundPage')) },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
