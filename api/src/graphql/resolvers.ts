import { centsToDollars, nextBuyerBreak, tierFor } from '@partsyard/common';
import { AppError } from '../errors';
import { isPaid } from '../services/ordersService';
import { importEnums, importJobFields, importMutations, importQueries } from './importResolvers';
import { catalogMutations, catalogPartFields, catalogQueries, catalogTypes } from './catalogResolvers';
import { inventoryMutations, inventoryQueries, inventoryTypes } from './inventoryResolvers';
import { garageMutations, garageQueries, garageTypes } from './garageResolvers';
import { orderingMutations, orderingQueries, orderingTypes } from './orderingResolvers';
import { companyMutations, companyQueries, companyTypes } from './companyResolvers';
import { companyPriceMutations, companyPriceQueries, companyPriceTypes } from './companyPriceResolvers';
import { invoicingMutations, invoicingQueries, invoicingTypes } from './invoicingResolvers';
import type { Resolvers } from './generated';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const isoRequired = (date: Date) => date.toISOString();

/** Thin adapters: each says which service does the work; rights are in the schema and the services. */
export const resolvers: Resolvers = {
  Role: { ADMIN: 'admin', CUSTOMER: 'customer' },
  OrderStatus: {
    UNPAID: 'unpaid',
    PAID: 'paid',
    SHIPPED: 'shipped',
    EXPIRED: 'expired',
    AWAITING_APPROVAL: 'awaiting_approval',
    DECLINED: 'declined',
  },
  DisputeStatus: { OPEN: 'open', WON: 'won', LOST: 'lost' },
  PaymentMode: { TEST: 'test', STRIPE: 'stripe' },
  PartNumberKind: { MANUFACTURER: 'manufacturer', OEM: 'oem', INTERCHANGE: 'interchange', EAN: 'ean' },
  FitVerdict: { FITS: 'fits', DOES_NOT_FIT: 'doesNotFit', FITS_WITH_NOTE: 'fitsWithNote' },
  NumberMatch: { EXACT: 'exact', PREFIX: 'prefix' },
  ...importEnums,
  SearchMatch: { EXACT_NUMBER: 'exactNumber', NUMBER_PREFIX: 'numberPrefix', NAME: 'name', DESCRIPTION: 'description' },

  Query: {
    parts: (_, args, { services }) => services.parts.listParts(args),
    part: async (_, { id }, { services }) => {
      try {
        return await services.parts.getPart(id);
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      }
    },
    popularParts: (_, { limit }, { services }) => services.parts.popularParts(limit),
    reviews: (_, { limit }, { services }) => services.reviews.listReviews(limit),
    me: (_, __, { services, actor }) => services.users.me(actor),
    myOrders: (_, args, { services, actor, account }) => services.orders.myOrders(actor ?? account, args),
    myPayments: (_, __, { services, actor }) => services.payments.myPayments(actor),
    order: (_, { id }, { services, actor }) => services.orders.getOrder(actor, id),
    orders: (_, args, { services, actor, account }) => services.orders.allOrders(actor ?? account, args),
    users: (_, args, { services, actor }) => services.users.listUsers(actor, args),
    isAdmin: (_, { email }, { services, actor }) => services.users.isAdmin(actor, email),
    contactMessages: (_, args, { services, actor }) => services.contact.listMessages(actor, args),
    adminOverview: async (_, __, { services, actor }) => {
      const overview = await services.overview.overview(actor);
      return {
        ...overview,
        revenueByDay: overview.revenueByDay.map((d) => ({ ...d, revenue: centsToDollars(d.revenueCents) })),
        revenueLast30Days: centsToDollars(overview.revenueCents),
        topParts: overview.topParts.map((p) => ({ ...p, revenue: centsToDollars(p.revenueCents) })),
      };
    },
    cart: (_, __, { services, actor }) => services.cart.cart(actor),
    paymentSettings: (_, __, { services }) => services.payments.paymentSettings(),
    clientSettings: (_, __, { services, clientSettings }) => ({
      ...clientSettings,
      payments: services.payments.paymentSettings(),
    }),
    ...catalogQueries,
    ...importQueries,
    ...inventoryQueries,
    ...garageQueries,
    ...orderingQueries,
    ...companyQueries,
    ...companyPriceQueries,
    ...invoicingQueries,
  },

  Mutation: {
    signIn: (_, { idToken, profile }, { services, client }) => services.users.signIn(idToken, profile, { client }),
    updateProfile: (_, { input }, { services, actor }) => services.users.updateProfile(actor, input),
    addPart: (_, { input }, { services, actor }) => services.parts.addPart(actor, input),
    deletePart: (_, { id }, { services, actor }) => services.parts.deletePart(actor, id),
    placeOrder: (_, { input }, { services, actor, account, client }) =>
      services.orders.placeOrder(actor ?? account, input, client),
    cancelOrder: (_, { id }, { services, actor }) => services.orders.cancelOrder(actor, id),
    createPaymentIntent: (_, { orderId }, { services, actor }) => services.payments.createPaymentIntent(actor, orderId),
    payWithTestCard: (_, { paymentIntentId, card }, { services, actor }) =>
      services.payments.payWithTestCard(actor, paymentIntentId, card),
    confirmPayment: (_, { orderId, paymentIntentId }, { services, actor }) =>
      services.payments.confirmPayment(actor, orderId, paymentIntentId),
    markOrderShipped: async (_, { id }, { services, actor }) => (await services.orders.markShipped(actor, id)).order,
    addReview: (_, { input }, { services, actor }) => services.reviews.addReview(actor, input),
    grantAdmin: async (_, { email }, { services, actor }) => (await services.users.grantAdmin(actor, email)).user,
    revokeAdmin: async (_, { email }, { services, actor }) => (await services.users.revokeAdmin(actor, email)).user,
    deleteUser: (_, { id }, { services, actor }) => services.users.deleteUser(actor, id),
    addToCart: (_, { partId, amount }, { services, actor }) => services.cart.addToCart(actor, partId, amount),
    setCartLineAmount: (_, { partId, amount }, { services, actor }) =>
      services.cart.setCartLineAmount(actor, partId, amount),
    removeCartLine: (_, { partId }, { services, actor }) => services.cart.removeCartLine(actor, partId),
    mergeCart: (_, { lines, mergeId }, { services, actor }) => services.cart.mergeCart(actor, lines, mergeId),
    checkout: (_, { input }, { services, actor, client }) => services.cart.checkout(actor, input, client),
    setPartPricing: (_, args, { services, actor }) => services.parts.setPartPricing(actor, args.id, args),
    sendContactMessage: (_, { input }, { services, client }) => services.contact.sendMessage(input, client),
    ...importMutations,
    ...catalogMutations,
    ...inventoryMutations,
    ...garageMutations,
    ...orderingMutations,
    ...companyMutations,
    ...companyPriceMutations,
    ...invoicingMutations,
  },
  ImportJob: importJobFields,

  Part: {
    price: (part) => centsToDollars(part.priceCents),
    ...catalogPartFields,
  },
  ...catalogTypes,
  ...inventoryTypes,
  ...garageTypes,
  ...orderingTypes,
  ...companyTypes,
  ...companyPriceTypes,
  ...invoicingTypes,
  PriceTier: {
    price: (tier) => centsToDollars(tier.priceCents),
  },
  NextPriceTier: {
    savesPerUnit: (next) => centsToDollars(next.savesPerUnitCents),
  },
  Cart: {
    total: (cart) => centsToDollars(cart.totalCents),
  },
  CartLine: {
    unitPrice: (line) => centsToDollars(line.unitPriceCents),
    seenUnitPrice: (line) => centsToDollars(line.seenUnitPriceCents),
    lineTotal: (line) => centsToDollars(line.lineTotalCents),
    // A line at the company's price has no list break applying; its next break is by the buyer's rule.
    tier: (line) => (line.companyPriced ? null : tierFor(line.part, line.amount)),
    nextTier: (line) => nextBuyerBreak(line.part, line.amount, line.companyPrice),
  },
  Checkout: {
    id: (checkout) => checkout.checkoutId,
    total: (checkout) => centsToDollars(checkout.totalCents),
  },
  Order: {
    unitPrice: (order) => centsToDollars(order.unitPriceCents),
    price: (order) => centsToDollars(order.totalCents),
    paid: (order) => isPaid(order.status),
    createdAt: (order) => isoRequired(order.createdAt),
    expiresAt: (order) => (isPaid(order.status) ? null : isoRequired(order.expiresAt)),
    paidAt: (order) => iso(order.paidAt),
    shippedAt: (order) => iso(order.shippedAt),
    checkout: (order, _, { services }) => services.orders.checkoutOf(order),
    refundedAmount: (order) => centsToDollars(order.refundedCents),
  },
  User: {
    email: (user) => user.email ?? '',
    isAdmin: (user) => user.role === 'admin',
    createdAt: (user) => isoRequired(user.createdAt),
  },
  Review: {
    createdAt: (review) => isoRequired(review.createdAt),
  },
  Payment: {
    amount: (payment) => centsToDollars(payment.amountCents),
    createdAt: (payment) => isoRequired(payment.createdAt),
  },
  PaymentIntent: {
    amount: (intent) => centsToDollars(intent.amountCents),
  },
  ContactMessage: {
    createdAt: (message) => isoRequired(message.createdAt),
  },
};
