import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { buildSchema, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { defaultRateLimits, type RateLimits } from '../../src/config';
import { allTables as tables } from '../../src/db/database';
import { makes, models, vehicles } from '../../src/catalog/catalogSchema';
import { companyPartPrices, companyPriceLists } from '../../src/companies/companyPricesSchema';
import { parts } from '../../src/db/schema';
import { createRestRouter } from '../../src/rest/restRouter';
import { card, createIntent, dataOf, payWithCard, startHarness, tag, type Harness } from '../graphql/helpers';
import { goodCard, restOrderInput } from '../rest/restSupport';
import { adapterDatabaseKinds } from '../support/env';
import { addPart, orderInput, partInput, payOrder, placeOrder } from '../support/fixtures';
import type { TestUser } from '../support/testApp';
import { securityDocPath, withRightsSection } from './renderRights';
import { rights } from '../../src/services/rights';
import {
  answerOf,
  callerKeys,
  graphqlCodeOf,
  notByRight,
  rightsMatrix,
  servedBy,
  type CallerKey,
  type RightsRow,
} from './rightsMatrix';

// One app per database kind runs some 650 requests; the machine may be loaded.
jest.setTimeout(240_000);

/** One request: a GraphQL operation, or a call of the REST shim (path under /api). */
type Call =
  | { query: string; variables?: Record<string, unknown> }
  | { method: string; path: string; body?: unknown; headers?: Record<string, string> };

/** The targets rows are about, all the customer's (`account` is a customer account for the admin rows). */
interface Targets {
  /** A part with plenty of stock. */
  part(): Promise<string>;
  /** The customer's unpaid order. */
  unpaidOrder(): Promise<string>;
  /** The customer's unpaid order with a payment intent the card has not paid yet. */
  pendingIntent(): Promise<{ orderId: string; intentId: string }>;
  /** The customer's unpaid order whose intent the card has paid, not confirmed yet. */
  succeededIntent(): Promise<{ orderId: string; intentId: string }>;
  /** The customer's paid order. */
  paidOrder(): Promise<string>;
  /** A part the customer has paid for and not reviewed. */
  paidPart(): Promise<string>;
  /** A customer's account, its email verified. */
  account(): Promise<TestUser>;
  /** An admin's account (granted by another admin), not the caller's. */
  adminAccount(): Promise<TestUser>;
  /** A part in the customer's cart (its id). */
  cartLine(): Promise<string>;
  /** An import an admin started, its first chunk sent (a fitment file whose row names no part: it writes nothing). */
  importJob(): Promise<string>;
  /** A brand, a category, a make and a model of it (the catalog's reference data; ids). */
  brand(): Promise<string>;
  category(): Promise<string>;
  make(): Promise<string>;
  model(): Promise<string>;
  /** A vehicle of the catalog, in nobody's garage. */
  vehicle(): Promise<string>;
  /** A vehicle in the customer's garage (its id). */
  garageBike(): Promise<string>;
  /** The SKU of a part with plenty of stock (quick order names parts by number). */
  sku(): Promise<string>;
  /** A saved list of the customer's holding one part with plenty of stock: the list's id and the part's. */
  savedList(): Promise<{ id: string; partId: string }>;
  /** The company the customer is a company admin of (with a second company admin, the steward). */
  company(): Promise<string>;
  /** A delivery address of the customer's company. */
  companyAddress(): Promise<{ companyId: string; addressId: string }>;
  /** An open invitation of the customer's company, to a stranger's address. */
  companyInvitation(): Promise<string>;
  /** A buyer of the customer's company. */
  companyBuyer(): Promise<{ companyId: string; userId: string }>;
  /** An open invitation from another company to the customer's address (a fresh one: the customer in none). */
  invitationToCustomer(): Promise<string>;
  /** An order of a buyer of the customer's company above the buyer's limit, awaiting approval (its group's id). */
  awaitingCheckout(): Promise<{ companyId: string; id: string }>;
  /** The other customer in no company (a fresh one: out of the company an earlier row had them create). */
  otherInNoCompany(): Promise<void>;
  /** A part with a fixed price in the customer's company's price list. */
  companyPartPrice(): Promise<{ companyId: string; partId: string }>;
  /** The customer's company, granted terms (net 30, a generous limit). */
  companyWithTerms(): Promise<string>;
  /** An unpaid order of the customer, a company admin of a company with terms. */
  onAccountOrder(): Promise<string>;
  /** An invoice of the customer's company (the customer paid an order on account). */
  invoice(): Promise<string>;
}

interface World {
  customer: TestUser;
}

const gql = (query: string, variables?: Record<string, unknown>): Call => ({ query, variables });
const rest = (method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Call => ({
  method,
  path: urlPath,
  body,
  headers,
});

const contact = { firstName: 'Ana', lastName: 'Rider', email: 'ana@example.test', message: 'Do you ship to Sylhet?' };

/** How to call each row of the matrix against its target. */
const calls: Record<string, (t: Targets, w: World) => Promise<Call>> = {
  'GET /api/company': async () => rest('GET', '/company'),
  'DELETE /api/company': async (t) => {
    await t.company();
    return rest('DELETE', '/company');
  },
  'GET /api/companies': async () => rest('GET', '/companies'),
  'POST /api/companies': async (t) => {
    await t.otherInNoCompany();
    return rest('POST', '/companies', { name: `Company ${tag()}`, taxId: 'BIN-1' });
  },
  'GET /api/companies/{id}': async (t) => rest('GET', `/companies/${await t.company()}`),
  'PATCH /api/companies/{id}': async (t) =>
    rest('PATCH', `/companies/${await t.company()}`, { name: `Renamed ${tag()}` }),
  'POST /api/companies/{id}/addresses': async (t) =>
    rest('POST', `/companies/${await t.company()}/addresses`, { label: `Depot ${tag()}`, address: '1 Depot Road' }),
  'DELETE /api/companies/{id}/addresses/{addressId}': async (t) => {
    const { companyId, addressId } = await t.companyAddress();
    return rest('DELETE', `/companies/${companyId}/addresses/${addressId}`);
  },
  'POST /api/companies/{id}/invitations': async (t) =>
    rest('POST', `/companies/${await t.company()}/invitations`, {
      email: `invited-${tag()}@example.com`,
      role: 'buyer',
    }),
  'PUT /api/companies/{id}/members/{userId}': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return rest('PUT', `/companies/${companyId}/members/${userId}`, { role: 'company_admin' });
  },
  'DELETE /api/companies/{id}/members/{userId}': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return rest('DELETE', `/companies/${companyId}/members/${userId}`);
  },
  'PUT /api/companies/{id}/members/{userId}/limit': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return rest('PUT', `/companies/${companyId}/members/${userId}/limit`, { orderLimit: 75 });
  },
  'GET /api/companies/{id}/approvals': async (t) =>
    rest('GET', `/companies/${(await t.awaitingCheckout()).companyId}/approvals`),
  'POST /api/company-approvals/{id}/approve': async (t) =>
    rest('POST', `/company-approvals/${(await t.awaitingCheckout()).id}/approve`),
  'POST /api/company-approvals/{id}/decline': async (t) =>
    rest('POST', `/company-approvals/${(await t.awaitingCheckout()).id}/decline`),
  'Query.companyApprovals': async (t) =>
    gql(
      'query($id: ID!) { companyApprovals(id: $id) { total items { id total buyer { email } orders { id status } } } }',
      {
        id: (await t.awaitingCheckout()).companyId,
      },
    ),
  'Mutation.setCompanyBuyerLimit': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return gql(
      'mutation($id: ID!, $u: ID!) { setCompanyBuyerLimit(id: $id, userId: $u, orderLimit: 75) { id members { orderLimit } } }',
      { id: companyId, u: userId },
    );
  },
  'Mutation.approveCheckout': async (t) =>
    gql('mutation($id: ID!) { approveCheckout(id: $id) { id orders { status } } }', {
      id: (await t.awaitingCheckout()).id,
    }),
  'Mutation.declineCheckout': async (t) =>
    gql('mutation($id: ID!) { declineCheckout(id: $id) { id orders { status } } }', {
      id: (await t.awaitingCheckout()).id,
    }),
  'GET /api/company-invitations': async () => rest('GET', '/company-invitations'),
  'DELETE /api/company-invitations/{id}': async (t) =>
    rest('DELETE', `/company-invitations/${await t.companyInvitation()}`),
  'POST /api/company-invitations/{id}/accept': async (t) =>
    rest('POST', `/company-invitations/${await t.invitationToCustomer()}/accept`),
  'POST /api/company-invitations/{id}/decline': async (t) =>
    rest('POST', `/company-invitations/${await t.invitationToCustomer()}/decline`),
  'Query.myCompany': async () => gql('{ myCompany { id name myRole members { email } } }'),
  'Query.company': async (t) =>
    gql('query($id: ID!) { company(id: $id) { id name taxId members { email } invitations { email } } }', {
      id: await t.company(),
    }),
  'Query.companies': async () => gql('{ companies { total items { id name memberCount } } }'),
  'Query.myCompanyInvitations': async () => gql('{ myCompanyInvitations { id companyName role } }'),
  'Mutation.createCompany': async (t) => {
    await t.otherInNoCompany();
    return gql('mutation($input: CompanyInput!) { createCompany(input: $input) { id } }', {
      input: { name: `Company ${tag()}`, taxId: 'BIN-1' },
    });
  },
  'Mutation.updateCompany': async (t) =>
    gql('mutation($id: ID!, $input: CompanyUpdate!) { updateCompany(id: $id, input: $input) { id } }', {
      id: await t.company(),
      input: { name: `Renamed ${tag()}` },
    }),
  'Mutation.addCompanyAddress': async (t) =>
    gql('mutation($id: ID!, $input: CompanyAddressInput!) { addCompanyAddress(id: $id, input: $input) { id } }', {
      id: await t.company(),
      input: { label: `Depot ${tag()}`, address: '1 Depot Road' },
    }),
  'Mutation.removeCompanyAddress': async (t) => {
    const { companyId, addressId } = await t.companyAddress();
    return gql('mutation($id: ID!, $a: ID!) { removeCompanyAddress(id: $id, addressId: $a) { id } }', {
      id: companyId,
      a: addressId,
    });
  },
  'Mutation.inviteToCompany': async (t) =>
    gql('mutation($id: ID!, $email: String!) { inviteToCompany(id: $id, email: $email, role: BUYER) { id } }', {
      id: await t.company(),
      email: `invited-${tag()}@example.com`,
    }),
  'Mutation.withdrawCompanyInvitation': async (t) =>
    gql('mutation($id: ID!) { withdrawCompanyInvitation(id: $id) { id status } }', {
      id: await t.companyInvitation(),
    }),
  'Mutation.acceptCompanyInvitation': async (t) =>
    gql('mutation($id: ID!) { acceptCompanyInvitation(id: $id) { id myRole } }', {
      id: await t.invitationToCustomer(),
    }),
  'Mutation.declineCompanyInvitation': async (t) =>
    gql('mutation($id: ID!) { declineCompanyInvitation(id: $id) { id status } }', {
      id: await t.invitationToCustomer(),
    }),
  'Mutation.setCompanyMemberRole': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return gql(
      'mutation($id: ID!, $u: ID!) { setCompanyMemberRole(id: $id, userId: $u, role: COMPANY_ADMIN) { id } }',
      {
        id: companyId,
        u: userId,
      },
    );
  },
  'Mutation.removeCompanyMember': async (t) => {
    const { companyId, userId } = await t.companyBuyer();
    return gql('mutation($id: ID!, $u: ID!) { removeCompanyMember(id: $id, userId: $u) { id } }', {
      id: companyId,
      u: userId,
    });
  },
  'Mutation.leaveCompany': async (t) => {
    await t.company();
    return gql('mutation { leaveCompany }');
  },
  'GET /api/company/prices': async (t) => rest('GET', `/company/prices?partIds=${await t.part()}`),
  'GET /api/companies/{id}/prices': async (t) => rest('GET', `/companies/${await t.company()}/prices`),
  'PUT /api/companies/{id}/prices': async (t) =>
    rest('PUT', `/companies/${await t.company()}/prices`, { percentOff: 5 }),
  'PUT /api/companies/{id}/prices/{partId}': async (t) =>
    rest('PUT', `/companies/${await t.company()}/prices/${await t.part()}`, { price: 0.5 }),
  'DELETE /api/companies/{id}/prices/{partId}': async (t) => {
    const { companyId, partId } = await t.companyPartPrice();
    return rest('DELETE', `/companies/${companyId}/prices/${partId}`);
  },
  'Query.myPrices': async (t) =>
    gql('query($ids: [ID!]!) { myPrices(partIds: $ids) { companyId percentOff parts { partId price } } }', {
      ids: [await t.part()],
    }),
  'Query.companyPriceList': async (t) =>
    gql('query($id: ID!) { companyPriceList(id: $id) { companyId percentOff total items { price } } }', {
      id: await t.company(),
    }),
  'Mutation.setCompanyPercentOff': async (t) =>
    gql('mutation($id: ID!) { setCompanyPercentOff(id: $id, percentOff: 5) { percentOff } }', {
      id: await t.company(),
    }),
  'Mutation.setCompanyPartPrice': async (t) =>
    gql('mutation($id: ID!, $p: ID!) { setCompanyPartPrice(id: $id, partId: $p, price: 0.5) { price } }', {
      id: await t.company(),
      p: await t.part(),
    }),
  'Mutation.removeCompanyPartPrice': async (t) => {
    const { companyId, partId } = await t.companyPartPrice();
    return gql('mutation($id: ID!, $p: ID!) { removeCompanyPartPrice(id: $id, partId: $p) }', {
      id: companyId,
      p: partId,
    });
  },
  'Query.companyAccount': async (t) =>
    gql('query($id: ID!) { companyAccount(companyId: $id) { termsDays creditLimit owed available } }', {
      id: await t.companyWithTerms(),
    }),
  'Query.invoice': async (t) =>
    gql('query($id: ID!) { invoice(id: $id) { id reference total buyerEmail lines { partName } } }', {
      id: await t.invoice(),
    }),
  'Query.companyInvoices': async (t) =>
    gql('query($id: ID!) { companyInvoices(companyId: $id) { total items { id buyerEmail } } }', {
      id: await t.companyWithTerms(),
    }),
  'Query.invoices': async () => gql('{ invoices { total items { id status } } }'),
  'Mutation.setCompanyTerms': async (t) =>
    gql('mutation($id: ID!) { setCompanyTerms(companyId: $id, termsDays: 60, creditLimit: 1000000) { termsDays } }', {
      id: await t.companyWithTerms(),
    }),
  'Mutation.payOnAccount': async (t) =>
    gql('mutation($id: ID!) { payOnAccount(orderId: $id) { id reference } }', { id: await t.onAccountOrder() }),
  'Mutation.recordInvoicePayment': async (t) =>
    gql(
      'mutation($id: ID!) { recordInvoicePayment(invoiceId: $id, input: { amount: 0.01, note: "Bank" }) { id paid } }',
      { id: await t.invoice() },
    ),
  'GET /api/companies/{id}/account': async (t) => rest('GET', `/companies/${await t.companyWithTerms()}/account`),
  'PUT /api/companies/{id}/terms': async (t) =>
    rest('PUT', `/companies/${await t.companyWithTerms()}/terms`, { termsDays: 60, creditLimit: 1_000_000 }),
  'GET /api/companies/{id}/invoices': async (t) => rest('GET', `/companies/${await t.companyWithTerms()}/invoices`),
  'POST /api/orders/{id}/pay-on-account': async (t) =>
    rest('POST', `/orders/${await t.onAccountOrder()}/pay-on-account`),
  'GET /api/invoices': async () => rest('GET', '/invoices'),
  'GET /api/invoices/{id}.pdf': async (t) => rest('GET', `/invoices/${await t.invoice()}.pdf`),
  'GET /api/invoices/{id}': async (t) => rest('GET', `/invoices/${await t.invoice()}`),
  'POST /api/invoices/{id}/payments': async (t) =>
    rest('POST', `/invoices/${await t.invoice()}/payments`, { amount: 0.01, note: 'Bank' }),
  'Query.parts': async () => gql('{ parts { total items { id } } }'),
  'Query.part': async (t) => gql('query($id: ID!) { part(id: $id) { id name } }', { id: await t.part() }),
  'Query.popularParts': async () => gql('{ popularParts { id } }'),
  'Query.brands': async () => gql('{ brands { id name } }'),
  'Query.categories': async () => gql('{ categories { id name parent { id } } }'),
  'Query.makes': async () => gql('{ makes { id name } }'),
  'Query.models': async () => gql('{ models(makeId: "00000000-0000-4000-8000-000000000000") { id } }'),
  'Query.vehicles': async () => gql('{ vehicles(modelId: "00000000-0000-4000-8000-000000000000") { id name } }'),
  'Query.partsByNumber': async () => gql('{ partsByNumber(number: "PY-0") { reason part { id sku } } }'),
  'Query.catalog': async () =>
    gql(
      '{ catalog(filter: { search: "pads" }, limit: 5) { total items { reason part { id } } facets { inStock { count } } } }',
    ),
  'Query.category': async () => gql('{ category(slug: "brakes") { id } }'),
  'Query.brand': async () => gql('{ brand(slug: "ebc") { id } }'),
  'Query.vehicle': async () => gql('{ vehicle(id: "00000000-0000-4000-8000-000000000000") { id } }'),
  'Query.vehicleBySlugs': async () => gql('{ vehicleBySlugs(make: "honda", model: "crf450r", year: 2019) { id } }'),
  'Query.reviews': async () => gql('{ reviews { id name email } }'),
  'Query.paymentSettings': async () => gql('{ paymentSettings { mode } }'),
  'Query.clientSettings': async () => gql('{ clientSettings { demoMode } }'),
  'Query.me': async () => gql('{ me { id email education } }'),
  'Query.myOrders': async () => gql('{ myOrders { total items { id address } } }'),
  'Query.myPayments': async () => gql('{ myPayments { id email } }'),
  'Query.order': async (t) =>
    gql('query($id: ID!) { order(id: $id) { id email address } }', { id: await t.unpaidOrder() }),
  'Query.orders': async () => gql('{ orders { total items { id email address } } }'),
  'Query.users': async () => gql('{ users { total items { id email education } } }'),
  'Query.isAdmin': async (_t, w) =>
    gql('query($email: String!) { isAdmin(email: $email) }', { email: w.customer.email }),
  'Query.contactMessages': async () => gql('{ contactMessages { total } }'),
  'Query.adminOverview': async () => gql('{ adminOverview { revenueLast30Days unitsReserved } }'),
  'Query.cart': async () => gql('{ cart { units total lines { amount part { id } } } }'),
  'Mutation.signIn': async (_t, w) =>
    gql('mutation($idToken: String!) { signIn(idToken: $idToken) { token user { id } } }', {
      idToken: w.customer.idToken,
    }),
  'Mutation.updateProfile': async () =>
    gql('mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }', { input: { location: 'Sylhet' } }),
  'Mutation.addPart': async () =>
    gql('mutation($input: PartInput!) { addPart(input: $input) { id } }', { input: partInput() }),
  'Mutation.deletePart': async (t) => gql('mutation($id: ID!) { deletePart(id: $id) }', { id: await t.part() }),
  'Mutation.placeOrder': async (t) =>
    gql('mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }', {
      input: orderInput(await t.part()),
    }),
  'Mutation.cancelOrder': async (t) =>
    gql('mutation($id: ID!) { cancelOrder(id: $id) }', { id: await t.unpaidOrder() }),
  'Mutation.createPaymentIntent': async (t) =>
    gql('mutation($id: ID!) { createPaymentIntent(orderId: $id) { id } }', { id: await t.unpaidOrder() }),
  'Mutation.payWithTestCard': async (t) =>
    gql(
      'mutation($id: ID!, $card: TestCardInput!) { payWithTestCard(paymentIntentId: $id, card: $card) { succeeded } }',
      { id: (await t.pendingIntent()).intentId, card: card('4242 4242 4242 4242') },
    ),
  'Mutation.confirmPayment': async (t) => {
    const { orderId, intentId } = await t.succeededIntent();
    return gql('mutation($id: ID!, $intent: ID!) { confirmPayment(orderId: $id, paymentIntentId: $intent) { id } }', {
      id: orderId,
      intent: intentId,
    });
  },
  'Mutation.markOrderShipped': async (t) =>
    gql('mutation($id: ID!) { markOrderShipped(id: $id) { id } }', { id: await t.paidOrder() }),
  'Mutation.addReview': async (t) =>
    gql('mutation($input: ReviewInput!) { addReview(input: $input) { id } }', {
      input: { partId: await t.paidPart(), text: 'Fits my bike.' },
    }),
  'Mutation.grantAdmin': async (t) =>
    gql('mutation($email: String!) { grantAdmin(email: $email) { id } }', { email: (await t.account()).email }),
  'Mutation.revokeAdmin': async (t) =>
    gql('mutation($email: String!) { revokeAdmin(email: $email) { id } }', { email: (await t.adminAccount()).email }),
  'Mutation.deleteUser': async (t) =>
    gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: (await t.account()).userId }),
  'Mutation.addToCart': async (t) =>
    gql('mutation($id: ID!) { addToCart(partId: $id, amount: 2) { units } }', { id: await t.part() }),
  'Mutation.setCartLineAmount': async (t) =>
    gql('mutation($id: ID!) { setCartLineAmount(partId: $id, amount: 3) { units } }', { id: await t.cartLine() }),
  'Mutation.removeCartLine': async (t) =>
    gql('mutation($id: ID!) { removeCartLine(partId: $id) { units } }', { id: await t.cartLine() }),
  'Mutation.mergeCart': async (t) =>
    gql('mutation($lines: [CartLineInput!]!) { mergeCart(lines: $lines) { cart { units } } }', {
      lines: [{ partId: await t.part(), amount: 2 }],
    }),
  'Mutation.checkout': async (t) => {
    await t.cartLine();
    return gql('mutation($input: CheckoutInput!) { checkout(input: $input) { id orders { id } } }', {
      input: { name: 'Rider One', phone: '01712345678', address: 'Road 5' },
    });
  },
  'Mutation.setPartPricing': async (t) =>
    gql(
      'mutation($id: ID!) { setPartPricing(id: $id, priceTiers: [{ minUnits: 50, price: 9 }], packSize: 1) { id } }',
      {
        id: await t.part(),
      },
    ),
  'Query.importJobs': async () => gql('{ importJobs { total items { id status } } }'),
  'Query.importJob': async (t) =>
    gql('query($id: ID!) { importJob(id: $id) { id status rowsTotal } }', { id: await t.importJob() }),
  'Query.importRejections': async (t) =>
    gql('query($id: ID!) { importRejections(id: $id) { total items { line reason } } }', { id: await t.importJob() }),
  'Mutation.startImport': async () => gql('mutation { startImport(kind: FITMENT, fileName: "fitment.csv") { id } }'),
  'Mutation.finishImport': async (t) =>
    gql('mutation($id: ID!) { finishImport(id: $id) { id status } }', { id: await t.importJob() }),
  'Mutation.cancelImport': async (t) =>
    gql('mutation($id: ID!) { cancelImport(id: $id) { id status } }', { id: await t.importJob() }),
  'Query.stockHistory': async (t) =>
    gql('query($id: ID!) { stockHistory(partId: $id) { total items { id before after } } }', { id: await t.part() }),
  'Mutation.updatePart': async (t) =>
    gql('mutation($id: ID!) { updatePart(id: $id, patch: { price: 13.5, name: "Edited pads" }) { id price } }', {
      id: await t.part(),
    }),
  'Mutation.adjustStock': async (t) =>
    gql(
      'mutation($id: ID!) { adjustStock(partId: $id, input: { reason: RECEIVED, delta: 5 }) { movement { id } part { available } } }',
      { id: await t.part() },
    ),
  'Mutation.createBrand': async () =>
    gql('mutation($name: String!) { createBrand(name: $name) { id } }', { name: `Brand ${tag()}` }),
  'Mutation.renameBrand': async (t) =>
    gql('mutation($id: ID!, $name: String!) { renameBrand(id: $id, name: $name) { id } }', {
      id: await t.brand(),
      name: `Renamed ${tag()}`,
    }),
  'Mutation.createCategory': async (t) =>
    gql('mutation($name: String!, $parent: ID) { createCategory(name: $name, parentId: $parent) { id } }', {
      name: `Category ${tag()}`,
      parent: await t.category(),
    }),
  'Mutation.updateCategory': async (t) =>
    gql('mutation($id: ID!, $name: String!) { updateCategory(id: $id, name: $name) { id } }', {
      id: await t.category(),
      name: `Renamed ${tag()}`,
    }),
  'Mutation.createMake': async () =>
    gql('mutation($name: String!) { createMake(name: $name) { id } }', { name: `Make ${tag()}` }),
  'Mutation.createModel': async (t) =>
    gql('mutation($make: ID!, $name: String!) { createModel(makeId: $make, name: $name) { id } }', {
      make: await t.make(),
      name: `Model ${tag()}`,
    }),
  'Mutation.createVehicle': async (t) =>
    gql(
      'mutation($model: ID!, $variant: String) { createVehicle(modelId: $model, year: 2019, variant: $variant) { id name } }',
      {
        model: await t.model(),
        variant: `Variant ${tag()}`,
      },
    ),
  'Mutation.sendContactMessage': async () =>
    gql('mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }', { input: contact }),
  'Query.myGarage': async () => gql('{ myGarage { bikes { current vehicle { id name } } current { id } } }'),
  'Mutation.addToGarage': async (t) =>
    gql('mutation($id: ID!) { addToGarage(vehicleId: $id, makeCurrent: true) { bikes { current } } }', {
      id: await t.vehicle(),
    }),
  'Mutation.removeFromGarage': async (t) =>
    gql('mutation($id: ID!) { removeFromGarage(vehicleId: $id) { bikes { current } } }', { id: await t.garageBike() }),
  'Mutation.setCurrentVehicle': async (t) =>
    gql('mutation($id: ID) { setCurrentVehicle(vehicleId: $id) { current { id } } }', { id: await t.garageBike() }),
  'Mutation.mergeGarage': async (t) =>
    gql('mutation($ids: [ID!]!) { mergeGarage(vehicleIds: $ids) { garage { bikes { current } } notes { message } } }', {
      ids: [await t.vehicle()],
    }),

  'GET /api/parts': async () => rest('GET', '/parts?limit=5'),
  'GET /api/parts/by-number/{number}': async () => rest('GET', '/parts/by-number/PY-0'),
  'GET /api/catalog': async () => rest('GET', '/catalog?limit=5'),
  'GET /api/search': async () => rest('GET', '/search?q=pads'),
  'GET /api/parts/{partId}': async (t) => rest('GET', `/parts/${await t.part()}`),
  'POST /api/parts': async () => rest('POST', '/parts', partInput()),
  'DELETE /api/part/{id}': async (t) => rest('DELETE', `/part/${await t.part()}`),
  'PATCH /api/parts/{id}': async (t) => rest('PATCH', `/parts/${await t.part()}`, { price: 14, minOrder: 2 }),
  'POST /api/parts/{id}/stock': async (t) =>
    rest('POST', `/parts/${await t.part()}/stock`, { reason: 'received', delta: 5, note: 'Delivery' }),
  'GET /api/parts/{id}/stock': async (t) => rest('GET', `/parts/${await t.part()}/stock`),
  'GET /api/reviews': async () => rest('GET', '/reviews'),
  'POST /api/reviews': async (t) => rest('POST', '/reviews', { partId: await t.paidPart(), text: 'Fits my bike.' }),
  'POST /api/orders': async (t) => rest('POST', '/orders', restOrderInput(await t.part())),
  'GET /api/orders': async () => rest('GET', '/orders'),
  'GET /api/orders/filter': async (_t, w) =>
    rest('GET', `/orders/filter?email=${encodeURIComponent(w.customer.email)}`),
  'GET /api/order/{orderId}': async (t) => rest('GET', `/order/${await t.unpaidOrder()}`),
  'DELETE /api/order/{id}': async (t) => rest('DELETE', `/order/${await t.unpaidOrder()}`),
  'PATCH /api/order/{id}': async (t) => {
    const { orderId, intentId } = await t.succeededIntent();
    return rest('PATCH', `/order/${orderId}`, { transactionId: intentId });
  },
  'PATCH /api/order/{id}/shipped': async (t) => rest('PATCH', `/order/${await t.paidOrder()}/shipped`),
  'POST /api/create-payment-intent': async (t) =>
    rest('POST', '/create-payment-intent', { orderId: await t.unpaidOrder() }),
  'POST /api/test-gateway/pay': async (t) =>
    rest('POST', '/test-gateway/pay', { paymentIntentId: (await t.pendingIntent()).intentId, card: goodCard }),
  'GET /api/payments/filter': async (_t, w) =>
    rest('GET', `/payments/filter?email=${encodeURIComponent(w.customer.email)}`),
  'GET /api/users': async () => rest('GET', '/users'),
  'PUT /api/user/admin/{email}': async (t) => rest('PUT', `/user/admin/${(await t.account()).email}`),
  'DELETE /api/user/admin/{email}': async (t) => rest('DELETE', `/user/admin/${(await t.adminAccount()).email}`),
  'GET /api/admin/{email}': async (_t, w) => rest('GET', `/admin/${w.customer.email}`),
  'GET /api/user/{email}': async (_t, w) => rest('GET', `/user/${w.customer.email}`),
  'PUT /api/user/{email}': async (_t, w) => rest('PUT', `/user/${w.customer.email}`, { location: 'Sylhet' }),
  'DELETE /api/user/{id}': async (t) => rest('DELETE', `/user/${(await t.account()).userId}`),
  'POST /api/contact': async () => rest('POST', '/contact', contact),
  'GET /api/contact': async () => rest('GET', '/contact'),
  'POST /api/imports': async () => rest('POST', '/imports', { kind: 'fitment', fileName: 'fitment.csv' }),
  'GET /api/imports': async () => rest('GET', '/imports'),
  'GET /api/imports/{id}': async (t) => rest('GET', `/imports/${await t.importJob()}`),
  'PUT /api/imports/{id}/chunks/{part}': async (t) =>
    rest('PUT', `/imports/${await t.importJob()}/chunks/1`, 'NOPE-2,Nomake,Nomodel,2020\n', {
      'content-type': 'text/csv',
    }),
  'POST /api/imports/{id}/finish': async (t) => rest('POST', `/imports/${await t.importJob()}/finish`),
  'POST /api/imports/{id}/cancel': async (t) => rest('POST', `/imports/${await t.importJob()}/cancel`),
  'GET /api/imports/{id}/rejections': async (t) => rest('GET', `/imports/${await t.importJob()}/rejections`),
  'GET /api/imports/{id}/rejections.csv': async (t) => rest('GET', `/imports/${await t.importJob()}/rejections.csv`),
  'GET /api/garage': async () => rest('GET', '/garage'),
  'PUT /api/garage/current': async (t) => rest('PUT', '/garage/current', { vehicleId: await t.garageBike() }),
  'POST /api/garage/merge': async (t) => rest('POST', '/garage/merge', { vehicleIds: [await t.vehicle()] }),
  'PUT /api/garage/{vehicleId}': async (t) => rest('PUT', `/garage/${await t.vehicle()}`, { current: true }),
  'DELETE /api/garage/{vehicleId}': async (t) => rest('DELETE', `/garage/${await t.garageBike()}`),
  'Query.quickOrderCheck': async (t) =>
    gql(
      'query($lines: [QuickOrderLineInput!]!) { quickOrderCheck(lines: $lines) { total ready lines { line problem { kind } part { id } } } }',
      { lines: [{ number: await t.sku(), quantity: '2' }] },
    ),
  'Query.savedLists': async () => gql('{ savedLists { id name lineCount } }'),
  'Query.savedList': async (t) =>
    gql('query($id: ID!) { savedList(id: $id) { id name lines { quantity part { id } } } }', {
      id: (await t.savedList()).id,
    }),
  'Mutation.addQuickOrderToCart': async (t) =>
    gql('mutation($lines: [QuickOrderLineInput!]!) { addQuickOrderToCart(lines: $lines) { added cart { units } } }', {
      lines: [{ number: await t.sku(), quantity: '1' }],
    }),
  'Mutation.orderAgain': async (t) =>
    gql('mutation($id: ID!) { orderAgain(from: { orderId: $id }) { added cart { units } } }', {
      id: await t.unpaidOrder(),
    }),
  'Mutation.createSavedList': async () =>
    gql('mutation($name: String!) { createSavedList(name: $name) { id } }', { name: `List ${tag()}` }),
  'Mutation.renameSavedList': async (t) =>
    gql('mutation($id: ID!, $name: String!) { renameSavedList(id: $id, name: $name) { name } }', {
      id: (await t.savedList()).id,
      name: `Renamed ${tag()}`,
    }),
  'Mutation.deleteSavedList': async (t) =>
    gql('mutation($id: ID!) { deleteSavedList(id: $id) }', { id: (await t.savedList()).id }),
  'Mutation.setSavedListLine': async (t) => {
    const list = await t.savedList();
    return gql('mutation($id: ID!, $part: ID!) { setSavedListLine(id: $id, partId: $part, quantity: 7) { id } }', {
      id: list.id,
      part: list.partId,
    });
  },
  'Mutation.removeSavedListLine': async (t) => {
    const list = await t.savedList();
    return gql('mutation($id: ID!, $part: ID!) { removeSavedListLine(id: $id, partId: $part) { id } }', {
      id: list.id,
      part: list.partId,
    });
  },
  'Mutation.addCartToSavedList': async (t) => {
    await t.cartLine();
    return gql('mutation($id: ID!) { addCartToSavedList(id: $id) { list { id } skipped { line } } }', {
      id: (await t.savedList()).id,
    });
  },
  'Mutation.addQuickOrderToSavedList': async (t) =>
    gql(
      'mutation($id: ID!, $lines: [QuickOrderLineInput!]!) { addQuickOrderToSavedList(id: $id, lines: $lines) { list { id } } }',
      { id: (await t.savedList()).id, lines: [{ number: await t.sku(), quantity: '3' }] },
    ),
  'Mutation.addOrderToSavedList': async (t) =>
    gql('mutation($id: ID!, $order: ID!) { addOrderToSavedList(id: $id, from: { orderId: $order }) { list { id } } }', {
      id: (await t.savedList()).id,
      order: await t.unpaidOrder(),
    }),
  'Mutation.savedListToCart': async (t) =>
    gql('mutation($id: ID!) { savedListToCart(id: $id) { added cart { units } } }', { id: (await t.savedList()).id }),
  'POST /api/quick-order/check': async (t) =>
    rest('POST', '/quick-order/check', { lines: [{ number: await t.sku(), quantity: '2' }] }),
  'POST /api/quick-order/problems.csv': async (t) =>
    rest('POST', '/quick-order/problems.csv', { text: `${await t.sku()}\t0\nNOPE-1\t2` }),
  'POST /api/quick-order/cart': async (t) =>
    rest('POST', '/quick-order/cart', { lines: [{ number: await t.sku(), quantity: '1' }] }),
  'POST /api/orders/again': async (t) => rest('POST', '/orders/again', { orderId: await t.unpaidOrder() }),
  'GET /api/lists': async () => rest('GET', '/lists'),
  'POST /api/lists': async () => rest('POST', '/lists', { name: `List ${tag()}` }),
  'GET /api/lists/{id}': async (t) => rest('GET', `/lists/${(await t.savedList()).id}`),
  'PATCH /api/lists/{id}': async (t) =>
    rest('PATCH', `/lists/${(await t.savedList()).id}`, { name: `Renamed ${tag()}` }),
  'DELETE /api/lists/{id}': async (t) => rest('DELETE', `/lists/${(await t.savedList()).id}`),
  'PUT /api/lists/{id}/lines/{partId}': async (t) => {
    const list = await t.savedList();
    return rest('PUT', `/lists/${list.id}/lines/${list.partId}`, { quantity: 7 });
  },
  'DELETE /api/lists/{id}/lines/{partId}': async (t) => {
    const list = await t.savedList();
    return rest('DELETE', `/lists/${list.id}/lines/${list.partId}`);
  },
  'POST /api/lists/{id}/from-cart': async (t) => {
    await t.cartLine();
    return rest('POST', `/lists/${(await t.savedList()).id}/from-cart`);
  },
  'POST /api/lists/{id}/from-quick-order': async (t) =>
    rest('POST', `/lists/${(await t.savedList()).id}/from-quick-order`, {
      lines: [{ number: await t.sku(), quantity: '3' }],
    }),
  'POST /api/lists/{id}/from-order': async (t) =>
    rest('POST', `/lists/${(await t.savedList()).id}/from-order`, { orderId: await t.unpaidOrder() }),
  'POST /api/lists/{id}/cart': async (t) => rest('POST', `/lists/${(await t.savedList()).id}/cart`),
  'POST /api/stripe/webhook': async (t) => {
    const { orderId, intentId } = await t.pendingIntent();
    const event = { type: 'payment_intent.succeeded', data: { object: { id: intentId, metadata: { orderId } } } };
    return rest('POST', '/stripe/webhook', JSON.stringify(event), { 'content-type': 'application/json' });
  },
};

