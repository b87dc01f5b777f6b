import type { Operation, Right } from '../../src/services/rights';

/**
 * The rights matrix: every GraphQL operation (each Query and Mutation field of schema.graphql) and every
 * /api route, with the answer each kind of caller gets. It is data: `rights.test.ts` runs every cell against
 * a real app, fails when the schema or the REST router gains an operation this table does not list, and
 * fails when docs/security.md shows another table (`renderRights.ts` writes it).
 *
 * Each row names its target. "customer" is the customer the target belongs to; "other" is another customer
 * sending the very same request; the token columns send it with the customer's identity in a token the
 * server must not accept as an access token.
 */

/** The callers, in column order, and what each sends. */
export const callers = {
  anonymous: { title: 'anonymous', means: 'no `Authorization` header' },
  customer: { title: 'customer', means: 'the access token of the customer the target belongs to' },
  other: { title: 'other customer', means: "another customer's access token (the target is not theirs)" },
  admin: { title: 'admin', means: "an admin's access token" },
  expired: { title: 'expired', means: "the customer's access token, signed with the server's secret, expired" },
  secret: { title: 'other secret', means: "the customer's claims signed (HS256) with a secret not the server's" },
  none: { title: 'alg none', means: "the customer's claims in an unsigned token (`alg: none`)" },
  deleted: { title: 'deleted user', means: 'the access token of a user an admin has since deleted' },
  junk: { title: 'not a JWT', means: 'a bearer token that is random bytes' },
  idToken: {
    title: 'own ID token',
    means: "the customer's Firebase ID token (from the Auth emulator) as bearer, instead of an access token",
  },
  otherIdToken: { title: "other's ID token", means: "another account's Firebase ID token as bearer" },
} as const;

export type CallerKey = keyof typeof callers;
export const callerKeys = Object.keys(callers) as CallerKey[];

/** `ok`, or the refusal: an HTTP status on /api, the matching `extensions.code` on /graphql. */
export type Expected = 'ok' | 400 | 401 | 403 | 404 | 409;

/** The GraphQL code of each refusal status (GraphQL answers 401 and 403 with that HTTP status too). */
export const graphqlCodeOf = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
} as const;

export interface RightsRow {
  /** `Query.field` / `Mutation.field`, or `METHOD /api/path/{param}` as the REST router registers it. */
  operation: string;
  api: 'graphql' | 'rest';
  /** What the request is about, and whose it is. */
  target: string;
  expected: Record<CallerKey, Expected>;
}

