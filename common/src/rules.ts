import * as yup from 'yup';
import { messages } from './messages';

/** Limits shared by the forms and the API. */
export const limits = {
  passwordMin: 6,
  phoneMin: 11,
  shortText: 200,
  longText: 2000,
  urlText: 2048,
  maxPriceDollars: 1_000_000,
  maxQuantity: 1_000_000,
} as const;

/** Bangladeshi mobile number: optional +88 or 0088, then 01, a digit 3-9, then 8 digits. */
export const bangladeshiPhone = /^(?:\+88|0088)?01[3-9]\d{8}$/;
/** Letters (accented too), space, apostrophe, comma, hyphen and period. */
export const personName = /^[\p{L}\p{M} ',.-]+$/u;
/** Part images: an http(s) address or one of the shop's own files under /images/. */
export const imageUrl = /^(?:https?:\/\/[^\s]+|\/images\/[\w./-]+)$/i;

const shortText = () => yup.string().trim().max(limits.shortText, messages.tooLong(limits.shortText));

export const emailRule = () =>
  yup
    .string()
    .trim()
    .required(messages.emailRequired)
    .max(limits.shortText, messages.tooLong(limits.shortText))
    .email(messages.emailInvalid);

export const loginSchema = yup.object({
  email: emailRule(),
  password: yup.string().required(messages.passwordRequired).min(limits.passwordMin, messages.passwordTooShort),
});

export const signupSchema = loginSchema.shape({
  name: shortText().required(messages.nameRequired).matches(personName, messages.nameInvalid),
});

export const phoneRule = () =>
  yup
    .string()
    .trim()
    .required(messages.phoneRequired)
    .min(limits.phoneMin, messages.phoneTooShort)
    .matches(bangladeshiPhone, messages.phoneNotBangladeshi);

/** The stock figures the order amount is checked against. */
export interface StockLimits {
  minOrder: number;
  available: number;
}

export const orderAmountRule = ({ minOrder, available }: StockLimits) =>
  yup
    .number()
    .typeError(messages.orderAmountRequired)
    .required(messages.orderAmountRequired)
    .integer(messages.wholeNumber)
    .min(minOrder, messages.orderAmountBelowMin(minOrder))
    .max(available, messages.orderAmountAboveAvailable(available));

/** The purchase form; email is the signed-in user's and is checked by emailRule where it is shown. */
export const purchaseSchema = (stock: StockLimits) =>
  yup.object({
    name: shortText().required(messages.nameRequired),
    phone: phoneRule(),
    orderAmount: orderAmountRule(stock),
    address: yup.string().trim().max(limits.longText, messages.tooLong(limits.longText)).default(''),
  });

export const partSchema = yup.object({
  name: shortText().required(messages.partNameRequired),
  price: yup
    .number()
    .typeError(messages.priceRequired)
    .required(messages.priceRequired)
    .min(0, messages.priceNegative)
    .max(limits.maxPriceDollars, messages.tooLarge(limits.maxPriceDollars)),
  image: yup
    .string()
    .trim()
    .max(limits.urlText, messages.tooLong(limits.urlText))
    .matches(imageUrl, { message: messages.imageUrlInvalid, excludeEmptyString: true })
    .default(''),
  minOrder: yup
    .number()
    .typeError(messages.minOrderRequired)
    .required(messages.minOrderRequired)
    .integer(messages.wholeNumber)
    .min(1, messages.minOrderTooSmall)
    .max(limits.maxQuantity, messages.tooLarge(limits.maxQuantity)),
  available: yup
    .number()
    .typeError(messages.availableRequired)
    .required(messages.availableRequired)
    .integer(messages.wholeNumber)
    .min(0, messages.availableNegative)
    .max(limits.maxQuantity, messages.tooLarge(limits.maxQuantity)),
  description: yup
    .string()
    .trim()
    .required(messages.descriptionRequired)
    .max(limits.longText, messages.tooLong(limits.longText)),
});

export const reviewSchema = yup.object({
  text: yup.string().trim().required(messages.reviewRequired).max(limits.longText, messages.tooLong(limits.longText)),
});

export const contactSchema = yup.object({
  firstName: shortText().required(messages.firstNameRequired),
  lastName: shortText().required(messages.lastNameRequired),
  phone: shortText().default(''),
  email: emailRule(),
  message: yup
    .string()
    .trim()
    .required(messages.messageRequired)
    .max(limits.longText, messages.tooLong(limits.longText)),
});

/** The profile has no rules of its own in the spec; only lengths are bounded. */
export const profileSchema = yup.object({
  name: shortText(),
  avatar: yup.string().trim().max(limits.urlText, messages.tooLong(limits.urlText)),
  phone: shortText(),
  education: shortText(),
  location: shortText(),
  linkedIn: yup.string().trim().max(limits.urlText, messages.tooLong(limits.urlText)),
});

/** Per-field messages: the first failing rule of each field. */
export type FieldErrors = Record<string, string>;

/**
 * Validates and casts `input`. Answers either the cleaned values or the first message of each failing
 * field; the API turns the latter into BAD_USER_INPUT / 400, the forms show them under the fields.
 */
export function check<S extends yup.AnyObjectSchema>(
  schema: S,
  input: unknown,
): { ok: true; value: yup.InferType<S> } | { ok: false; errors: FieldErrors } {
  try {
    const value = schema.validateSync(input, { abortEarly: false, stripUnknown: true }) as yup.InferType<S>;
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
