import { centsToDollars } from '@partsyard/common';
import { isPaid } from '../services/ordersService';
import type { StockMovementView } from '../inventory/inventoryService';
import type { ContactMessageRow, OrderRow, PartRow, PaymentRow, ReviewRow, UserRow } from '../db/schema';

/**
 * The REST shim speaks the document shapes of the original shop: `_id` strings and the field names of
 * spec §3, prices in dollars.
 */
export const partDocument = (p: PartRow) => ({
  _id: p.id,
  name: p.name,
  description: p.description,
  image: p.image,
  price: centsToDollars(p.priceCents),
  minOrder: p.minOrder,
  available: p.available,
});

export const orderDocument = (o: OrderRow) => ({
  _id: o.id,
  name: o.name,
  email: o.email,
  phone: o.phone,
  price: centsToDollars(o.totalCents),
  unitPrice: centsToDollars(o.unitPriceCents),
  // The unit price was the customer's company price (issue 35 point 3).
  companyPriced: o.companyPriced,
  orderAmount: o.orderAmount,
  address: o.address,
  partName: o.partName,
  partImage: o.partImage,
  partId: o.partId,
  paid: isPaid(o.status),
  status: o.status,
  transactionId: o.transactionId ?? undefined,
  createdAt: o.createdAt.toISOString(),
  // The time to pay by (unpaid), or when it expired; not shown once paid.
  expiresAt: isPaid(o.status) ? undefined : o.expiresAt.toISOString(),
  // What the gateway gave back of its payment, in dollars (0: nothing), and a dispute's state (open, won, lost).
  refunded: centsToDollars(o.refundedCents),
  dispute: o.dispute ?? undefined,
});

export const userDocument = (u: UserRow) => ({
  _id: u.id,
  email: u.email ?? '',
  name: u.name,
  avatar: u.avatar,
  phone: u.phone,
  education: u.education,
  location: u.location,
  linkedIn: u.linkedIn,
  role: u.role,
});

export const reviewDocument = (r: ReviewRow) => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  avatar: r.avatar,
  text: r.text,
  partName: r.partName,
  partImage: r.partImage,
  partId: r.partId,
});

export const paymentDocument = (p: PaymentRow) => ({
  _id: p.id,
  orderId: p.orderId,
  partId: p.partId,
  partName: p.partName,
  email: p.email,
  transactionId: p.transactionId,
  amount: centsToDollars(p.amountCents),
});

export const contactDocument = (m: ContactMessageRow) => ({
  _id: m.id,
  firstName: m.firstName,
  lastName: m.lastName,
  phone: m.phone,
  email: m.email,
  message: m.message,
  createdAt: m.createdAt.toISOString(),
});

/** A movement of a part's stock history; `actor` is who made it (null once their account is deleted). */
export const stockMovementDocument = (m: StockMovementView) => ({
  _id: m.id,
  partId: m.partId,
  reason: m.reason,
  delta: m.delta,
  before: m.before,
  after: m.after,
  note: m.note,
  actor: m.actor && { name: m.actor.name, email: m.actor.email ?? '' },
  createdAt: m.createdAt.toISOString(),
});

/** A part as the catalog's REST answers show it: the shim's part, with its catalog fields. */
export const catalogPartDocument = (p: PartRow) => ({
  ...partDocument(p),
  sku: p.sku,
  brandId: p.brandId,
  categoryId: p.categoryId,
  universal: p.universal,
  replacedById: p.replacedById,
});
