import { adminsOnly, forbidden, signInRequired } from '../errors';
import type { Actor } from './actor';

/**
 * Who may call an operation:
 * - `anyone`: visitors too;
 * - `signedIn`: any signed-in caller, about themselves (their profile, their orders);
 * - `owner`: the signed-in owner of the target, and nobody else (admins do not pay or review for customers);
 * - `ownerOrAdmin`: the owner of the target, or an admin;
 * - `admin`: admins only;
 * - `companyAdmin`: a company admin of the target company, or a shop admin (who manages every company);
 * - `companyMember`: any member of the target company (company admin or buyer), or a shop admin.
 */
export type Right = 'anyone' | 'signedIn' | 'owner' | 'ownerOrAdmin' | 'admin' | 'companyAdmin' | 'companyMember';

/**
 * The rights of every service operation, in one table: the services check them (`authorize`,
 * `authorizeTarget`) and nothing else decides. schema.graphql's `@auth` / `@hasRole(role: ADMIN)` declare the
 * same for integrators, and api/test/security/rights.test.ts fails when the two differ, deriving every caller's
 * answer from this table and asking GraphQL and the REST shim for it.
 */
export const rights = {
  'parts.listParts': 'anyone',
  'parts.getPart': 'anyone',
  'parts.popularParts': 'anyone',
  'parts.addPart': 'admin',
  'parts.deletePart': 'admin',
  'parts.setPartPricing': 'admin',
  'reviews.listReviews': 'anyone',
  'reviews.addReview': 'owner', // of a paid order of the part
  'orders.placeOrder': 'signedIn',
  'orders.myOrders': 'signedIn',
  'orders.getOrder': 'ownerOrAdmin',
  'orders.ordersByEmail': 'ownerOrAdmin', // the account holding the email
  'orders.allOrders': 'admin',
  'orders.cancelOrder': 'ownerOrAdmin',
  'orders.markShipped': 'admin',
  'orders.checkout': 'signedIn', // the caller's own cart
  'cart.cart': 'signedIn',
  'cart.addToCart': 'signedIn',
  'cart.setCartLineAmount': 'signedIn',
  'cart.removeCartLine': 'signedIn',
  'cart.mergeCart': 'signedIn',
  'payments.createPaymentIntent': 'owner',
  'payments.payWithTestCard': 'owner',
  'payments.confirmPayment': 'owner',
  'payments.myPayments': 'signedIn',
  'payments.paymentsByEmail': 'ownerOrAdmin',
  'payments.handleWebhook': 'anyone', // the gateway's signature decides
  'settings.read': 'anyone',
  'users.signIn': 'anyone', // a Firebase ID token decides
  'users.me': 'signedIn',
  'users.updateProfile': 'signedIn',
  'users.updateProfileByEmail': 'owner',
  'users.profileByEmail': 'ownerOrAdmin',
  'users.isAdmin': 'ownerOrAdmin',
  'users.listUsers': 'admin',
  'users.grantAdmin': 'admin',
  'users.revokeAdmin': 'admin',
  'users.deleteUser': 'admin',
  'contact.sendMessage': 'anyone',
  'contact.listMessages': 'admin',
  'overview.overview': 'admin',
  'catalog.brands': 'anyone',
  'catalog.categories': 'anyone',
  'catalog.vehicles': 'anyone', // makes, models and vehicles
  'catalog.partsByNumber': 'anyone',
  'catalog.catalog': 'anyone', // browsing, facets and the search
  'catalog.setReplacement': 'admin',
  'imports.start': 'admin',
  'imports.receive': 'admin',
  'imports.finish': 'admin',
  'imports.cancel': 'admin',
  'imports.job': 'admin',
  'imports.jobs': 'admin',
  'imports.rejections': 'admin',
  'catalog.updatePart': 'admin', // every field of a part but its stock, its numbers and fitment
  'catalog.createBrand': 'admin',
  'catalog.renameBrand': 'admin',
  'catalog.createCategory': 'admin',
  'catalog.updateCategory': 'admin', // rename, or move in the tree
  'catalog.createMake': 'admin',
  'catalog.createModel': 'admin',
  'catalog.createVehicle': 'admin',
  'inventory.adjustStock': 'admin',
  'inventory.stockHistory': 'admin',
  // A garage is its owner's alone: every operation is about the caller's own (the account the token names), and
  // none takes another user's id or email, an admin's included.
  'garage.myGarage': 'signedIn',
  'garage.addToGarage': 'signedIn',
  'garage.removeFromGarage': 'signedIn',
  'garage.setCurrentVehicle': 'signedIn',
  'garage.mergeGarage': 'signedIn',
  // Ordering by part number (issue 34, api/src/ordering): the check writes nothing and serves visitors too (a
  // visitor fills the grid and signs in to add it); adding and ordering again are about the caller's own cart and
  // orders, an admin's included (an admin orders again only their own orders).
  'quickOrder.check': 'anyone',
  'quickOrder.addToCart': 'signedIn',
  'quickOrder.orderAgain': 'owner', // of the past order or checkout
  // Saved lists are their owner's alone: nobody else reads or changes one, an admin included.
  'lists.myLists': 'signedIn',
  'lists.create': 'signedIn',
  'lists.list': 'owner',
  'lists.rename': 'owner',
  'lists.delete': 'owner',
  'lists.setLine': 'owner',
  'lists.removeLine': 'owner',
  'lists.addFromCart': 'owner', // of the list (the cart is the caller's own)
  'lists.addFromQuickOrder': 'owner',
  'lists.addFromOrder': 'owner', // of the list and of the order
  'lists.toCart': 'owner',
  // Companies (issue 35, api/src/companies): membership is read from the database on every call, so a member
  // removed is refused at once. A shop admin manages every company but joins none.
  'companies.myCompany': 'signedIn',
  'companies.create': 'signedIn', // a customer in no company
  'companies.company': 'companyMember',
  'companies.list': 'admin',
  'companies.update': 'companyAdmin',
  'companies.addAddress': 'companyAdmin',
  'companies.removeAddress': 'companyAdmin',
  'companies.invite': 'companyAdmin',
  'companies.withdrawInvitation': 'companyAdmin',
  'companies.setMemberRole': 'companyAdmin',
  'companies.removeMember': 'companyAdmin',
  'companies.leave': 'signedIn', // the caller's own membership
  'companies.myInvitations': 'signedIn', // those to the caller's verified address
  'companies.acceptInvitation': 'owner', // the account holding the invitation's address, verified
  'companies.declineInvitation': 'owner',
  // Company prices (issue 35 point 3): the shop's admins set them; the company's admins may read its list; any
  // signed-in caller asks their own company's prices (none for a caller in no company).
  'companies.myPrices': 'signedIn',
  'companies.priceList': 'companyAdmin',
  'companies.setPercentOff': 'admin',
  'companies.setPartPrice': 'admin',
  'companies.removePartPrice': 'admin',
  // Approvals (issue 35 point 2, api/src/companies/companyApprovals.ts): decided by a company admin of the buyer's
  // company as it is when deciding (read in the deciding transaction), or a shop admin.
  'companies.setBuyerLimit': 'companyAdmin',
  'companies.approvals': 'companyAdmin', // the company's checkouts awaiting approval
  'companies.approveCheckout': 'companyAdmin',
  'companies.declineCheckout': 'companyAdmin',
  // Pay on account (issue 35 point 4, api/src/invoicing): terms and payments are the shop admins'; a company's
  // invoices are its company admins' (all) and buyers' (their own, decided by the service).
  'invoicing.companyAccount': 'companyMember', // terms, credit limit, what the company owes
  'invoicing.setTerms': 'admin',
  'invoicing.payOnAccount': 'owner', // of the unpaid checkout, a member of a company with terms
  'invoicing.invoice': 'companyMember', // a buyer only their own; also its PDF
  'invoicing.companyInvoices': 'companyMember', // a buyer's list holds their own
  'invoicing.allInvoices': 'admin',
  'invoicing.recordPayment': 'admin',
} as const satisfies Record<string, Right>;