/**
 * Bad input for a REST row, of every kind its route reads: malformed path parameters and query values, and for a
 * route that takes a body, malformed JSON, fields of the wrong types or missing, and a body over the size limit.
 */
function badRequests(row: RightsRow): Call[] {
  const [method, template] = row.operation.split(' ');
  const urlPath = template
    .replace(/^\/api/, '')
    .replace(/\{email\}/g, 'not-an-email')
    .replace(/\{\w+\}/g, 'not-an-id');
  const badQuery = `${urlPath}?limit=lots&offset=-x&email=not-an-email&status=nope`;
  if (method === 'GET') return [rest(method, badQuery)];
  const wrongTypes = {
    orderId: { toString: 1 },
    transactionId: 7,
    price: 'free',
    paymentIntentId: [],
    card: 'visa',
    partId: 42,
    text: { length: 1 },
    name: ['x'],
    orderAmount: 'many',
    available: -1,
    phone: {},
    avatar: 'javascript:alert(1)',
  };
  return [
    rest(method, badQuery),
    rest(method, urlPath, '{"orderId": "', { 'content-type': 'application/json' }),
    rest(method, urlPath, {}),
    rest(method, urlPath, wrongTypes),
    rest(method, urlPath, JSON.stringify({ text: 'x'.repeat(200_000) }), { 'content-type': 'application/json' }),
  ];
}

