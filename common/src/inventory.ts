import { maxQuantity } from './messages';
import { controlCharacters, unpairedSurrogate } from './rules';

/**
 * Stock adjustments (issue 33 point 5): an admin changes a part's stock only with a reason, kept in its stock
 * history. The rule is written once here; the API enforces it and the admin's form shows its messages.
 */
export const stockReasons = ['received', 'counted', 'damaged', 'returned', 'other'] as const;
export type StockReason = (typeof stockReasons)[number];

/** What each reason is called where an admin reads it. */
export const stockReasonNames: Record<StockReason, string> = {
  received: 'Received',
  counted: 'Counted',
  damaged: 'Damaged',
  returned: 'Returned',
  other: 'Other',
};

/** The longest note an adjustment keeps. */
export const stockNoteMaxLength = 500;

export const stockMessages = {
  reasonRequired: 'Choose a reason: received, counted, damaged, returned or other',
  countedToRequired: 'Enter how many units you counted (0 or more)',
  countNotChange: 'A count sets the stock: send countedTo, not delta',
  changeNotCount: 'Only a count (reason counted) sets the stock: send delta for this reason',
  deltaRequired: 'Enter by how many units the stock changes',
  receivedPositive: 'Received and returned units are added: the change must be 1 or more',
  damagedNegative: 'Damaged units are taken off: the change must be -1 or less',
  otherNonZero: 'The change must not be 0',
  tooLarge: `Must be ${maxQuantity.toLocaleString('en-US')} units or fewer`,
  noteRequired: 'Say why the stock changed',
  noteTooLong: `Must be ${stockNoteMaxLength} characters or fewer`,
  noteNotText: 'Must be text',
  noteControl: 'Must not contain control characters',
  belowZero: (available: number) =>
    `Only ${available} ${available === 1 ? 'unit is' : 'units are'} in stock now: at most ${available} can be taken off`,
  aboveMax: (available: number) =>
    `The stock would be more than ${maxQuantity.toLocaleString('en-US')} units (${available} now)`,
} as const;

export interface StockAdjustment {
  reason: StockReason;
  /** What to add (above 0) or take off (below 0); every reason but `counted`. */
  delta?: number;
  /** The stock as counted; `counted` only. */
  countedTo?: number;
  note: string;
}

const wholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Checks an adjustment: a known reason; `counted` with `countedTo` (0 or more) and no delta; `received` and
 * `returned` with a delta of 1 or more, `damaged` of -1 or less, `other` with any delta but 0 and a note saying
 * why; at most `maxQuantity` units either way; a note of text. Answers the adjustment, or a message per field.
 * Whether the stock can take it (never below 0) is the server's to say, with the part's row locked.
 */
export function checkStockAdjustment(
  input: unknown,
): { ok: true; value: StockAdjustment } | { ok: false; errors: Record<string, string> } {
  const given = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const errors: Record<string, string> = {};
  const reason = stockReasons.find((r) => r === given.reason);
  if (!reason) errors.reason = stockMessages.reasonRequired;
  const has = (name: string) => given[name] !== undefined && given[name] !== null;

  const rawNote = given.note ?? '';
  let note = '';
  if (typeof rawNote !== 'string') errors.note = stockMessages.noteNotText;
  else {
    note = rawNote.trim();
    if (controlCharacters.test(note) || unpairedSurrogate.test(note)) errors.note = stockMessages.noteControl;
    else if (note.length > stockNoteMaxLength) errors.note = stockMessages.noteTooLong;
    else if (reason === 'other' && !note) errors.note = stockMessages.noteRequired;
  }

  if (reason === 'counted') {
    if (has('delta')) errors.delta = stockMessages.countNotChange;
    const counted = given.countedTo;
    if (!wholeNumber(counted) || counted < 0) errors.countedTo = stockMessages.countedToRequired;
    else if (counted > maxQuantity) errors.countedTo = stockMessages.tooLarge;
  } else if (reason) {
    if (has('countedTo')) errors.countedTo = stockMessages.changeNotCount;
    const delta = given.delta;
    if (!wholeNumber(delta)) errors.delta = stockMessages.deltaRequired;
    else if (Math.abs(delta) > maxQuantity) errors.delta = stockMessages.tooLarge;
    else if ((reason === 'received' || reason === 'returned') && delta < 1)
      errors.delta = stockMessages.receivedPositive;
    else if (reason === 'damaged' && delta > -1) errors.delta = stockMessages.damagedNegative;
    else if (delta === 0) errors.delta = stockMessages.otherNonZero;
  }
  if (Object.keys(errors).length || !reason) return { ok: false, errors };
  return reason === 'counted'
    ? { ok: true, value: { reason, countedTo: given.countedTo as number, note } }
    : { ok: true, value: { reason, delta: given.delta as number, note } };
}
