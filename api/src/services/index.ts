import type { Db } from '../db/database';
import type { AccessTokens } from '../identity/accessTokens';
import { defaultOrderLimits, defaultRateLimits, type OrderLimits } from '../config';
import { createRateLimits, type RateLimiter } from '../rateLimits';
import type { Identity } from '../identity/firebaseIdentity';
import type { PaymentGateway } from '../payments/paymentGateway';
import { createCatalogService } from '../catalog/catalogService';
import { createImportService } from '../imports/importService';
import { createInventoryService } from '../inventory/inventoryService';
import { createGarageService } from '../garage/garageService';
import { createQuickOrderService } from '../ordering/quickOrderService';
import { createSavedListsService } from '../ordering/savedListsService';
import { createCompaniesService } from '../companies/companiesService';
import { createCompanyPricesService } from '../companies/companyPrices';
import { createCompanyApprovals } from '../companies/companyApprovals';
import { createInvoicingService } from '../invoicing/invoicingService';
import { defaultSeller, type Seller } from '../invoicing/invoicePdf';
import { actorReader } from './actor';
import { createCartService } from './cartService';
import { createContactService } from './contactService';
import { createOrdersService } from './ordersService';
import { createOverviewService, type OverviewReuse } from './overviewService';
import { createPartsService } from './partsService';
import { createPaymentsService } from './paymentsService';
import { createReviewsService } from './reviewsService';
import { createUsersService } from './usersService';

export interface ServiceDeps {
  db: Db;
  identity: Identity;
  tokens: AccessTokens;
  gateway: PaymentGateway;
  adminEmails: string[];
  /** The rate limits of this process; the production defaults when not given. */
  rateLimits?: RateLimiter;
  /** Unpaid orders' expiry and cap; the production defaults when not given. */
  orderLimits?: OrderLimits;
  /** When an admin overview may be answered again; computed for every request when not given. */
  overviewReuse?: OverviewReuse;
  /** Told when an import is queued (the import worker of this process runs it soon). */
  importQueued?: () => void;
  /** The shop as its invoices name it (SHOP_NAME, SHOP_ADDRESS, SHOP_TAX_ID); the defaults when not given. */
  seller?: Seller;
}

/** Every business rule of the shop, once. GraphQL resolvers and REST handlers both call these. */
export function createServices(deps: ServiceDeps) {
  const rateLimits = deps.rateLimits ?? createRateLimits(defaultRateLimits);
  const parts = createPartsService(deps.db);
  const readActor = actorReader(deps.db);
  const orderLimits = deps.orderLimits ?? defaultOrderLimits;
  const orders = createOrdersService({ db: deps.db, parts, rateLimits, readActor, limits: orderLimits });
  const cart = createCartService({ db: deps.db, parts, orders, rateLimits, limits: orderLimits });
  const quickOrder = createQuickOrderService({ db: deps.db, cart });
  return {
    parts,
    orders,
    cart,
    quickOrder,
    savedLists: createSavedListsService({ db: deps.db, quickOrder }),
    companies: createCompaniesService({ db: deps.db }),
    companyPrices: createCompanyPricesService({ db: deps.db }),
    approvals: createCompanyApprovals({ db: deps.db, limits: orderLimits }),
    invoicing: createInvoicingService({ db: deps.db, seller: deps.seller ?? defaultSeller }),
    users: createUsersService({ ...deps, rateLimits, readActor }),
    payments: createPaymentsService({ db: deps.db, gateway: deps.gateway, orders, rateLimits }),
    reviews: createReviewsService({ db: deps.db, parts }),
    contact: createContactService(deps.db, rateLimits),
    overview: createOverviewService(deps.db, deps.overviewReuse),
    catalog: createCatalogService(deps.db),
    imports: createImportService(deps.db, () => deps.importQueued?.()),
    inventory: createInventoryService(deps.db),
    garage: createGarageService(deps.db),
  };
}

export type Services = ReturnType<typeof createServices>;