/** POST routes that write nothing (a body too big for a query string): quick order's check and its CSV. */
const sideEffectFree = new Set(['POST /api/quick-order/check', 'POST /api/quick-order/problems.csv']);

/** Reads do not write: GraphQL queries, REST GETs and the POSTs above. Their allowed calls must change nothing either. */
const isRead = (row: RightsRow) =>
  row.operation.startsWith('Query.') || row.operation.startsWith('GET ') || sideEffectFree.has(row.operation);

/** Every route the REST router registers, as `METHOD /api/path/{param}`. */
function restRoutes(): string[] {
  // The router only stores the services; building it with none is enough to read its routes.
  const router = createRestRouter({} as never, {} as never) as unknown as {
    stack: { route?: { path: string; methods: Record<string, boolean> } }[];
  };
  return router.stack.flatMap(({ route }) =>
    route
      ? Object.keys(route.methods).map((m) => `${m.toUpperCase()} /api${route.path.replace(/:(\w+)/g, '{$1}')}`)
      : [],
  );
}

const schema = buildSchema(readFileSync(path.resolve(__dirname, '../../../schema.graphql'), 'utf8'));
const rootFields = (type: GraphQLObjectType | null | undefined) =>
  Object.values(type?.getFields() ?? {}).map((field) => [`${type?.name}.${field.name}`, field] as const);
