/**
 * The web app's routes as the server must know them too: the title and description of each page (the browser
 * sets them as the visitor moves; the server writes them into the HTML it sends, for crawlers and link
 * previews), which pages are public (listed in the sitemap, open to crawlers), and which paths exist at all
 * (any other path answers HTTP 404, while the app still shows its 404 page). Kept beside web/src/app/router.tsx:
 * a route added there is added here.
 */

export const siteName = 'PartsYard';

export interface PageInfo {
  /** The route's pattern: `:name` stands for one path segment. */
  path: string;
  title: string;
  description: string;
  /** Open to everyone: listed in the sitemap and left to crawlers. */
  public: boolean;
  /** A segment of the path names a part (`:partId`): the server answers 404 when no such part exists. */
  part?: boolean;
  /** The path names a category (`:slug`): the server answers 404 when no such category exists. */
  category?: boolean;
  /**
   * The path names a vehicle (`:make/:model/:year`, and `:variant` for one that has one): the server answers 404
   * when no such vehicle exists.
   */
  vehicle?: boolean;
}

const tagline = 'Motorcycle spare parts in bulk, providing reliable parts since 1967.';
const dashboard = (path: string, title: string, description: string): PageInfo => ({
  path: `/dashboard${path}`,
  title: `${title} — ${siteName}`,
  description,
  public: false,
});

export const pages: PageInfo[] = [
  {
    path: '/',
    title: `${siteName} — reliable motorcycle parts since 1967`,
    description: `${siteName}: ${tagline.charAt(0).toLowerCase()}${tagline.slice(1)} Brakes, chains, suspension and more from their minimum order.`,
    public: true,
  },
  {
    path: '/parts',
    title: `All parts — ${siteName}`,
    description: 'Every motorcycle part PartsYard stocks: search by name, see prices, minimum orders and stock.',
    public: true,
  },
  {
    path: '/parts/:partId',
    title: `Part — ${siteName}`,
    description: `A motorcycle part sold in bulk by ${siteName}.`,
    public: true,
    part: true,
  },
  {
    path: '/categories/:slug',
    title: `Category — ${siteName}`,
    description: `Motorcycle parts of one category, sold in bulk by ${siteName}.`,
    public: true,
    category: true,
  },
  {
    path: '/bikes/:make/:model/:year',
    title: `Parts for a bike — ${siteName}`,
    description: `The motorcycle parts that fit one bike, sold in bulk by ${siteName}.`,
    public: true,
    vehicle: true,
  },
  {
    path: '/bikes/:make/:model/:year/:variant',
    title: `Parts for a bike — ${siteName}`,
    description: `The motorcycle parts that fit one bike, sold in bulk by ${siteName}.`,
    public: true,
    vehicle: true,
  },
  {
    path: '/portfolio',
    title: `Portfolio — ${siteName}`,
    description: 'The developer behind PartsYard: skills, projects and an about card.',
    public: true,
  },
  {
    path: '/blog',
    title: `Blog — ${siteName}`,
    description: 'Short answers to questions about React, JavaScript and testing that came up while building the shop.',
    public: true,
  },
  {
    path: '/cart',
    title: `Your cart — ${siteName}`,
    description: 'The parts in your cart: amounts, prices and quantity breaks; check out and pay them at once.',
    public: false,
  },
  {
    path: '/quick-order',
    title: `Quick order — ${siteName}`,
    description:
      'Order motorcycle parts by part number: type, paste from a spreadsheet or upload a CSV of up to 1,000 rows, see each price and problem, and add them to the cart at once.',
    public: true,
  },
  {
    path: '/login',
    title: `Login — ${siteName}`,
    description: 'Log in to PartsYard to order parts, pay for your orders and review what you bought.',
    public: true,
  },
  {
    path: '/signup',
    title: `Sign up — ${siteName}`,
    description: 'Create a PartsYard account to order motorcycle parts in bulk.',
    public: true,
  },
  {
    path: '/purchase/:partId',
    title: `Purchase — ${siteName}`,
    description: 'Order a part.',
    public: false,
    part: true,
  },
  { path: '/payment/:orderId', title: `Payment — ${siteName}`, description: 'Pay for an order.', public: false },
  {
    path: '/reviews/:partId',
    title: `Review a part — ${siteName}`,
    description: 'Review a part you paid for.',
    public: false,
    part: true,
  },
  dashboard('', 'My Profile', 'Your profile.'),
  dashboard('/my-orders', 'My Orders', 'Your orders: pay, cancel, follow them.'),
  dashboard('/add-review', 'Add Review', 'Review the parts you paid for.'),
  dashboard('/lists', 'My Lists', 'Your saved lists of parts: create, rename, delete them.'),
  dashboard(
    '/lists/:listId',
    'A saved list',
    'One of your saved lists: its parts, quantities and prices; into the cart.',
  ),
  dashboard('/overview', 'Overview', 'The business at a glance: revenue, orders, stock, messages.'),
  dashboard('/users', 'All Users', 'Every account of the shop.'),
  dashboard('/all-orders', 'Manage All Orders', 'Every order of the shop.'),
  dashboard('/manage-parts', 'Manage Parts', 'Every part of the shop.'),
  {
    ...dashboard('/manage-parts/:partId', 'Edit a part', "A part's fields, numbers, fitment and stock."),
    part: true,
  },
  dashboard('/add-parts', 'Add A Part', 'Add a part to the shop.'),
  dashboard('/messages', 'Messages', 'Messages from the contact form.'),
  dashboard('/imports', 'Import Catalog', 'Load vehicles, parts, numbers, fitment and supersessions from CSV files.'),
  dashboard('/company', 'My Company', 'Your company: its addresses, members and invitations.'),
  dashboard('/companies', 'Companies', 'Every company buying from the shop.'),
  dashboard('/companies/:companyId', 'A company', "A company's members, addresses and invitations."),
];

