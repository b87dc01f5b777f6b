import type { TestCard } from './paymentGateway';

/** Stripe's test card numbers that succeed. */
const succeeding = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '6200000000000005',
]);

/** Stripe's test card numbers that fail, with the message Stripe gives. */
const failing = new Map([
  ['4000000000000002', 'Your card was declined.'],
  ['4000000000009995', 'Your card has insufficient funds.'],
  ['4000000000009987', 'Your card was declined.'],
  ['4000000000009979', 'Your card was declined.'],
  ['4000000000000069', 'Your card has expired.'],
  ['4000000000000127', "Your card's security code is incorrect."],
  ['4000000000000119', 'An error occurred while processing your card. Try again in a little bit.'],
]);

export const notATestCard =
  'Your card was declined. This shop is in test mode and takes only test cards, such as 4242 4242 4242 4242.';

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What Stripe would answer for this card in test mode: null when the charge succeeds, else its message.
 * `now` decides whether the expiry date has passed.
 */
export function testCardDecision(card: TestCard, now = new Date()): string | null {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return 'Your card number is invalid.';
  const month = Number(card.expMonth);
  const year = Number(card.expYear) < 100 ? 2000 + Number(card.expYear) : Number(card.expYear);
  if (!Number.isInteger(month) || month < 1 || month > 12) return "Your card's expiration month is invalid.";
  if (!Number.isInteger(year) || year > now.getUTCFullYear() + 50) return "Your card's expiration year is invalid.";
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    return "Your card's expiration date is in the past.";
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return "Your card's security code is incomplete.";
  if (failing.has(digits)) return failing.get(digits) ?? null;
  if (succeeding.has(digits)) return null;
  return notATestCard;
}