const schemaFields = [...rootFields(schema.getQueryType()), ...rootFields(schema.getMutationType())];

/** Who the schema's directives let in: nobody needed, `@auth`, or `@hasRole(role: ADMIN)`. */
function declaredAccess(field: GraphQLField<unknown, unknown>): string {
  const directives = field.astNode?.directives ?? [];
  const role = directives.find((d) => d.name.value === 'hasRole')?.arguments?.find((a) => a.name.value === 'role');
  if (role) return role.value.kind === 'EnumValue' ? `role ${role.value.value}` : 'role ?';
  if (directives.some((d) => d.name.value === 'auth')) return 'signed in';
  return 'public';
}

/** The same, as the matrix's anonymous, customer and admin columns say it. */
function matrixAccess(row: RightsRow): string {
  const { anonymous, customer, admin } = row.expected;
  if (anonymous === 'ok') return 'public';
  if (anonymous === 401 && customer === 403 && admin === 'ok') return 'role ADMIN';
  if (anonymous === 401) return 'signed in';
  return `anonymous ${anonymous}`;
}

describe('the rights matrix (api/test/security/rightsMatrix.ts)', () => {
  it('lists every Query and Mutation field of schema.graphql, and nothing else', () => {
    const listed = rightsMatrix.filter((r) => r.api === 'graphql').map((r) => r.operation);
    expect(listed.sort()).toEqual(schemaFields.map(([name]) => name).sort());
  });

  it('lists every route the REST router registers, and nothing else', () => {
    const listed = rightsMatrix.filter((r) => r.api === 'rest').map((r) => r.operation);
    expect(listed.sort()).toEqual(restRoutes().sort());
  });

  it('is what the one table of rights (api/src/services/rights.ts) says for every caller of every row', () => {
    expect(Object.keys(servedBy).sort()).toEqual(rightsMatrix.map((r) => r.operation).sort());
    const derived = rightsMatrix.map((row) => {
      const { why: _why, ...own } = notByRight[row.operation] ?? { why: '' };
      const right = rights[servedBy[row.operation]];
      const expected = Object.fromEntries(callerKeys.map((c) => [c, own[c] ?? answerOf(right, c)]));
      return [row.operation, expected];
    });
    expect(Object.fromEntries(rightsMatrix.map((r) => [r.operation, r.expected]))).toEqual(Object.fromEntries(derived));
  });

  it("the schema's @auth and @hasRole(role: ADMIN) declare what the table of rights decides", () => {
    const declared = Object.fromEntries(schemaFields.map(([name, field]) => [name, declaredAccess(field)]));
    const level = (operation: string) => {
      const right = rights[servedBy[operation]];
      return right === 'anyone' ? 'public' : right === 'admin' ? 'role ADMIN' : 'signed in';
    };
    expect(Object.fromEntries(schemaFields.map(([name]) => [name, level(name)]))).toEqual(declared);
  });

  it("agrees with the schema's @auth and @hasRole(role: ADMIN) on every GraphQL operation", () => {
    const declared = Object.fromEntries(schemaFields.map(([name, field]) => [name, declaredAccess(field)]));
    const graphqlRows = rightsMatrix.filter((r) => r.api === 'graphql');
    expect(Object.fromEntries(graphqlRows.map((r) => [r.operation, matrixAccess(r)]))).toEqual(declared);
  });

  it('has a request for every row, and none for an operation it does not list', () => {
    expect(Object.keys(calls).sort()).toEqual(rightsMatrix.map((r) => r.operation).sort());
  });

  it('is what docs/security.md shows', async () => {
    const doc = readFileSync(securityDocPath, 'utf8');
    const regenerate =
      'Run `node --import tsx api/test/security/renderRights.ts` to rewrite its "Rights matrix" section.';
    expect({ upToDate: (await withRightsSection(doc)) === doc, regenerate }).toEqual({ upToDate: true, regenerate });
  });
});

