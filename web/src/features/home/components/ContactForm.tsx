import { contactSchema } from '@partsyard/common';
import { Formik, type FormikHelpers } from 'formik';
import { toast } from 'react-hot-toast/headless';
import { FormField, ShopForm } from '../../../components/form/ShopForm';
import { useSendContactMessageMutation } from '../../../generated/graphql';
import { errorMessage, fieldErrors } from '../../../lib/apollo';
import { BusyButton } from '../../../components/BusyButton';

export const contactSentMessage = 'Thank you! Your message has been sent.';

interface ContactValues {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  message: string;
}

const emptyContact: ContactValues = { firstName: '', lastName: '', phone: '', email: '', message: '' };

/**
 * The contact form: the shared contact rules, sent to the shop with SendContactMessage. A chunk of its own
 * (with the form and validation libraries), loaded as the visitor nears the bottom of the home page.
 */
export default function ContactForm() {
  const [sendMessage] = useSendContactMessageMutation();

  const submit = async (values: ContactValues, { resetForm, setErrors }: FormikHelpers<ContactValues>) => {
    try {
      const input = contactSchema.cast(values, { stripUnknown: true });
      await sendMessage({ variables: { input } });
      toast.success(contactSentMessage);
      resetForm();
    } catch (e) {
      setErrors(fieldErrors(e));
      toast.error(errorMessage(e));
    }
  };

  return (
    <Formik initialValues={emptyContact} validationSchema={contactSchema} onSubmit={submit}>
      {({ isSubmitting }) => (
        <ShopForm aria-label="Contact form" className="grid gap-4 sm:grid-cols-2">
          <FormField name="firstName" label="First Name" autoComplete="given-name" />
          <FormField name="lastName" label="Last Name" autoComplete="family-name" />
          <FormField name="phone" label="Phone" autoComplete="tel" />
          <FormField name="email" label="Email" type="email" autoComplete="email" />
          <div className="sm:col-span-2">
            <FormField name="message" label="Message" as="textarea" rows={4} />
          </div>
          <div className="sm:col-span-2">
            <BusyButton className="btn btn-primary w-full sm:w-auto" busy={isSubmitting}>
              Send Message
            </BusyButton>
          </div>
        </ShopForm>
      )}
    </Formik>
  );
}
