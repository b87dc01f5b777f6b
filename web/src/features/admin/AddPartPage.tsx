import { partSchema } from '@partsyard/common';
import { Formik, type FormikHelpers } from 'formik';
import { toast } from 'react-hot-toast/headless';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { useAddPartMutation } from '../../generated/graphql';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { BusyButton } from '../../components/BusyButton';
import { useState } from 'react';
import { emptyPricing, pricingErrors, pricingInput, PriceTiersEditor, type PricingDraft } from './PriceTiersEditor';

/** The form's values as typed; number inputs hold '' until something is entered. */
interface PartFormValues {
  name: string;
  price: number | '';
  image: string;
  minOrder: number | '';
  available: number | '';
  description: string;
}

const emptyPart: PartFormValues = { name: '', price: '', image: '', minOrder: '', available: '', description: '' };

/** Adds a part (admin). The shared part rules check the form; the API checks them again. */
export default function AddPartPage() {
  const [addPart] = useAddPartMutation();
  const [pricing, setPricing] = useState<PricingDraft>(emptyPricing);
  const [pricingShown, setPricingShown] = useState<Record<string, string>>({});

  const submit = async (values: PartFormValues, form: FormikHelpers<PartFormValues>) => {
    const input = partSchema.cast(values, { stripUnknown: true });
    const problems = pricingErrors(pricing, input.price, input.minOrder);
    setPricingShown(problems);
    if (Object.keys(problems).length) return;
    try {
      await addPart({
        variables: { input: { ...input, ...pricingInput(pricing) } },
        // Cached part lists (Manage Parts, the catalog, the home page) are dropped, so they load the new part.
        update(cache) {
          cache.evict({ id: 'ROOT_QUERY', fieldName: 'parts' });
          cache.evict({ id: 'ROOT_QUERY', fieldName: 'popularParts' });
          cache.gc();
        },
      });
      toast.success('Part added.');
      form.resetForm();
      setPricing(emptyPricing);
    } catch (e) {
      const fields = fieldErrors(e);
      if (Object.keys(fields).length) form.setErrors(fields);
      setPricingShown(
        Object.fromEntries(Object.entries(fields).filter(([k]) => k.startsWith('priceTiers') || k === 'packSize')),
      );
      toast.error(errorMessage(e));
    }
  };

  return (
    <section className="max-w-2xl">
      <h2 className="mb-4 text-xl font-bold">Add A Part</h2>
      <div className="card bg-base-100 shadow">
        <div className="card-body">
          <Formik initialValues={emptyPart} validationSchema={partSchema} onSubmit={submit}>
            {({ isSubmitting }) => (
              <ShopForm className="grid gap-3 sm:grid-cols-2">
                <div className="sm:col-span-2">
                  <FormField name="name" label="Part Name" />
                </div>
                <FormField name="price" label="Price" type="number" placeholder="Unit price in $" />
                <FormField name="image" label="Part Image URL" placeholder="https://… or /images/…" />
                <FormField name="minOrder" label="Minimum order" type="number" />
                <FormField name="available" label="Available parts" type="number" />
                <div className="sm:col-span-2">
                  <FormField name="description" label="Description" as="textarea" rows={4} />
                </div>
                <div className="sm:col-span-2">
                  <PriceTiersEditor value={pricing} onChange={setPricing} errors={pricingShown} />
                </div>
                <div className="sm:col-span-2">
                  <BusyButton className="btn btn-primary mt-2 w-full sm:w-auto" busy={isSubmitting}>
                    Add part
                  </BusyButton>
                </div>
              </ShopForm>
            )}
          </Formik>
        </div>
      </div>
    </section>
  );
}