/** Every row of every table (the core's and the domain folders'), as text, so that two snapshots compare row by row. */
type Snapshot = Record<string, string[]>;

async function snapshot(h: Harness): Promise<Snapshot> {
  const { db } = h.app.server.database;
  const all = (Object.values(tables) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const entries = await Promise.all(
    all.map(async (table) => {
      const rows = await db.select().from(table);
      return [getTableConfig(table).name, rows.map((row) => JSON.stringify(row)).sort()] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The rows that differ between two snapshots, per table. */
function changes(before: Snapshot, after: Snapshot): string[] {
  return Object.keys(after).flatMap((name) => [
    ...after[name].filter((row) => !before[name]?.includes(row)).map((row) => `${name} +${row}`),
    ...(before[name] ?? []).filter((row) => !after[name].includes(row)).map((row) => `${name} -${row}`),
  ]);
}

/** Runs `work` on every item, `size` at a time. */
async function inPool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

interface Answer {
  /** `ok`, a refusal's status, or what came instead. */
  outcome: string;
  text: string;
}

async function send(h: Harness, call: Call, token: string | undefined): Promise<Answer> {
  if ('query' in call) {
    const result = await h.app.gql(call.query, call.variables, token);
    const text = JSON.stringify(result);
    const error = result.errors?.[0];
    if (!error) return { outcome: result.status === 200 && result.data ? 'ok' : `HTTP ${result.status}`, text };
    const code = error.extensions?.code;
    const status = Object.entries(graphqlCodeOf).find(([, c]) => c === code)?.[0];
    // UNAUTHENTICATED and FORBIDDEN carry their HTTP status, as on the REST shim; other refusals answer 200.
    const httpStatus = status === '401' || status === '403' ? Number(status) : 200;
    if (status && result.status === httpStatus) return { outcome: status, text };
    return { outcome: `${code} with HTTP ${result.status}: ${error.message}`, text };
  }
  const result = await h.app.rest(call.method, call.path, call.body, token, call.headers);
  const text = JSON.stringify(result.body);
  if (result.status === 200) return { outcome: 'ok', text };
  const message = (result.body as { message?: unknown } | null)?.message;
  return {
    outcome: typeof message === 'string' && message ? String(result.status) : `${result.status}: ${text}`,
    text,
  };
}

describe.each(adapterDatabaseKinds)('every row × caller of the rights matrix on %s', (kind) => {
  let h: Harness;
  let customer: TestUser;
  let tokens: Record<CallerKey, string | undefined>;
  let shared: Targets;
  let fresh: Targets;
  /** Written into the customer's profile and order addresses: no answer to anyone else may carry it. */
  const marker = `private-${tag()}`;

  beforeAll(async () => {
    // Rate limits are another matter (docs/security.md, Limits); this suite signs the customer in a dozen times.
    const noRateLimits = Object.fromEntries(Object.keys(defaultRateLimits).map((rule) => [rule, null]));
    h = await startHarness(kind, { rateLimits: noRateLimits as unknown as RateLimits });
    const { app } = h;
    const [admin, other, deleted] = await Promise.all([h.signUp({ admin: true }), h.signUp(), h.signUp()]);
    // Verified: invitations to a company are taken only by an account whose address Firebase has verified.
    customer = await h.signUp({ verified: true });
    dataOf(await app.gql('mutation($id: ID!) { deleteUser(id: $id) }', { id: deleted.userId }, admin.token));
    dataOf(
      await app.gql(
        'mutation($input: ProfileInput!) { updateProfile(input: $input) { id } }',
        { input: { education: marker, location: marker } },
        customer.token,
      ),
    );
    tokens = {
      anonymous: undefined,
      customer: customer.token,
      other: other.token,
      admin: admin.token,
      expired: h.badTokens.expired(customer),
      secret: h.badTokens.forged(customer),
      none: h.badTokens.unsigned(customer),
      deleted: deleted.token,
      junk: h.badTokens.random,
      idToken: customer.idToken,
      otherIdToken: other.idToken,
    };

    const newPart = () => addPart(app, admin.token, { available: 100_000, minOrder: 1 });
    const stockedPart = await newPart();
    const newOrder = async (partId = stockedPart) =>
      (await placeOrder(app, customer.token, partId, { orderAmount: 1, address: marker })).id;
    const newIntent = async () => {
      const orderId = await newOrder();
      return { orderId, intentId: dataOf(await createIntent(app, orderId, customer.token)).createPaymentIntent.id };
    };
    // The catalog's vehicles the garage rows are about: one model, a new variant for each target.
    const { db } = app.server.database;
    const [make] = await db
      .insert(makes)
      .values({ name: 'Honda', slug: `honda-${tag()}` })
      .returning();
    const [model] = await db.insert(models).values({ makeId: make.id, name: 'CRF450R', slug: 'crf450r' }).returning();
    const newVehicle = async () =>
      (await db.insert(vehicles).values({ modelId: model.id, year: 2019, variant: tag() }).returning())[0].id;
    // Companies: the customer is a company admin of one company beside a steward (a second company admin, who
    // brings the customer back in after a row took them out); invitations to the customer come from companies of
    // their own, one each.
    const companies = app.server.services.companies;
    const actorOf = async (user: TestUser) => {
      const actor = await app.server.services.users.actorFor(user.userId, user.firebaseUid);
      if (!actor) throw new Error(`no actor for ${user.email}`);
      return actor;
    };
    const customerActor = await actorOf(customer);
    const steward = await actorOf(await h.signUp({ verified: true }));
    const companyId = (await companies.createCompany(steward, { name: `Company ${tag()}`, taxId: 'BIN-1' })).company.id;
    const leaveAnyCompany = async () => {
      const mine = await companies.myCompany(customerActor);
      if (mine?.company.id === companyId) await companies.removeMember(steward, companyId, customer.userId);
      else if (mine) await companies.leaveCompany(customerActor);
    };
    const customersCompany = async () => {
      const mine = await companies.myCompany(customerActor);
      if (mine?.company.id === companyId && mine.myRole === 'company_admin') return companyId;
      await leaveAnyCompany();
      const invitation = await companies.inviteToCompany(steward, companyId, {
        email: customer.email,
        role: 'company_admin',
      });
      await companies.acceptInvitation(customerActor, invitation.id);
      return companyId;
    };
    const invitationToCustomer = async () => {
      const owner = await actorOf(await h.signUp({ verified: true }));
      const other = await companies.createCompany(owner, { name: `Inviting ${tag()}`, taxId: 'BIN-2' });
      return (await companies.inviteToCompany(owner, other.company.id, { email: customer.email, role: 'buyer' })).id;
    };
    const companyMakers = {
      company: customersCompany,
      async companyAddress() {
        const id = await customersCompany();
        const view = await companies.addCompanyAddress(customerActor, id, {
          label: `Yard ${tag()}`,
          address: 'Yard 1',
        });
        return { companyId: id, addressId: view.addresses[view.addresses.length - 1].id };
      },
      async companyInvitation() {
        const id = await customersCompany();
        return (await companies.inviteToCompany(customerActor, id, { email: `x-${tag()}@example.com`, role: 'buyer' }))
          .id;
      },
      async companyBuyer() {
        const id = await customersCompany();
        const buyer = await h.signUp({ verified: true });
        const invitation = await companies.inviteToCompany(customerActor, id, { email: buyer.email, role: 'buyer' });
        await companies.acceptInvitation(await actorOf(buyer), invitation.id);
        return { companyId: id, userId: buyer.userId };
      },
      async invitationToCustomer() {
        await leaveAnyCompany();
        return invitationToCustomer();
      },
      async awaitingCheckout() {
        const id = await customersCompany();
        const buyer = await h.signUp({ verified: true });
        const buyerActor = await actorOf(buyer);
        const invitation = await companies.inviteToCompany(customerActor, id, { email: buyer.email, role: 'buyer' });
        await companies.acceptInvitation(buyerActor, invitation.id);
        await companies.setBuyerLimit(customerActor, id, buyer.userId, 0.01);
        const order = await app.server.services.orders.placeOrder(
          buyerActor,
          orderInput(stockedPart, { orderAmount: 1 }),
        );
        return { companyId: id, id: order.id };
      },
      async otherInNoCompany() {
        const otherActor = await actorOf(other);
        const theirs = await companies.myCompany(otherActor);
        if (!theirs) return;
        // The company's only admin cannot leave it: another account takes the role first.
        const successor = await h.signUp({ verified: true });
        const invitation = await companies.inviteToCompany(otherActor, theirs.company.id, {
          email: successor.email,
          role: 'company_admin',
        });
        await companies.acceptInvitation(await actorOf(successor), invitation.id);
        await companies.leaveCompany(otherActor);
      },
    };
    const shopAdmin = await actorOf(admin);
    const companyWithTerms = async () => {
      const id = await customersCompany();
      await app.server.services.invoicing.setCompanyTerms(shopAdmin, id, { termsDays: 30, creditLimit: 1_000_000 });
      return id;
    };
    const invoicingMakers = {
      companyWithTerms,
      async onAccountOrder() {
        await companyWithTerms();
        return newOrder();
      },
      async invoice() {
        await companyWithTerms();
        return (await app.server.services.invoicing.payOnAccount(customerActor, await newOrder())).invoice.id;
      },
    };
    const makers: Targets = {
      ...companyMakers,
      async companyPartPrice() {
        const id = await customersCompany();
        const partId = await newPart();
        await db.insert(companyPriceLists).values({ companyId: id }).onConflictDoNothing();
        await db.insert(companyPartPrices).values({ companyId: id, partId, priceCents: 50 });
        return { companyId: id, partId };
      },
      ...invoicingMakers,
      part: newPart,
      unpaidOrder: () => newOrder(),
      pendingIntent: newIntent,
      async succeededIntent() {
        const intent = await newIntent();
        dataOf(await payWithCard(app, intent.intentId, '4242 4242 4242 4242', customer.token));
        return intent;
      },
      async paidOrder() {
        const orderId = await newOrder();
        const paid = await payOrder(app, customer.token, orderId);
        dataOf(paid.confirm);
        return orderId;
      },
      async paidPart() {
        const partId = await newPart();
        dataOf((await payOrder(app, customer.token, await newOrder(partId))).confirm);
        return partId;
      },
      account: () => h.signUp({ verified: true }),
      adminAccount: () => h.signUp({ admin: true, verified: true }),
      async brand() {
        const created = await app.gql<{ createBrand: { id: string } }>(
          'mutation($name: String!) { createBrand(name: $name) { id } }',
          { name: `Brand ${tag()}` },
          admin.token,
        );
        return dataOf(created).createBrand.id;
      },
      async category() {
        const created = await app.gql<{ createCategory: { id: string } }>(
          'mutation($name: String!) { createCategory(name: $name) { id } }',
          { name: `Category ${tag()}` },
          admin.token,
        );
        return dataOf(created).createCategory.id;
      },
      async make() {
        const created = await app.gql<{ createMake: { id: string } }>(
          'mutation($name: String!) { createMake(name: $name) { id } }',
          { name: `Make ${tag()}` },
          admin.token,
        );
        return dataOf(created).createMake.id;
      },
      async model() {
        const created = await app.gql<{ createModel: { id: string } }>(
          'mutation($make: ID!, $name: String!) { createModel(makeId: $make, name: $name) { id } }',
          { make: await makers.make(), name: `Model ${tag()}` },
          admin.token,
        );
        return dataOf(created).createModel.id;
      },
      async cartLine() {
        const partId = await newPart();
        dataOf(
          await app.gql(
            'mutation($id: ID!) { addToCart(partId: $id, amount: 1) { units } }',
            { id: partId },
            customer.token,
          ),
        );
        return partId;
      },
      async importJob() {
        const started = await app.rest<{ id: string }>('POST', '/imports', { kind: 'fitment' }, admin.token);
        const sent = await app.rest(
          'PUT',
          `/imports/${started.body.id}/chunks/0`,
          'sku,make,model,year\nNOPE-1,Nomake,Nomodel,2019\n',
          admin.token,
          {
            'content-type': 'text/csv',
          },
        );
        if (sent.status !== 200) throw new Error(`the import's chunk was refused: ${JSON.stringify(sent.body)}`);
        return started.body.id;
      },
      vehicle: newVehicle,
      async sku() {
        const [row] = await db.select({ sku: parts.sku }).from(parts).where(eq(parts.id, stockedPart));
        return row.sku;
      },
      async savedList() {
        const partId = await newPart();
        const created = await app.gql<{ createSavedList: { id: string } }>(
          'mutation($name: String!) { createSavedList(name: $name) { id } }',
          { name: `List ${tag()}` },
          customer.token,
        );
        const id = dataOf(created).createSavedList.id;
        dataOf(
          await app.gql(
            'mutation($id: ID!, $part: ID!) { setSavedListLine(id: $id, partId: $part, quantity: 1) { id } }',
            { id, part: partId },
            customer.token,
          ),
        );
        return { id, partId };
      },
      async garageBike() {
        const vehicleId = await newVehicle();
        dataOf(
          await app.gql(
            'mutation($id: ID!) { addToGarage(vehicleId: $id) { bikes { current } } }',
            { id: vehicleId },
            customer.token,
          ),
        );
        return vehicleId;
      },
    };
    // Refused calls and reads all go to one target per row, the customer's; a call that is let through
    // consumes its target (cancels it, pays it, deletes it), so each gets a new one.
    const cache = new Map<string, Promise<unknown>>();
    const once = <K extends keyof Targets>(key: K, make: Targets[K]) =>
      (() => {
        if (!cache.has(key)) cache.set(key, make());
        return cache.get(key);
      }) as Targets[K];
    shared = {
      part: once('part', async () => stockedPart),
      unpaidOrder: once('unpaidOrder', makers.unpaidOrder),
      pendingIntent: once('pendingIntent', makers.pendingIntent),
      succeededIntent: once('succeededIntent', makers.succeededIntent),
      paidOrder: once('paidOrder', makers.paidOrder),
      paidPart: once('paidPart', makers.paidPart),
      account: once('account', async () => customer),
      adminAccount: once('adminAccount', makers.adminAccount),
      cartLine: once('cartLine', makers.cartLine),
      importJob: once('importJob', makers.importJob),
      brand: once('brand', makers.brand),
      category: once('category', makers.category),
      make: once('make', makers.make),
      model: once('model', makers.model),
      vehicle: once('vehicle', makers.vehicle),
      garageBike: once('garageBike', makers.garageBike),
      sku: once('sku', makers.sku),
      savedList: once('savedList', makers.savedList),
      company: once('company', makers.company),
      companyAddress: once('companyAddress', makers.companyAddress),
      companyInvitation: once('companyInvitation', makers.companyInvitation),
      companyBuyer: once('companyBuyer', makers.companyBuyer),
      awaitingCheckout: once('awaitingCheckout', makers.awaitingCheckout),
      // Shared: the customer stays in their company (their own cell is an allowed write, sent on a fresh one).
      invitationToCustomer: once('invitationToCustomer', invitationToCustomer),
      otherInNoCompany: once('otherInNoCompany', async () => undefined),
      companyPartPrice: once('companyPartPrice', makers.companyPartPrice),
      companyWithTerms: once('companyWithTerms', makers.companyWithTerms),
      onAccountOrder: once('onAccountOrder', makers.onAccountOrder),
      invoice: once('invoice', makers.invoice),
    };
    fresh = makers;
  });
  afterAll(() => h?.app.close());

  it("answers each as the matrix says; refusals and reads change nothing, tell nobody else the customer's data; allowed writes take effect", async () => {
    const world: World = { customer };
    const mismatches: string[] = [];
    const leaks: string[] = [];
    const check = (row: RightsRow, caller: CallerKey, answer: Answer) => {
      if (answer.outcome !== String(row.expected[caller])) {
        mismatches.push(`${row.operation} × ${caller}: expected ${row.expected[caller]}, got ${answer.outcome}`);
      }
    };

    // 1. Every refusal, and every read: the database must be exactly as before, row for row.
    const prepared = new Map<string, Call>();
    for (const row of rightsMatrix) prepared.set(row.operation, await calls[row.operation](shared, world));
    const cells = rightsMatrix.flatMap((row) =>
      callerKeys.filter((caller) => isRead(row) || row.expected[caller] !== 'ok').map((caller) => ({ row, caller })),
    );
    const before = await snapshot(h);
    await inPool(cells, 6, async ({ row, caller }) => {
      const answer = await send(h, prepared.get(row.operation) as Call, tokens[caller]);
      check(row, caller, answer);
      const text = answer.text.toLowerCase();
      if (caller !== 'customer' && caller !== 'admin' && (text.includes(marker) || text.includes(customer.email))) {
        leaks.push(`${row.operation} × ${caller}: ${answer.text.slice(0, 300)}`);
      }
    });
    const changedByRefusals = changes(before, await snapshot(h));

    // 2. Every allowed write, one at a time on a target of its own: it succeeds, and the database changes.
    const noEffect: string[] = [];
    for (const row of rightsMatrix.filter((r) => !isRead(r))) {
      for (const caller of callerKeys.filter((c) => row.expected[c] === 'ok')) {
        const call = await calls[row.operation](fresh, world);
        const beforeWrite = await snapshot(h);
        const answer = await send(h, call, tokens[caller]);
        check(row, caller, answer);
        if (answer.outcome === 'ok' && changes(beforeWrite, await snapshot(h)).length === 0) {
          noEffect.push(`${row.operation} × ${caller}`);
        }
      }
    }

    expect({ mismatches, leaks, changedByRefusals, noEffect }).toEqual({
      mismatches: [],
      leaks: [],
      changedByRefusals: [],
      noEffect: [],
    });
    // Every cell was sent: the refusals and reads above, the allowed writes after.
    const allowedWrites = rightsMatrix
      .filter((r) => !isRead(r))
      .reduce((n, r) => n + callerKeys.filter((c) => r.expected[c] === 'ok').length, 0);
    expect(cells.length + allowedWrites).toBe(rightsMatrix.length * callerKeys.length);
  });

  it('every protected REST route refuses a missing or bad token (401), and a customer on an admin route (403), before it reads any input', async () => {
    // A stranger learns nothing about a route's input by probing it, and their body is not even read.
    const protectedRows = rightsMatrix.filter((r) => r.api === 'rest' && r.expected.anonymous === 401);
    expect(protectedRows.length).toBeGreaterThan(20);
    const cells = protectedRows.flatMap((row) =>
      callerKeys
        .filter(
          (caller) => row.expected[caller] === 401 || (row.expected.customer === 403 && row.expected[caller] === 403),
        )
        .flatMap((caller) => badRequests(row).map((call) => ({ row, caller, call }))),
    );
    const before = await snapshot(h);
    const mismatches: string[] = [];
    await inPool(cells, 6, async ({ row, caller, call }) => {
      const answer = await send(h, call, tokens[caller]);
      if (answer.outcome !== String(row.expected[caller])) {
        const what = 'body' in call && call.body !== undefined ? String(JSON.stringify(call.body)).slice(0, 40) : '';
        const where = 'path' in call ? call.path : '';
        mismatches.push(
          `${row.operation} × ${caller} (${where} ${what}): expected ${row.expected[caller]}, got ${answer.outcome}`,
        );
      }
    });
    expect({ mismatches, changed: changes(before, await snapshot(h)) }).toEqual({ mismatches: [], changed: [] });
  });
});