/** What a path that is no page shows. */
export const notFoundPage: Omit<PageInfo, 'path'> = {
  title: `Page not found — ${siteName}`,
  description: 'There is no page at this address.',
  public: false,
};

const segments = (path: string) => path.split('/').filter(Boolean);

/** The page at `pathname` and the values of its `:name` segments, or null when no route has that path. */
export function matchPage(pathname: string): { page: PageInfo; params: Record<string, string> } | null {
  let parts: string[];
  try {
    parts = segments(pathname).map(decodeURIComponent);
  } catch {
    return null; // a malformed %-escape names no page
  }
  for (const page of pages) {
    const pattern = segments(page.path);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (pattern.every((p, i) => (p.startsWith(':') ? ((params[p.slice(1)] = parts[i]), true) : p === parts[i])))
      return { page, params };
  }
  return null;
}

/** A part's own page: its name in the title, its description (cut) as the description. */
export function partPageMeta(part: { name: string; description: string }): { title: string; description: string } {
  const description = part.description.length > 155 ? `${part.description.slice(0, 154)}…` : part.description;
  return { title: `${part.name} — ${siteName}`, description: description || `${part.name}, sold by ${siteName}.` };
}

/** A category's page: its name in the title. */
export function categoryPageMeta(category: { name: string }): { title: string; description: string } {
  return {
    title: `${category.name} — ${siteName}`,
    description: `${category.name}: motorcycle parts in bulk from ${siteName}, with brands, stock and the bikes they fit.`,
  };
}

/** A vehicle's page: "Parts for the 2019 Honda CRF450R". */
export function vehiclePageMeta(vehicle: { name: string }): { title: string; description: string } {
  return {
    title: `Parts for the ${vehicle.name} — ${siteName}`,
    description: `The parts that fit the ${vehicle.name}, and universal parts, sold in bulk by ${siteName}.`,
  };
}

/** A vehicle's address (`/bikes/honda/crf450r/2019`, `/bikes/honda/crf450r/2019/abs`): its page. */
export function vehiclePath(vehicle: {
  make: { slug: string };
  model: { slug: string };
  year: number;
  variantSlug: string;
}): string {
  const path = `/bikes/${vehicle.make.slug}/${vehicle.model.slug}/${vehicle.year}`;
  return vehicle.variantSlug ? `${path}/${vehicle.variantSlug}` : path;
}