const graphql = `
| operation                    | anonymous | customer | other | admin | expired | secret | none | deleted | junk | idToken | otherIdToken | target                                                  |
| Query.parts                  | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the first page of parts                                 |
| Query.part                   | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a part                                                  |
| Query.popularParts           | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the most ordered parts                                  |
| Query.reviews                | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the latest reviews                                      |
| Query.paymentSettings        | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the payment mode                                        |
| Query.clientSettings         | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the web client's settings                               |
| Query.me                     | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own profile                                |
| Query.myOrders               | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own orders                                 |
| Query.myPayments             | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own payments                               |
| Query.order                  | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's order                                    |
| Query.orders                 | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every order                                             |
| Query.users                  | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every user                                              |
| Query.isAdmin                | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's email                                    |
| Query.contactMessages        | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every contact message                                   |
| Query.adminOverview          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the shop's figures (revenue, stock, messages)            |
| Query.cart                   | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own cart                                   |
| Query.brands                 | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | every brand                                             |
| Query.categories             | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the category tree                                       |
| Query.makes                  | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | every make of vehicle                                   |
| Query.models                 | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the models of a make                                    |
| Query.vehicles               | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the vehicles of a model                                 |
| Query.partsByNumber          | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | parts by a part number                                  |
| Query.importJobs             | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every import                                            |
| Query.importJob              | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import                                               |
| Query.importRejections       | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import's rejected rows                               |
| Mutation.startImport         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new import                                            |
| Mutation.finishImport        | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import whose file was sent                           |
| Mutation.cancelImport        | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import whose file was sent                           |
| Query.catalog                | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the catalog: a page, its total and facets               |
| Query.category               | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a category by its address name                          |
| Query.brand                  | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a brand by its address name                             |
| Query.vehicle                | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a vehicle by id                                         |
| Query.vehicleBySlugs         | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a vehicle by its address names                          |
| Mutation.signIn              | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the customer's Firebase ID token, as the argument       |
| Mutation.updateProfile       | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own profile                                |
| Mutation.addPart             | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new part                                              |
| Mutation.deletePart          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part                                                  |
| Mutation.placeOrder          | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order for the caller of a part in stock              |
| Mutation.cancelOrder         | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order                             |
| Mutation.createPaymentIntent | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order                             |
| Mutation.payWithTestCard     | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a payment intent for the customer's unpaid order        |
| Mutation.confirmPayment      | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's order, its intent paid by card           |
| Mutation.markOrderShipped    | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's paid order                               |
| Mutation.addReview           | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part the customer has paid for                        |
| Mutation.grantAdmin          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's email (verified)                         |
| Mutation.revokeAdmin         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | another admin's email                                   |
| Mutation.deleteUser          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's account                                  |
| Mutation.sendContactMessage  | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a new contact message                                   |
| Mutation.addToCart           | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part in stock, into the caller's own cart             |
| Mutation.setCartLineAmount   | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a line of the customer's cart                           |
| Mutation.removeCartLine      | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a line of the customer's cart                           |
| Mutation.mergeCart           | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a visitor's cart, into the caller's own cart            |
| Mutation.checkout            | 401       | ok       | 400   | 400   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's cart (others check out their own, empty) |
| Mutation.setPartPricing      | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's quantity breaks and pack size                  |
| Query.stockHistory           | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's stock history                                  |
| Mutation.updatePart          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's fields (its price)                             |
| Mutation.adjustStock         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's stock (units received)                         |
| Mutation.createBrand         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new brand                                             |
| Mutation.renameBrand         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a brand                                                 |
| Mutation.createCategory      | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new category                                          |
| Mutation.updateCategory      | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a category (renamed)                                    |
| Mutation.createMake          | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new make of vehicle                                   |
| Mutation.createModel         | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new model of a make                                   |
| Mutation.createVehicle       | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new vehicle of a model                                |
| Query.myGarage               | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own garage                                 |
| Mutation.addToGarage         | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a vehicle of the catalog, into the caller's own garage  |
| Mutation.removeFromGarage    | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a bike in the customer's garage                         |
| Mutation.setCurrentVehicle   | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a bike in the customer's garage                         |
| Mutation.mergeGarage         | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a visitor's garage, into the caller's own garage        |
| Query.quickOrderCheck        | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | quick-order lines naming the part by its SKU            |
| Query.savedLists             | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own saved lists                            |
| Query.savedList              | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| Mutation.addQuickOrderToCart | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | quick-order lines, into the caller's own cart           |
| Mutation.orderAgain          | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's past order, into their cart              |
| Mutation.createSavedList     | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new saved list of the caller                          |
| Mutation.renameSavedList     | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| Mutation.deleteSavedList     | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| Mutation.setSavedListLine    | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part in the customer's saved list                     |
| Mutation.removeSavedListLine | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part in the customer's saved list                     |
| Mutation.addCartToSavedList  | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from their cart              |
| Mutation.addQuickOrderToSavedList | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from quick-order lines       |
| Mutation.addOrderToSavedList | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from their past order        |
| Mutation.savedListToCart     | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, into their cart              |
| Query.myCompany              | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company (none for others)              |
| Query.company                | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company                                  |
| Query.companies              | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every company                                           |
| Query.myCompanyInvitations   | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | invitations to the caller's verified address            |
| Mutation.createCompany       | 401       | 409      | ok    | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new company of the caller                             |
| Mutation.updateCompany       | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company (renamed)                        |
| Mutation.addCompanyAddress   | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a new address                   |
| Mutation.removeCompanyAddress | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an address of the customer's company                    |
| Mutation.inviteToCompany     | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a new invitation                |
| Mutation.withdrawCompanyInvitation | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an open invitation of the customer's company            |
| Mutation.acceptCompanyInvitation | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invitation to the customer's address                 |
| Mutation.declineCompanyInvitation | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invitation to the customer's address                 |
| Mutation.setCompanyMemberRole | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| Mutation.removeCompanyMember | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| Mutation.leaveCompany        | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company membership                     |
| Query.myPrices               | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company prices (none for others)       |
| Query.companyPriceList       | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's price list                     |
| Mutation.setCompanyPercentOff | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's price list (percent off)       |
| Mutation.setCompanyPartPrice | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a part's fixed price            |
| Mutation.removeCompanyPartPrice | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a fixed price of the customer's company                 |
| Query.companyApprovals       | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's orders awaiting approval       |
| Mutation.setCompanyBuyerLimit | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| Mutation.approveCheckout     | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order awaiting approval in the customer's company    |
| Mutation.declineCheckout     | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order awaiting approval in the customer's company    |
| Query.companyAccount          | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's terms and balance              |
| Query.invoice                 | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invoice of the customer's company                    |
| Query.companyInvoices         | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the invoices of the customer's company                  |
| Query.invoices                | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every invoice                                           |
| Mutation.setCompanyTerms      | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's terms                          |
| Mutation.payOnAccount         | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order, their company with terms   |
| Mutation.recordInvoicePayment | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invoice of the customer's company                    |
`;

