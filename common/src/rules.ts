import * as yup from 'yup';
import { dollarsToCents } from './format';
import { maxChargeCents, maxQuantity, messages } from './messages';
import { maxUnitsPerCharge, orderAmountProblem, type StockLimits } from './orderAmount';

/** Limits shared by the forms and the API. */
export const limits = {
  passwordMin: 6,
  phoneMin: 11,
  shortText: 200,
  longText: 2000,
  urlText: 2048,
  /** A unit price, and the total of one order: what one card payment can be (Stripe's limit). */
  maxChargeCents,
  maxQuantity,
} as const;

/** Bangladeshi mobile number: optional +88 or 0088, then 01, a digit 3-9, then 8 digits. */
export const bangladeshiPhone = /^(?:\+88|0088)?01[3-9]\d{8}$/;
/** Letters (accented too), space, apostrophe, comma, hyphen and period. */
export const personName = /^[\p{L}\p{M} ',.-]+$/u;
/**
 * Pictures (part images, avatars): an http(s) address or one of the shop's own files under /images/. Nothing
 * else reaches an <img> or the page: no javascript:, data: or relative addresses, and no path segment that
 * leaves /images/ (`/images/../api/users` is what a browser asks as `/api/users`): each segment starts with a
 * letter, digit, `_` or `-`. Migration 0012 holds stored pictures to the same rule.
 */
export const imageUrl = /^(?:https?:\/\/[^\s]+|\/images\/(?:[\w-][\w.-]*\/)*[\w-][\w.-]*)$/i;
/** Links a profile shows (LinkedIn): http(s) only. */
export const webUrl = /^https?:\/\/[^\s]+$/i;

/** NUL (which PostgreSQL cannot store in text) and the other control characters; tab and line breaks are fine. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Half of a surrogate pair alone: not a character, and no UTF-8 database can store it as given. */
export const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text as the forms send it, trimmed. Anything but text (an object, an array) is refused with a message
 * rather than thrown on, and null counts as not given (GraphQL's optional fields may be sent as null).
 */
const text = () =>
  yup
    .string()
    .transform((value: unknown) => (value === null ? undefined : typeof value === 'string' ? value.trim() : value))
    .typeError(messages.notText)
    .test('no-control-characters', messages.controlCharacters, (value) => !value || !controlCharacters.test(value))
    .test('well-formed', messages.brokenText, (value) => !value || !unpairedSurrogate.test(value));

const shortText = () => text().max(limits.shortText, messages.tooLong(limits.shortText));
const longText = () => text().max(limits.longText, messages.tooLong(limits.longText));
const urlText = () => text().max(limits.urlText, messages.tooLong(limits.urlText));

/** A domain with at least one dot after the '@' (yup's email shape alone takes `foo@bar`, which no mail reaches). */
export const emailDomainWithDot = /@[^@\s]+\.[^@\s.]+$/;

export const emailRule = () =>
  text()
    .required(messages.emailRequired)
    .max(limits.shortText, messages.tooLong(limits.shortText))
    .email(messages.emailInvalid)
    .test('domain-with-dot', messages.emailInvalid, (value) => !value || emailDomainWithDot.test(value));

export const loginSchema = yup.object({
  email: emailRule(),
  password: yup.string().required(messages.passwordRequired).min(limits.passwordMin, messages.passwordTooShort),
});

export const signupSchema = loginSchema.shape({
  name: shortText().required(messages.nameRequired).matches(personName, messages.nameInvalid),
});

/** The Auth emulator's stand-in for Google's account chooser (embedded default): an email and a name. */
export const emulatorGoogleAccountSchema = yup.object({
  email: emailRule(),
  name: shortText().matches(personName, { message: messages.nameInvalid, excludeEmptyString: true }).default(''),
});

export const phoneRule = () =>
  text()
    .required(messages.phoneRequired)
    .min(limits.phoneMin, messages.phoneTooShort)
    .matches(bangladeshiPhone, messages.phoneNotBangladeshi);

/** The amount of a part's order: read as a number, then the rule of orderAmount.ts. */
export const orderAmountRule = (stock: StockLimits) =>
  yup
    .number()
    .typeError(messages.orderAmountRequired)
    .required(messages.orderAmountRequired)
    .test('order-amount', function orderAmount(n) {
      const problem = n == null ? null : orderAmountProblem(stock, n);
      return problem === null || this.createError({ message: problem });
    });

/** An amount alone (a cart line, a checkout's line): the same rules as the purchase form's amount. */
export const orderAmountSchema = (stock: StockLimits) => yup.object({ orderAmount: orderAmountRule(stock) });

const makePurchaseSchema = (stock: StockLimits) =>
  yup.object({
    name: shortText().required(messages.nameRequired),
    phone: phoneRule(),
    orderAmount: orderAmountRule(stock),
    address: longText().default(''),
  });
/** Schemas already built, by the limits they were built for: building one cost a fifth of an order's CPU. */
const purchaseSchemas = new Map<string, ReturnType<typeof makePurchaseSchema>>();

/**
 * The purchase form; email is the signed-in user's and is checked by emailRule where it is shown. The same
 * limits give the same schema (yup schemas are immutable), made once; at most 500 kept.
 */
export function purchaseSchema(stock: StockLimits) {
  const key = `${stock.minOrder}/${stock.available}/${stock.priceCents}/${stock.packSize}`;
  let schema = purchaseSchemas.get(key);
  if (!schema) {
    if (purchaseSchemas.size >= 500) purchaseSchemas.clear();
    schema = makePurchaseSchema(stock);
    purchaseSchemas.set(key, schema);
  }
  return schema;
}

/** A checkout's contact details (the purchase form's, without an amount: the cart's lines carry those). */
export const checkoutSchema = yup.object({
  name: shortText().required(messages.nameRequired),
  phone: phoneRule(),
  address: longText().default(''),
});

export const partSchema = yup.object({
  name: shortText().required(messages.partNameRequired),
  // A price is whole cents from $0.01 to what one card payment can be; nothing is sold for $0.
  price: yup
    .number()
    .typeError(messages.priceRequired)
    .required(messages.priceRequired)
    .min(0, messages.priceNegative)
    .test('at-least-a-cent', messages.priceTooLow, (v) => v == null || dollarsToCents(v) >= 1)
    .test('fits-one-charge', messages.priceTooHigh, (v) => v == null || dollarsToCents(v) <= limits.maxChargeCents),
  image: urlText().matches(imageUrl, { message: messages.imageUrlInvalid, excludeEmptyString: true }).default(''),
  minOrder: yup
    .number()
    .typeError(messages.minOrderRequired)
    .required(messages.minOrderRequired)
    .integer(messages.wholeNumber)
    .min(1, messages.minOrderTooSmall)
    .max(limits.maxQuantity, messages.tooLarge(limits.maxQuantity))
    // The smallest order of the part must be payable in one card payment, or the part can never be sold.
    .test('min-order-fits-one-charge', messages.minOrderCostsTooMuch, function fits(minOrder) {
      const price = (this.parent as { price?: unknown } | undefined)?.price;
      if (minOrder == null || typeof price !== 'number' || !Number.isFinite(price)) return true;
      const cents = dollarsToCents(price);
      return cents < 1 || cents > limits.maxChargeCents || minOrder <= maxUnitsPerCharge(cents);
    })
    // A minimum order above the stock could never be ordered.
    .test('min-order-in-stock', function inStock(minOrder) {
      const available = (this.parent as { available?: unknown } | undefined)?.available;
      if (minOrder == null || typeof available !== 'number' || !Number.isInteger(available) || available < 0)
        return true;
      return minOrder <= available || this.createError({ message: messages.minOrderAboveAvailable(available) });
    }),
  available: yup
    .number()
    .typeError(messages.availableRequired)
    .required(messages.availableRequired)
    .integer(messages.wholeNumber)
    .min(0, messages.availableNegative)
    .max(limits.maxQuantity, messages.tooLarge(limits.maxQuantity)),
  description: longText().required(messages.descriptionRequired),
});

/**
 * A part's own fields as an admin edits them (issue 33 point 5): addPart's rules, every one, without the stock,
 * which changes only by adjustments with a reason (inventory.ts). A minimum order above the stock is allowed
 * here: a part sold out today may still have its minimum order raised before the next delivery.
 */
export const partEditSchema = /* @__PURE__ */ partSchema.omit(['available']);

export const reviewSchema = yup.object({
  text: longText().required(messages.reviewRequired),
});

export const contactSchema = yup.object({
  firstName: shortText().required(messages.firstNameRequired),
  lastName: shortText().required(messages.lastNameRequired),
  phone: shortText().default(''),
  email: emailRule(),
  message: longText().required(messages.messageRequired),
});

/**
 * The profile has no rules of its own in the spec; lengths are bounded, and the picture and the link must be
 * addresses a browser may load or open safely.
 */
export const profileSchema = yup.object({
  name: shortText(),
  avatar: urlText().matches(imageUrl, { message: messages.avatarUrlInvalid, excludeEmptyString: true }),
  phone: shortText(),
  education: shortText(),
  location: shortText(),
  linkedIn: urlText().matches(webUrl, { message: messages.linkUrlInvalid, excludeEmptyString: true }),
});

/** The parts search (the catalog's search box, the `search` argument of the API). */
export const searchSchema = yup.object({ search: shortText() });

/** Per-field messages: the first failing rule of each field. */
export type FieldErrors = Record<string, string>;

/**
 * The schema's own fields of `input`, nothing else. yup looks each key of the input up among the schema's
 * fields and calls a value's own toString/valueOf when it casts it, and JSON can set those keys to anything:
 * so a key such as "constructor" is dropped here, and an object or array given for a field (every field of
 * these forms is text or a number) is handed on as a value of no type, which the field's rule refuses.
 */
function ownFields(schema: yup.AnyObjectSchema, input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const picked: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.fields)) {
    if (!Object.prototype.hasOwnProperty.call(input, name)) continue;
    const value = (input as Record<string, unknown>)[name];
    const isNumber = (field as { type?: string }).type === 'number';
    picked[name] = value === null || typeof value !== 'object' ? value : isNumber ? NaN : Object.create(null);
  }
  return picked;
}

/**
 * Validates and casts `input`. Answers either the cleaned values or the first message of each failing
 * field; the API turns the latter into BAD_USER_INPUT / 400, the forms show them under the fields.
 */
export function check<S extends yup.AnyObjectSchema>(
  schema: S,
  input: unknown,
): { ok: true; value: yup.InferType<S> } | { ok: false; errors: FieldErrors } {
  try {
    const value = schema.validateSync(ownFields(schema, input), {
      abortEarly: false,
      stripUnknown: true,
      // A refusal is an answer, not a fault: nothing reads its stack, and capturing one for each failing field
      // was a tenth of a refused order's CPU under load (issue 15).
      disableStackTrace: true,
    }) as yup.InferType<S>;
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const errors: FieldErrors = {};
    for (const issue of error.inner.length ? error.inner : [error]) {
      const field = issue.path || '_';
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
}
