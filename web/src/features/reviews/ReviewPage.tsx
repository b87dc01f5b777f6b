import { formatDollars, reviewSchema } from '@partsyard/common';
import { Formik, type FormikHelpers } from 'formik';
import { useMemo } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useParams } from 'react-router-dom';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { PartNotFound, ShoppingFact, ShoppingPartSummary } from '../../components/ShoppingPartSummary';
import { Spinner } from '../../components/Spinner';
import { useAddReviewMutation, usePartQuery } from '../../generated/graphql';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { useAuth } from '../../lib/auth';
import { BusyButton } from '../../components/BusyButton';

interface ReviewValues {
  name: string;
  email: string;
  text: string;
}

/** Review of a part the customer has paid for (spec "Review page"); the server refuses other parts. */
export default function ReviewPage() {
  const { partId = '' } = useParams();
  const { user } = useAuth();
  const { data, loading, error } = usePartQuery({ variables: { id: partId } });
  const [addReview] = useAddReviewMutation({
    // The home page's reviews show the new one next time they are read.
    update: (cache) => {
      cache.evict({ fieldName: 'reviews' });
      cache.gc();
    },
  });
  const part = data?.part;
  const initialValues = useMemo<ReviewValues>(
    () => ({ name: user?.displayName ?? '', email: user?.email ?? '', text: '' }),
    [user?.displayName, user?.email],
  );

  if (loading && !data) return <Spinner centered />;
  if (!part) return <PartNotFound error={error} backTo="/dashboard/add-review" backLabel="Add Review" />;

  const submit = async (values: ReviewValues, helpers: FormikHelpers<ReviewValues>) => {
    try {
      await addReview({ variables: { input: { partId: part.id, text: values.text.trim() } } });
      toast.success('Thank you for your review!');
      helpers.resetForm();
    } catch (e) {
      const fields = fieldErrors(e);
      if (fields.text) helpers.setErrors({ text: fields.text });
      else toast.error(errorMessage(e));
    }
  };

  return (
    <section className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-[2fr_3fr]">
      <ShoppingPartSummary image={part.image} name={part.name} className="self-start">
        <p className="text-sm text-gray-600">{part.description}</p>
        <ShoppingFact label="Price">{formatDollars(part.price)}</ShoppingFact>
      </ShoppingPartSummary>
      <div className="card self-start bg-base-100 shadow-md">
        <div className="card-body">
          <h1 className="card-title text-2xl">Review this part</h1>
          <Formik<ReviewValues>
            initialValues={initialValues}
            enableReinitialize
            validationSchema={reviewSchema}
            onSubmit={submit}
          >
            {({ isSubmitting }) => (
              <ShopForm className="flex flex-col gap-3">
                <div className="grid gap-3 sm:grid-cols-2">
                  <FormField name="name" label="Name" readOnly />
                  <FormField name="email" label="Email" type="email" readOnly />
                </div>
                <FormField name="text" label="Review" as="textarea" rows={5} placeholder="How did the part do?" />
                <BusyButton className="btn btn-primary mt-2" busy={isSubmitting}>
                  Add Review
                </BusyButton>
              </ShopForm>
            )}
          </Formik>
        </div>
      </div>
    </section>
  );
}
