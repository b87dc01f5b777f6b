import { centsToDollars, formatDollars } from './format';

/** The most one card payment may be, in cents: Stripe's limit per charge (99,999,999 of the smallest unit). */
export const maxChargeCents = 99_999_999;
/** The most units one order may ask for (limits.maxQuantity; here so that pricing.ts needs no validation library). */
export const maxQuantity = 1_000_000;
const maxCharge = formatDollars(centsToDollars(maxChargeCents));

/** Every user-facing validation message, written once; the spec's §5 texts are kept word for word. */
export const messages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Provide a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Must be 6 characters or longer',
  nameRequired: 'Name is required',
  nameInvalid: 'Provide a valid name',
  phoneRequired: 'Phone is required',
  phoneTooShort: 'Must be 11 characters',
  phoneNotBangladeshi: 'Provide a Bangladeshi number',
  orderAmountRequired: "Order can't be empty",
  orderAmountBelowMin: (minOrder: number) => `Must order more than ${minOrder} items`,
  orderAmountAboveAvailable: (available: number) => `Only ${available} items available`,
  orderTotalTooLarge: (maxItems: number) =>
    `An order can cost at most ${maxCharge}, the most one card payment can be: order at most ${maxItems} ${maxItems === 1 ? 'item' : 'items'}`,
  checkoutTooLarge: `A checkout can cost at most ${maxCharge}, the most one card payment can be: check out fewer parts at once`,
  partNotForSale: 'This part has no price yet and cannot be ordered',
  wholeNumber: 'Must be a whole number',
  notPackMultiple: (packSize: number, below: number, above: number) =>
    `Sold in packs of ${packSize}: order a multiple of ${packSize}${below > 0 ? ` (${below} or ${above})` : ` (${above})`}`,
  partNameRequired: "The part's name is required",
  priceRequired: 'Price is required',
  priceNegative: "Price can't be negative",
  priceTooLow: 'Price must be at least $0.01',
  priceTooHigh: `Price must be ${maxCharge} or less, the most one card payment can be`,
  minOrderCostsTooMuch: `At this price the minimum order would cost more than ${maxCharge}, the most one card payment can be`,
  minOrderRequired: "Order can't be empty",
  minOrderTooSmall: 'Minimum order must be at least 1',
  minOrderAboveAvailable: (available: number) =>
    `Minimum order can't be more than the available parts (${available}): nobody could order it`,
  availableRequired: "Available amount can't be empty",
  availableNegative: "Available amount can't be negative",
  descriptionRequired: "Order can't be empty",
  imageUrlInvalid: 'Provide an http(s) image URL',
  avatarUrlInvalid: 'Provide an http(s) picture URL, or one of our /images files',
  linkUrlInvalid: 'Provide an http(s) address',
  reviewRequired: "Review can't be empty",
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  messageRequired: 'Message is required',
  notText: 'Must be text',
  controlCharacters: 'Must not contain control characters',
  brokenText: 'Must be valid Unicode text',
  tooLong: (max: number) => `Must be ${max} characters or fewer`,
  tooLarge: (max: number) => `Must be ${max} or less`,
} as const;