const rest = `
| operation                        | anonymous | customer | other | admin | expired | secret | none | deleted | junk | idToken | otherIdToken | target                                                  |
| GET /api/parts                   | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the first page of parts                                 |
| GET /api/parts/by-number/{number} | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | parts by a part number                                  |
| GET /api/catalog                 | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the catalog: a page, its total and facets               |
| GET /api/search                  | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a search of the catalog                                 |
| GET /api/parts/{partId}          | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a part                                                  |
| POST /api/parts                  | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new part                                              |
| DELETE /api/part/{id}            | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part                                                  |
| PATCH /api/parts/{id}            | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's fields (its price)                             |
| POST /api/parts/{id}/stock       | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's stock (units received)                         |
| GET /api/parts/{id}/stock        | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part's stock history                                  |
| GET /api/reviews                 | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | the latest reviews                                      |
| POST /api/reviews                | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part the customer has paid for                        |
| POST /api/orders                 | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order for the caller of a part in stock              |
| GET /api/orders                  | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every order                                             |
| GET /api/orders/filter           | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's orders (?email=)                         |
| GET /api/order/{orderId}         | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's order                                    |
| DELETE /api/order/{id}           | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order                             |
| PATCH /api/order/{id}            | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's order, its intent paid by card           |
| PATCH /api/order/{id}/shipped    | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's paid order                               |
| POST /api/create-payment-intent  | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order                             |
| POST /api/test-gateway/pay       | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a payment intent for the customer's unpaid order        |
| GET /api/payments/filter         | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's payments (?email=)                       |
| GET /api/users                   | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every user                                              |
| PUT /api/user/admin/{email}      | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's email (verified)                         |
| DELETE /api/user/admin/{email}   | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | another admin's email                                   |
| GET /api/admin/{email}           | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's email                                    |
| GET /api/user/{email}            | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's profile                                  |
| PUT /api/user/{email}            | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | ok      | 403          | the customer's profile: update, or sign-in by ID token  |
| DELETE /api/user/{id}            | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's account                                  |
| POST /api/contact                | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | a new contact message                                   |
| GET /api/contact                 | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every contact message                                   |
| POST /api/imports                | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new import                                            |
| GET /api/imports                 | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every import                                            |
| GET /api/imports/{id}            | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import                                               |
| PUT /api/imports/{id}/chunks/{part} | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the next chunk of an import's file                      |
| POST /api/imports/{id}/finish    | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import whose file was sent                           |
| POST /api/imports/{id}/cancel    | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import whose file was sent                           |
| GET /api/imports/{id}/rejections | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import's rejected rows                               |
| GET /api/imports/{id}/rejections.csv | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an import's rejected rows, as CSV                       |
| POST /api/stripe/webhook         | 400       | 400      | 400   | 400   | 400     | 400    | 400  | 400     | 400  | 400     | 400          | a payment_intent.succeeded event, no signature          |
| GET /api/garage                  | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own garage                                 |
| PUT /api/garage/current          | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a bike in the customer's garage                         |
| POST /api/garage/merge           | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a visitor's garage, into the caller's own garage        |
| PUT /api/garage/{vehicleId}      | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a vehicle of the catalog, into the caller's own garage  |
| DELETE /api/garage/{vehicleId}   | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a bike in the customer's garage                         |
| POST /api/quick-order/check      | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | quick-order lines naming the part by its SKU            |
| POST /api/quick-order/problems.csv | ok        | ok       | ok    | ok    | ok      | ok     | ok   | ok      | ok   | ok      | ok           | quick-order lines' problems, as CSV                     |
| POST /api/quick-order/cart       | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | quick-order lines, into the caller's own cart           |
| POST /api/orders/again           | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's past order, into their cart              |
| GET /api/lists                   | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own saved lists                            |
| POST /api/lists                  | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new saved list of the caller                          |
| GET /api/lists/{id}              | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| PATCH /api/lists/{id}            | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| DELETE /api/lists/{id}           | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list                               |
| PUT /api/lists/{id}/lines/{partId} | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part in the customer's saved list                     |
| DELETE /api/lists/{id}/lines/{partId} | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a part in the customer's saved list                     |
| POST /api/lists/{id}/from-cart   | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from their cart              |
| POST /api/lists/{id}/from-quick-order | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from quick-order lines       |
| POST /api/lists/{id}/from-order  | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, from their past order        |
| POST /api/lists/{id}/cart        | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's saved list, into their cart              |
| GET /api/company                 | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company (none for others)              |
| DELETE /api/company              | 401       | ok       | 404   | 404   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company membership                     |
| GET /api/companies               | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every company                                           |
| POST /api/companies              | 401       | 409      | ok    | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a new company of the caller                             |
| GET /api/companies/{id}          | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company                                  |
| PATCH /api/companies/{id}        | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company (renamed)                        |
| POST /api/companies/{id}/addresses | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a new address                   |
| DELETE /api/companies/{id}/addresses/{addressId} | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an address of the customer's company                    |
| POST /api/companies/{id}/invitations | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a new invitation                |
| PUT /api/companies/{id}/members/{userId} | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| DELETE /api/companies/{id}/members/{userId} | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| PUT /api/companies/{id}/members/{userId}/limit | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a buyer of the customer's company                       |
| GET /api/companies/{id}/approvals | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's orders awaiting approval       |
| POST /api/company-approvals/{id}/approve | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order awaiting approval in the customer's company    |
| POST /api/company-approvals/{id}/decline | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an order awaiting approval in the customer's company    |
| GET /api/company-invitations     | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | invitations to the caller's verified address            |
| DELETE /api/company-invitations/{id} | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an open invitation of the customer's company            |
| POST /api/company-invitations/{id}/accept | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invitation to the customer's address                 |
| POST /api/company-invitations/{id}/decline | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invitation to the customer's address                 |
| GET /api/company/prices      | 401       | ok       | ok    | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the caller's own company prices (none for others)       |
| GET /api/companies/{id}/prices | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's price list                     |
| PUT /api/companies/{id}/prices | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's price list (percent off)       |
| PUT /api/companies/{id}/prices/{partId} | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company, a part's fixed price            |
| DELETE /api/companies/{id}/prices/{partId} | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | a fixed price of the customer's company                 |
| GET /api/companies/{id}/account   | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's terms and balance              |
| PUT /api/companies/{id}/terms     | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's company's terms                          |
| GET /api/companies/{id}/invoices  | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the invoices of the customer's company                  |
| POST /api/orders/{id}/pay-on-account | 401       | ok       | 403   | 403   | 401     | 401    | 401  | 401     | 401  | 401     | 401          | the customer's unpaid order, their company with terms   |
| GET /api/invoices                 | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | every invoice                                           |
| GET /api/invoices/{id}.pdf        | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invoice of the customer's company (its PDF)          |
| GET /api/invoices/{id}            | 401       | ok       | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invoice of the customer's company                    |
| POST /api/invoices/{id}/payments  | 401       | 403      | 403   | ok    | 401     | 401    | 401  | 401     | 401  | 401     | 401          | an invoice of the customer's company                    |
`;