export type Operation = keyof typeof rights;
/** The operations a caller must be signed in for. */
export type SignedInOperation = { [K in Operation]: (typeof rights)[K] extends 'anyone' ? never : K }[Operation];

/** Whether an operation needs a signed-in caller (every right but `anyone`). */
export const needsCaller = (operation: Operation): operation is SignedInOperation => rights[operation] !== 'anyone';

/**
 * The caller, if the operation lets them in before its target is known: 401 without a caller, 403 for a
 * customer on an admin operation. Owner operations check the target next (`authorizeTarget`).
 */
export function authorize(operation: SignedInOperation, actor: Actor | null): Actor {
  if (!actor) throw signInRequired();
  if (rights[operation] === 'admin' && actor.role !== 'admin') throw adminsOnly();
  return actor;
}

/**
 * Whether the caller may act on a target owned by `ownerId` (a user id, or null for a target whose owner was
 * deleted): the owner may; an admin may where the right says `ownerOrAdmin` (and on admin operations).
 * Refused with 403 and `message`.
 */
export function authorizeTarget(
  operation: SignedInOperation,
  caller: Actor,
  ownerId: string | null,
  message: string,
): void {
  const right: Right = rights[operation];
  if (right === 'admin' && caller.role === 'admin') return;
  if (right === 'ownerOrAdmin' && caller.role === 'admin') return;
  if (ownerId !== null && ownerId === caller.userId && right !== 'admin') return;
  throw forbidden(message);
}

/**
 * Whether the caller may act on a company by `operation`, given their role in it (null when they are not its
 * member): its company admins on `companyAdmin` operations, any member on `companyMember` ones, and shop admins
 * on both. Refused with 403.
 */
export function authorizeCompany(
  operation: SignedInOperation,
  caller: Actor,
  roleInCompany: 'company_admin' | 'buyer' | null,
): void {
  const right: Right = rights[operation];
  if (caller.role === 'admin' && (right === 'companyAdmin' || right === 'companyMember' || right === 'admin')) return;
  if (right === 'companyMember' && roleInCompany !== null) return;
  if (right === 'companyAdmin' && roleInCompany === 'company_admin') return;
  throw forbidden(
    roleInCompany === null ? 'You are not a member of this company' : 'Only the company’s admins may do this',
  );
}
