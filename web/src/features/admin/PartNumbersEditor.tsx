import { useId } from 'react';
import { errorAria, FieldFrame } from '../../components/form/ShopForm';
import type { EditableBrandsQuery, PartNumberKind } from '../../generated/partEditing';

/** A number as typed: its kind, the number, its brand ('' for none). */
export interface NumberDraft {
  kind: PartNumberKind;
  raw: string;
  brandId: string;
}

const kinds: { value: PartNumberKind; label: string }[] = [
  { value: 'MANUFACTURER', label: 'Manufacturer' },
  { value: 'OEM', label: 'OEM' },
  { value: 'INTERCHANGE', label: 'Interchange' },
  { value: 'EAN', label: 'EAN' },
];

/** The most numbers a part carries besides its SKU (the API refuses more). */
const maxNumbers = 50;

/**
 * A part's numbers besides its SKU (manufacturer, OEM, interchange, EAN), each with its brand: added, changed and
 * removed here, saved with the part as a whole set. Messages are keyed as the API keys them (`numbers.1.raw`).
 */
export function PartNumbersEditor({
  value,
  onChange,
  brands,
  errors,
}: {
  value: NumberDraft[];
  onChange: (next: NumberDraft[]) => void;
  brands: EditableBrandsQuery['brands'];
  errors: Record<string, string>;
}) {
  const id = useId();
  const set = (i: number, patch: Partial<NumberDraft>) =>
    onChange(value.map((n, k) => (k === i ? { ...n, ...patch } : n)));
  return (
    <fieldset className="flex flex-col gap-3 rounded-box border border-base-300 p-3">
      <legend className="px-1 font-semibold">Part numbers</legend>
      <p aria-live="polite" className={errors.numbers ? 'text-sm text-red-700' : 'sr-only'}>
        {errors.numbers}
      </p>
      {value.length === 0 && <p className="text-sm text-gray-700">No numbers besides the SKU.</p>}
      {value.map((number, i) => {
        const at = `numbers.${i}`;
        const kindId = `${id}-${i}-kind`;
        const rawId = `${id}-${i}-raw`;
        const brandId = `${id}-${i}-brand`;
        return (
          <div
            key={i}
            className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[9rem_1fr_10rem_auto]"
            data-testid="number-row"
          >
            <FieldFrame id={kindId} label={`Number ${i + 1}: kind`} error={errors[`${at}.kind`]}>
              <select
                id={kindId}
                className="select select-sm w-full"
                value={number.kind}
                {...errorAria(kindId, errors[`${at}.kind`])}
                onChange={(e) => set(i, { kind: e.target.value as PartNumberKind })}
              >
                {kinds.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            </FieldFrame>
            <FieldFrame id={rawId} label={`Number ${i + 1}`} error={errors[`${at}.raw`]}>
              <input
                id={rawId}
                className={`input input-sm w-full font-mono ${errors[`${at}.raw`] ? 'input-error' : ''}`}
                value={number.raw}
                {...errorAria(rawId, errors[`${at}.raw`])}
                onChange={(e) => set(i, { raw: e.target.value })}
              />
            </FieldFrame>
            <FieldFrame id={brandId} label={`Number ${i + 1}: brand`} error={errors[`${at}.brandId`]}>
              <select
                id={brandId}
                className="select select-sm w-full"
                value={number.brandId}
                {...errorAria(brandId, errors[`${at}.brandId`])}
                onChange={(e) => set(i, { brandId: e.target.value })}
              >
                <option value="">No brand</option>
                {brands.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </FieldFrame>
            <button
              type="button"
              className="btn btn-ghost btn-sm sm:mt-7"
              onClick={() => onChange(value.filter((_, k) => k !== i))}
            >
              Remove<span className="sr-only"> number {i + 1}</span>
            </button>
          </div>
        );
      })}
      {value.length < maxNumbers && (
        <button
          type="button"
          className="btn btn-outline btn-sm self-start"
          onClick={() => onChange([...value, { kind: 'OEM', raw: '', brandId: '' }])}
        >
          Add a number
        </button>
      )}
    </fieldset>
  );
}
