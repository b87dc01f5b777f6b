import type { Db } from '../db/database';
import type { AccessTokens } from '../identity/accessTokens';
import type { Identity } from '../identity/firebaseIdentity';
import type { PaymentGateway } from '../payments/paymentGateway';
import { createContactService } from './contactService';
import { createOrdersService } from './ordersService';
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
}

/** Every business rule of the shop, once. GraphQL resolvers and REST handlers both call these. */
export function createServices(deps: ServiceDeps) {
  const parts = createPartsService(deps.db);
  const orders = createOrdersService({ db: deps.db, parts });
  return {
    parts,
    orders,
    users: createUsersService(deps),
    payments: createPaymentsService({ db: deps.db, gateway: deps.gateway, orders }),
    reviews: createReviewsService({ db: deps.db, parts }),
    contact: createContactService(deps.db),
  };
}

export type Services = ReturnType<typeof createServices>;