/**
 * The service operation behind each row: its right in api/src/services/rights.ts decides every caller's answer
 * (`answerOf`), and rights.test.ts checks that the tables above say the same.
 */
export const servedBy: Record<string, Operation> = {
  'Query.parts': 'parts.listParts',
  'Query.part': 'parts.getPart',
  'Query.popularParts': 'parts.popularParts',
  'Query.reviews': 'reviews.listReviews',
  'Query.paymentSettings': 'settings.read',
  'Query.clientSettings': 'settings.read',
  'Query.me': 'users.me',
  'Query.myOrders': 'orders.myOrders',
  'Query.myPayments': 'payments.myPayments',
  'Query.order': 'orders.getOrder',
  'Query.orders': 'orders.allOrders',
  'Query.users': 'users.listUsers',
  'Query.isAdmin': 'users.isAdmin',
  'Query.contactMessages': 'contact.listMessages',
  'Query.adminOverview': 'overview.overview',
  'Query.cart': 'cart.cart',
  'Query.brands': 'catalog.brands',
  'Query.categories': 'catalog.categories',
  'Query.makes': 'catalog.vehicles',
  'Query.models': 'catalog.vehicles',
  'Query.vehicles': 'catalog.vehicles',
  'Query.partsByNumber': 'catalog.partsByNumber',
  'Query.importJobs': 'imports.jobs',
  'Query.importJob': 'imports.job',
  'Query.importRejections': 'imports.rejections',
  'Mutation.startImport': 'imports.start',
  'Mutation.finishImport': 'imports.finish',
  'Mutation.cancelImport': 'imports.cancel',
  'POST /api/imports': 'imports.start',
  'GET /api/imports': 'imports.jobs',
  'GET /api/imports/{id}': 'imports.job',
  'PUT /api/imports/{id}/chunks/{part}': 'imports.receive',
  'POST /api/imports/{id}/finish': 'imports.finish',
  'POST /api/imports/{id}/cancel': 'imports.cancel',
  'GET /api/imports/{id}/rejections': 'imports.rejections',
  'GET /api/imports/{id}/rejections.csv': 'imports.rejections',
  'Query.catalog': 'catalog.catalog',
  'Query.category': 'catalog.categories',
  'Query.brand': 'catalog.brands',
  'Query.vehicle': 'catalog.vehicles',
  'Query.vehicleBySlugs': 'catalog.vehicles',
  'Mutation.addToCart': 'cart.addToCart',
  'Mutation.setCartLineAmount': 'cart.setCartLineAmount',
  'Mutation.removeCartLine': 'cart.removeCartLine',
  'Mutation.mergeCart': 'cart.mergeCart',
  'Mutation.checkout': 'orders.checkout',
  'Mutation.setPartPricing': 'parts.setPartPricing',
  'Query.stockHistory': 'inventory.stockHistory',
  'Mutation.updatePart': 'catalog.updatePart',
  'Mutation.adjustStock': 'inventory.adjustStock',
  'Mutation.createBrand': 'catalog.createBrand',
  'Mutation.renameBrand': 'catalog.renameBrand',
  'Mutation.createCategory': 'catalog.createCategory',
  'Mutation.updateCategory': 'catalog.updateCategory',
  'Mutation.createMake': 'catalog.createMake',
  'Mutation.createModel': 'catalog.createModel',
  'Mutation.createVehicle': 'catalog.createVehicle',
  'Mutation.signIn': 'users.signIn',
  'Mutation.updateProfile': 'users.updateProfile',
  'Mutation.addPart': 'parts.addPart',
  'Mutation.deletePart': 'parts.deletePart',
  'Mutation.placeOrder': 'orders.placeOrder',
  'Mutation.cancelOrder': 'orders.cancelOrder',
  'Mutation.createPaymentIntent': 'payments.createPaymentIntent',
  'Mutation.payWithTestCard': 'payments.payWithTestCard',
  'Mutation.confirmPayment': 'payments.confirmPayment',
  'Mutation.markOrderShipped': 'orders.markShipped',
  'Mutation.addReview': 'reviews.addReview',
  'Mutation.grantAdmin': 'users.grantAdmin',
  'Mutation.revokeAdmin': 'users.revokeAdmin',
  'Mutation.deleteUser': 'users.deleteUser',
  'Mutation.sendContactMessage': 'contact.sendMessage',
  'GET /api/parts': 'parts.listParts',
  'GET /api/parts/by-number/{number}': 'catalog.partsByNumber',
  'GET /api/catalog': 'catalog.catalog',
  'GET /api/search': 'catalog.catalog',
  'GET /api/parts/{partId}': 'parts.getPart',
  'POST /api/parts': 'parts.addPart',
  'DELETE /api/part/{id}': 'parts.deletePart',
  'PATCH /api/parts/{id}': 'catalog.updatePart',
  'POST /api/parts/{id}/stock': 'inventory.adjustStock',
  'GET /api/parts/{id}/stock': 'inventory.stockHistory',
  'GET /api/reviews': 'reviews.listReviews',
  'POST /api/reviews': 'reviews.addReview',
  'POST /api/orders': 'orders.placeOrder',
  'GET /api/orders': 'orders.allOrders',
  'GET /api/orders/filter': 'orders.ordersByEmail',
  'GET /api/order/{orderId}': 'orders.getOrder',
  'DELETE /api/order/{id}': 'orders.cancelOrder',
  'PATCH /api/order/{id}': 'payments.confirmPayment',
  'PATCH /api/order/{id}/shipped': 'orders.markShipped',
  'POST /api/create-payment-intent': 'payments.createPaymentIntent',
  'POST /api/test-gateway/pay': 'payments.payWithTestCard',
  'GET /api/payments/filter': 'payments.paymentsByEmail',
  'GET /api/users': 'users.listUsers',
  'PUT /api/user/admin/{email}': 'users.grantAdmin',
  'DELETE /api/user/admin/{email}': 'users.revokeAdmin',
  'GET /api/admin/{email}': 'users.isAdmin',
  'GET /api/user/{email}': 'users.profileByEmail',
  'PUT /api/user/{email}': 'users.updateProfileByEmail',
  'DELETE /api/user/{id}': 'users.deleteUser',
  'POST /api/contact': 'contact.sendMessage',
  'GET /api/contact': 'contact.listMessages',
  'POST /api/stripe/webhook': 'payments.handleWebhook',
  'Query.myGarage': 'garage.myGarage',
  'Mutation.addToGarage': 'garage.addToGarage',
  'Mutation.removeFromGarage': 'garage.removeFromGarage',
  'Mutation.setCurrentVehicle': 'garage.setCurrentVehicle',
  'Mutation.mergeGarage': 'garage.mergeGarage',
  'GET /api/garage': 'garage.myGarage',
  'PUT /api/garage/current': 'garage.setCurrentVehicle',
  'POST /api/garage/merge': 'garage.mergeGarage',
  'PUT /api/garage/{vehicleId}': 'garage.addToGarage',
  'DELETE /api/garage/{vehicleId}': 'garage.removeFromGarage',
  'Query.quickOrderCheck': 'quickOrder.check',
  'Query.savedLists': 'lists.myLists',
  'Query.savedList': 'lists.list',
  'Mutation.addQuickOrderToCart': 'quickOrder.addToCart',
  'Mutation.orderAgain': 'quickOrder.orderAgain',
  'Mutation.createSavedList': 'lists.create',
  'Mutation.renameSavedList': 'lists.rename',
  'Mutation.deleteSavedList': 'lists.delete',
  'Mutation.setSavedListLine': 'lists.setLine',
  'Mutation.removeSavedListLine': 'lists.removeLine',
  'Mutation.addCartToSavedList': 'lists.addFromCart',
  'Mutation.addQuickOrderToSavedList': 'lists.addFromQuickOrder',
  'Mutation.addOrderToSavedList': 'lists.addFromOrder',
  'Mutation.savedListToCart': 'lists.toCart',
  'Query.myCompany': 'companies.myCompany',
  'Query.company': 'companies.company',
  'Query.companies': 'companies.list',
  'Query.myCompanyInvitations': 'companies.myInvitations',
  'Mutation.createCompany': 'companies.create',
  'Mutation.updateCompany': 'companies.update',
  'Mutation.addCompanyAddress': 'companies.addAddress',
  'Mutation.removeCompanyAddress': 'companies.removeAddress',
  'Mutation.inviteToCompany': 'companies.invite',
  'Mutation.withdrawCompanyInvitation': 'companies.withdrawInvitation',
  'Mutation.acceptCompanyInvitation': 'companies.acceptInvitation',
  'Mutation.declineCompanyInvitation': 'companies.declineInvitation',
  'Mutation.setCompanyMemberRole': 'companies.setMemberRole',
  'Mutation.removeCompanyMember': 'companies.removeMember',
  'Mutation.leaveCompany': 'companies.leave',
  'Query.myPrices': 'companies.myPrices',
  'Query.companyPriceList': 'companies.priceList',
  'Mutation.setCompanyPercentOff': 'companies.setPercentOff',
  'Mutation.setCompanyPartPrice': 'companies.setPartPrice',
  'Mutation.removeCompanyPartPrice': 'companies.removePartPrice',
  'Query.companyApprovals': 'companies.approvals',
  'Mutation.setCompanyBuyerLimit': 'companies.setBuyerLimit',
  'Mutation.approveCheckout': 'companies.approveCheckout',
  'Mutation.declineCheckout': 'companies.declineCheckout',
  'POST /api/quick-order/check': 'quickOrder.check',
  'POST /api/quick-order/problems.csv': 'quickOrder.check',
  'POST /api/quick-order/cart': 'quickOrder.addToCart',
  'POST /api/orders/again': 'quickOrder.orderAgain',
  'GET /api/lists': 'lists.myLists',
  'POST /api/lists': 'lists.create',
  'GET /api/lists/{id}': 'lists.list',
  'PATCH /api/lists/{id}': 'lists.rename',
  'DELETE /api/lists/{id}': 'lists.delete',
  'PUT /api/lists/{id}/lines/{partId}': 'lists.setLine',
  'DELETE /api/lists/{id}/lines/{partId}': 'lists.removeLine',
  'POST /api/lists/{id}/from-cart': 'lists.addFromCart',
  'POST /api/lists/{id}/from-quick-order': 'lists.addFromQuickOrder',
  'POST /api/lists/{id}/from-order': 'lists.addFromOrder',
  'POST /api/lists/{id}/cart': 'lists.toCart',
  'GET /api/company': 'companies.myCompany',
  'DELETE /api/company': 'companies.leave',
  'GET /api/companies': 'companies.list',
  'POST /api/companies': 'companies.create',
  'GET /api/companies/{id}': 'companies.company',
  'PATCH /api/companies/{id}': 'companies.update',
  'POST /api/companies/{id}/addresses': 'companies.addAddress',
  'DELETE /api/companies/{id}/addresses/{addressId}': 'companies.removeAddress',
  'POST /api/companies/{id}/invitations': 'companies.invite',
  'PUT /api/companies/{id}/members/{userId}': 'companies.setMemberRole',
  'DELETE /api/companies/{id}/members/{userId}': 'companies.removeMember',
  'PUT /api/companies/{id}/members/{userId}/limit': 'companies.setBuyerLimit',
  'GET /api/companies/{id}/approvals': 'companies.approvals',
  'POST /api/company-approvals/{id}/approve': 'companies.approveCheckout',
  'POST /api/company-approvals/{id}/decline': 'companies.declineCheckout',
  'GET /api/company-invitations': 'companies.myInvitations',
  'DELETE /api/company-invitations/{id}': 'companies.withdrawInvitation',
  'POST /api/company-invitations/{id}/accept': 'companies.acceptInvitation',
  'POST /api/company-invitations/{id}/decline': 'companies.declineInvitation',
  'GET /api/company/prices': 'companies.myPrices',
  'GET /api/companies/{id}/prices': 'companies.priceList',
  'PUT /api/companies/{id}/prices': 'companies.setPercentOff',
  'PUT /api/companies/{id}/prices/{partId}': 'companies.setPartPrice',
  'DELETE /api/companies/{id}/prices/{partId}': 'companies.removePartPrice',
  'Query.companyAccount': 'invoicing.companyAccount',
  'Query.invoice': 'invoicing.invoice',
  'Query.companyInvoices': 'invoicing.companyInvoices',
  'Query.invoices': 'invoicing.allInvoices',
  'Mutation.setCompanyTerms': 'invoicing.setTerms',
  'Mutation.payOnAccount': 'invoicing.payOnAccount',
  'Mutation.recordInvoicePayment': 'invoicing.recordPayment',
  'GET /api/companies/{id}/account': 'invoicing.companyAccount',
  'PUT /api/companies/{id}/terms': 'invoicing.setTerms',
  'GET /api/companies/{id}/invoices': 'invoicing.companyInvoices',
  'POST /api/orders/{id}/pay-on-account': 'invoicing.payOnAccount',
  'GET /api/invoices': 'invoicing.allInvoices',
  'GET /api/invoices/{id}.pdf': 'invoicing.invoice',
  'GET /api/invoices/{id}': 'invoicing.invoice',
  'POST /api/invoices/{id}/payments': 'invoicing.recordPayment',
};

