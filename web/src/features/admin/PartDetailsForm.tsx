import { partEditSchema, partNumberProblem } from '@partsyard/common';
import { Formik, useField, type FormikHelpers } from 'formik';
import { useMemo, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { errorAria, FieldFrame, FormField, ShopForm } from '../../components/form/ShopForm';
import {
  useUpdatePartMutation,
  type EditableBrandsQuery,
  type EditableCategoriesQuery,
  type EditablePartFragment,
} from '../../generated/partEditing';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { PartNumbersEditor, type NumberDraft } from './PartNumbersEditor';
import { pricingErrors, pricingInput, PriceTiersEditor, type PricingDraft } from './PriceTiersEditor';

/** The form's values as typed; number inputs hold '' until something is entered. */
interface DetailsValues {
  name: string;
  description: string;
  image: string;
  price: number | '';
  minOrder: number | '';
  sku: string;
  brandId: string;
  categoryId: string;
  universal: boolean;
  replacedBySku: string;
}

const valuesOf = (part: EditablePartFragment): DetailsValues => ({
  name: part.name,
  description: part.description,
  image: part.image,
  price: part.price,
  minOrder: part.minOrder,
  sku: part.sku,
  brandId: part.brand?.id ?? '',
  categoryId: part.category?.id ?? '',
  universal: part.universal,
  replacedBySku: part.replacedBy?.sku ?? '',
});

const pricingOf = (part: EditablePartFragment): PricingDraft => ({
  tiers: part.priceTiers.map((t) => ({ minUnits: String(t.minUnits), price: String(t.price) })),
  packSize: String(part.packSize),
});

const numbersOf = (part: EditablePartFragment): NumberDraft[] =>
  part.numbers.map((n) => ({ kind: n.kind, raw: n.raw, brandId: n.brand?.id ?? '' }));

/** The messages of `errors` whose field starts with one of `prefixes`. */
const only = (errors: Record<string, string>, ...prefixes: string[]) =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => prefixes.some((p) => field.startsWith(p))));

