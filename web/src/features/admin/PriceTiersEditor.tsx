import { checkPackSize, checkPriceTiers, dollarsToCents } from '@partsyard/common';
import { useId } from 'react';
import { errorAria, FieldFrame } from '../../components/form/ShopForm';

/** Quantity breaks as typed: text until sent. */
export interface TierDraft {
  minUnits: string;
  price: string;
}

export interface PricingDraft {
  tiers: TierDraft[];
  packSize: string;
}

export const emptyPricing: PricingDraft = { tiers: [], packSize: '1' };

const numberOrText = (text: string): number | string => (text.trim() === '' ? '' : Number(text));

/** The draft as the API takes it: `priceTiers` in dollars and a pack size. */
export const pricingInput = (draft: PricingDraft) => ({
  priceTiers: draft.tiers.map((t) => ({ minUnits: Number(t.minUnits), price: Number(t.price) })),
  packSize: draft.packSize.trim() === '' ? 1 : Number(draft.packSize),
});

/**
 * The shared rules (common/pricing.ts) on a draft, for a part at `price` dollars with minimum order `minOrder`:
 * messages keyed as the API keys them (`priceTiers.0.price`, `packSize`); empty when it may be sent.
 */
export function pricingErrors(draft: PricingDraft, price: number, minOrder: number): Record<string, string> {
  const tiers = checkPriceTiers(
    draft.tiers.map((t) => ({ minUnits: numberOrText(t.minUnits), price: numberOrText(t.price) })),
    {
      priceCents: Number.isFinite(price) ? dollarsToCents(price) : 0,
      minOrder: Number.isFinite(minOrder) ? minOrder : 1,
    },
  );
  const pack = checkPackSize(numberOrText(draft.packSize || '1'));
  return { ...(tiers.ok ? {} : tiers.errors), ...(pack.ok ? {} : { packSize: pack.error }) };
}

/** Editing a part's quantity breaks (from N units: unit price P) and its pack size, with the rules' messages. */
export function PriceTiersEditor({
  value,
  onChange,
  errors,
}: {
  value: PricingDraft;
  onChange: (next: PricingDraft) => void;
  errors: Record<string, string>;
}) {
  const id = useId();
  const setTier = (i: number, patch: Partial<TierDraft>) =>
    onChange({ ...value, tiers: value.tiers.map((t, k) => (k === i ? { ...t, ...patch } : t)) });
  const field = (name: string, label: string, text: string, set: (v: string) => void, placeholder?: string) => {
    const fieldId = `${id}-${name}`;
    return (
      <FieldFrame id={fieldId} label={label} error={errors[name]}>
        <input
          id={fieldId}
          type="number"
          className={`input input-sm w-full ${errors[name] ? 'input-error' : ''}`}
          value={text}
          placeholder={placeholder}
          {...errorAria(fieldId, errors[name])}
          onChange={(e) => set(e.target.value)}
        />
      </FieldFrame>
    );
  };
  return (
    <fieldset className="flex flex-col gap-3 rounded-box border border-base-300 p-3">
      <legend className="px-1 font-semibold">Quantity breaks and packs</legend>
      <p aria-live="polite" className={errors.priceTiers ? 'text-sm text-red-700' : 'sr-only'}>
        {errors.priceTiers}
      </p>
      {value.tiers.length === 0 && (
        <p className="text-sm text-gray-700">No quantity breaks: one price for any amount.</p>
      )}
      {value.tiers.map((tier, i) => (
        <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2" data-testid="tier-row">
          {field(`priceTiers.${i}.minUnits`, `Break ${i + 1}: from units`, tier.minUnits, (v) =>
            setTier(i, { minUnits: v }),
          )}
          {field(`priceTiers.${i}.price`, 'Unit price ($)', tier.price, (v) => setTier(i, { price: v }))}
          <button
            type="button"
            className="btn btn-ghost btn-sm mt-6"
            onClick={() => onChange({ ...value, tiers: value.tiers.filter((_, k) => k !== i) })}
          >
            Remove<span className="sr-only"> break {i + 1}</span>
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-outline btn-sm self-start"
        onClick={() => onChange({ ...value, tiers: [...value.tiers, { minUnits: '', price: '' }] })}
      >
        Add a quantity break
      </button>
      {field('packSize', 'Sold in packs of', value.packSize, (v) => onChange({ ...value, packSize: v }), '1')}
    </fieldset>
  );
}