/**
 * Where a row's answers are not its right's alone, and why: the row's own cells, which the derivation must
 * leave as they are.
 */
export const notByRight: Record<string, Partial<Record<CallerKey, Expected>> & { why: string }> = {
  'Mutation.createCompany': {
    why: 'the customer is the company admin of the company rows are about, and an account is in one company at most; a shop admin joins none',
    customer: 409,
    admin: 403,
  },
  'Mutation.leaveCompany': {
    why: 'another caller is in no company',
    other: 404,
    admin: 404,
  },
  'DELETE /api/company': {
    why: 'another caller is in no company',
    other: 404,
    admin: 404,
  },
  'POST /api/companies': {
    why: 'the customer is the company admin of the company rows are about, and an account is in one company at most; a shop admin joins none',
    customer: 409,
    admin: 403,
  },
  'PUT /api/user/{email}': {
    why: "with a Firebase ID token as bearer, the row is the original backend's sign-in (users.signIn)",
    idToken: 'ok',
    otherIdToken: 403,
  },
  'Mutation.setCartLineAmount': {
    why: "the target is a line of the customer's own cart: another caller's cart has no such line",
    other: 404,
    admin: 404,
  },
  'Mutation.removeCartLine': {
    why: "the target is a line of the customer's own cart: another caller's cart has no such line",
    other: 404,
    admin: 404,
  },
  'Mutation.checkout': {
    why: "a caller checks out their own cart, and another caller's is empty",
    other: 400,
    admin: 400,
  },
  'Mutation.removeFromGarage': {
    why: "the target is a bike in the customer's own garage: another caller's garage has no such bike",
    other: 404,
    admin: 404,
  },
  'Mutation.setCurrentVehicle': {
    why: "the target is a bike in the customer's own garage: another caller's garage has no such bike",
    other: 404,
    admin: 404,
  },
  'DELETE /api/garage/{vehicleId}': {
    why: "the target is a bike in the customer's own garage: another caller's garage has no such bike",
    other: 404,
    admin: 404,
  },
  'PUT /api/garage/current': {
    why: "the target is a bike in the customer's own garage: another caller's garage has no such bike",
    other: 404,
    admin: 404,
  },
  'POST /api/stripe/webhook': {
    why: "the gateway's signature decides, and this request has none",
    ...(Object.fromEntries(Object.keys(callers).map((c) => [c, 400])) as Record<CallerKey, Expected>),
  },
};