/** A labelled select bound to a Formik field, its message tied to it as FormField's are. */
function SelectField({
  name,
  label,
  options,
  none,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  none: string;
}) {
  const [field, meta] = useField<string>(name);
  const id = `part-${name}`;
  const error = meta.touched ? meta.error : undefined;
  return (
    <FieldFrame id={id} label={label} error={error}>
      <select {...field} id={id} className={`select w-full ${error ? 'border-red-600' : ''}`} {...errorAria(id, error)}>
        <option value="">{none}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** Each category named with the categories above it (Brakes › Brake pads), in that order. */
function categoryOptions(categories: EditableCategoriesQuery['categories']) {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const pathOf = (id: string): string[] => {
    const names: string[] = [];
    for (let c = byId.get(id), steps = 0; c && steps < 20; c = c.parent ? byId.get(c.parent.id) : undefined, steps++) {
      names.unshift(c.name);
    }
    return names;
  };
  return categories
    .map((c) => ({ value: c.id, label: pathOf(c.id).join(' › ') }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * A part's own fields, its brand, category, numbers, replacement and pricing, saved together (updatePart): the
 * shared part rules check the form, the API checks them all again and names each field it refuses.
 */
export function PartDetailsForm({
  part,
  brands,
  categories,
}: {
  part: EditablePartFragment;
  brands: EditableBrandsQuery['brands'];
  categories: EditableCategoriesQuery['categories'];
}) {
  const [updatePart] = useUpdatePartMutation();
  const [pricing, setPricing] = useState<PricingDraft>(() => pricingOf(part));
  const [numbers, setNumbers] = useState<NumberDraft[]>(() => numbersOf(part));
  const [shown, setShown] = useState<Record<string, string>>({});
  // The form starts again only when the fields it shows change (a save), not when the part's stock does (an
  // adjustment below, or an order): what the admin is typing stays.
  const shownKey = JSON.stringify(valuesOf(part));
  const initialValues = useMemo(() => JSON.parse(shownKey) as DetailsValues, [shownKey]);
  const brandOptions = useMemo(() => brands.map((b) => ({ value: b.id, label: b.name })), [brands]);
  const categoryChoices = useMemo(() => categoryOptions(categories), [categories]);

  const submit = async (values: DetailsValues, form: FormikHelpers<DetailsValues>) => {
    const own = partEditSchema.cast(values, { stripUnknown: true });
    const problems = {
      ...pricingErrors(pricing, own.price, own.minOrder),
      ...Object.fromEntries(
        numbers.flatMap((n, i) => {
          const problem = partNumberProblem(n.raw);
          return problem ? [[`numbers.${i}.raw`, problem]] : [];
        }),
      ),
    };
    setShown(problems);
    if (Object.keys(problems).length) return;
    try {
      const { data } = await updatePart({
        variables: {
          id: part.id,
          patch: {
            ...own,
            ...pricingInput(pricing),
            sku: values.sku,
            brandId: values.brandId || null,
            categoryId: values.categoryId || null,
            universal: values.universal,
            replacedBySku: values.replacedBySku.trim(),
            numbers: numbers.map((n) => ({ kind: n.kind, raw: n.raw, brandId: n.brandId || null })),
          },
        },
      });
      toast.success('Part saved.');
      if (data) {
        form.resetForm({ values: valuesOf(data.updatePart) });
        setPricing(pricingOf(data.updatePart));
        setNumbers(numbersOf(data.updatePart));
      }
    } catch (e) {
      const fields = fieldErrors(e);
      form.setErrors(fields);
      // Formik shows a field's message once it is touched: every field the server named is.
      void form.setTouched(Object.fromEntries(Object.keys(fields).map((f) => [f, true])), false);
      setShown(only(fields, 'priceTiers', 'packSize', 'numbers'));
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="card bg-base-100 shadow">
      <div className="card-body">
        <h3 className="card-title">Details</h3>
        <Formik initialValues={initialValues} validationSchema={partEditSchema} onSubmit={submit} enableReinitialize>
          {({ isSubmitting, values, setFieldValue }) => (
            <ShopForm className="grid gap-3 sm:grid-cols-2" idPrefix="part" aria-label="Details">
              <div className="sm:col-span-2">
                <FormField name="name" label="Part Name" />
              </div>
              <FormField name="price" label="Price" type="number" placeholder="Unit price in $" />
              <FormField name="minOrder" label="Minimum order" type="number" />
              <FormField name="sku" label="SKU" />
              <FormField name="image" label="Part Image URL" placeholder="https://… or /images/…" />
              <SelectField name="brandId" label="Brand" options={brandOptions} none="No brand" />
              <SelectField name="categoryId" label="Category" options={categoryChoices} none="No category" />
              <FormField name="replacedBySku" label="Replaced by (SKU)" placeholder="Empty while it is current" />
              <div className="form-control justify-end">
                <label className="label cursor-pointer justify-start gap-3 py-3">
                  <input
                    type="checkbox"
                    className="checkbox"
                    checked={values.universal}
                    onChange={(e) => void setFieldValue('universal', e.target.checked)}
                  />
                  <span className="label-text">Universal: fits any bike</span>
                </label>
              </div>
              <div className="sm:col-span-2">
                <FormField name="description" label="Description" as="textarea" rows={4} />
              </div>
              <div className="sm:col-span-2">
                <PartNumbersEditor value={numbers} onChange={setNumbers} brands={brands} errors={shown} />
              </div>
              <div className="sm:col-span-2">
                <PriceTiersEditor value={pricing} onChange={setPricing} errors={shown} />
              </div>
              <div className="sm:col-span-2">
                <BusyButton className="btn btn-primary mt-2 w-full sm:w-auto" busy={isSubmitting}>
                  Save changes
                </BusyButton>
              </div>
            </ShopForm>
          )}
        </Formik>
      </div>
    </div>
  );
}