/** The answer a caller gets from an operation, by its right alone. */
export function answerOf(right: Right, caller: CallerKey): Expected {
  if (right === 'anyone') return 'ok';
  const signedIn = caller === 'customer' || caller === 'other' || caller === 'admin';
  if (!signedIn) return 401;
  if (caller === 'customer') return right === 'admin' ? 403 : 'ok';
  if (caller === 'other') return right === 'signedIn' ? 'ok' : 403;
  return right === 'owner' ? 403 : 'ok'; // admin
}

const expectedValues: Record<string, Expected> = { ok: 'ok', 400: 400, 401: 401, 403: 403, 404: 404, 409: 409 };

/** Reads one of the tables above; throws on a column, cell or row it does not expect. */
function parseTable(text: string, api: RightsRow['api']): RightsRow[] {
  const lines = text
    .trim()
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim()),
    );
  const [header, ...rows] = lines;
  const expectedHeader = ['operation', ...callerKeys, 'target'];
  if (header.join() !== expectedHeader.join()) {
    throw new Error(`rights matrix: the columns must be ${expectedHeader.join(', ')}; got ${header.join(', ')}`);
  }
  return rows.map((cells) => {
    const [operation, ...rest] = cells;
    if (cells.length !== header.length) throw new Error(`rights matrix: ${operation} has ${cells.length} cells`);
    const expected = Object.fromEntries(
      callerKeys.map((key, i) => {
        const value = expectedValues[rest[i]];
        if (value === undefined) throw new Error(`rights matrix: ${operation} × ${key}: unknown answer "${rest[i]}"`);
        return [key, value];
      }),
    ) as Record<CallerKey, Expected>;
    return { operation, api, target: rest[callerKeys.length], expected };
  });
}

export const rightsMatrix: RightsRow[] = [...parseTable(graphql, 'graphql'), ...parseTable(rest, 'rest')];

const duplicates = rightsMatrix.filter((row, i) => rightsMatrix.findIndex((r) => r.operation === row.operation) !== i);
if (duplicates.length) throw new Error(`rights matrix: listed twice: ${duplicates.map((r) => r.operation).join(', ')}`);
