import { Formik, useField, type FormikErrors, type FormikHelpers } from 'formik';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { errorAria, FieldFrame, FormField, ShopForm } from '../../components/form/ShopForm';
import type { CompanyRole } from '../../generated/companies';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { companyRoles, roleLabel } from './roles';

/**
 * Runs a form's mutation: the server's BAD_USER_INPUT messages go under their fields (focus moves to the first),
 * any other refusal (CONFLICT, FORBIDDEN) is toasted. Answers whether it succeeded.
 */
export async function submitted<Values>(helpers: FormikHelpers<Values>, run: () => Promise<unknown>) {
  try {
    await run();
    return true;
  } catch (e) {
    const fields = fieldErrors(e);
    if (Object.keys(fields).length > 0) helpers.setErrors(fields as FormikErrors<Values>);
    else toast.error(errorMessage(e));
    return false;
  }
}

/** The inputs are trimmed before they are sent (the server trims too; this keeps the form's values honest). */
const trimmed = <T extends { [K in keyof T]: string }>(values: T): T =>
  Object.fromEntries(Object.entries<string>(values).map(([k, v]) => [k, v.trim()])) as T;

export interface CompanyValues {
  name: string;
  taxId: string;
}

/** A company's name and tax number: creating one, or changing them. */
export function CompanyForm({
  initial = { name: '', taxId: '' },
  submitLabel,
  idPrefix,
  onSubmit,
}: {
  initial?: CompanyValues;
  submitLabel: string;
  idPrefix: string;
  onSubmit: (values: CompanyValues) => Promise<unknown>;
}) {
  return (
    <Formik<CompanyValues>
      initialValues={initial}
      onSubmit={async (values, helpers) => {
        await submitted(helpers, () => onSubmit(trimmed(values)));
      }}
    >
      {({ isSubmitting }) => (
        <ShopForm idPrefix={idPrefix} className="grid gap-3 sm:grid-cols-2">
          <FormField name="name" label="Company name" autoComplete="organization" />
          <FormField name="taxId" label="Tax number" />
          <BusyButton className="btn btn-primary sm:col-span-2 sm:justify-self-start" busy={isSubmitting}>
            {submitLabel}
          </BusyButton>
        </ShopForm>
      )}
    </Formik>
  );
}

interface AddressValues {
  label: string;
  address: string;
}

/** A new delivery address: its name in the company and the address; the form empties once it is added. */
export function AddressForm({ onSubmit }: { onSubmit: (values: AddressValues) => Promise<unknown> }) {
  return (
    <Formik<AddressValues>
      initialValues={{ label: '', address: '' }}
      onSubmit={async (values, helpers) => {
        if (await submitted(helpers, () => onSubmit(trimmed(values)))) {
          helpers.resetForm();
          toast.success('Address added.');
        }
      }}
    >
      {({ isSubmitting }) => (
        <ShopForm idPrefix="address" className="grid gap-3" aria-label="Add an address">
          <FormField name="label" label="Address name" placeholder="Main workshop" />
          <FormField name="address" label="Address" as="textarea" rows={3} autoComplete="street-address" />
          <BusyButton className="btn btn-outline btn-primary justify-self-start" busy={isSubmitting}>
            Add address
          </BusyButton>
        </ShopForm>
      )}
    </Formik>
  );
}

/** A role chosen in a Formik form, labelled, with its message tied to it. */
function RoleField({ name, label }: { name: string; label: string }) {
  const [field, meta] = useField<CompanyRole>(name);
  const id = `invite-${name}`;
  const error = meta.touched && meta.error ? meta.error : undefined;
  return (
    <FieldFrame id={id} label={label} error={error}>
      <select {...field} id={id} className="select w-full" {...errorAria(id, error)}>
        {companyRoles.map((role) => (
          <option key={role} value={role}>
            {roleLabel[role]}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

interface InviteValues {
  email: string;
  role: CompanyRole;
}

/** Inviting an address with a role; the form empties once the invitation is sent. */
export function InviteForm({ onSubmit }: { onSubmit: (values: InviteValues) => Promise<unknown> }) {
  return (
    <Formik<InviteValues>
      initialValues={{ email: '', role: 'BUYER' }}
      onSubmit={async (values, helpers) => {
        const sent = { email: values.email.trim(), role: values.role };
        if (await submitted(helpers, () => onSubmit(sent))) {
          helpers.resetForm();
          toast.success(`Invitation sent to ${sent.email}.`);
        }
      }}
    >
      {({ isSubmitting }) => (
        <ShopForm idPrefix="invite" className="grid gap-3 sm:grid-cols-[1fr_12rem]" aria-label="Invite a colleague">
          <FormField name="email" label="Email address" type="email" autoComplete="off" inputMode="email" />
          <RoleField name="role" label="Role" />
          <BusyButton className="btn btn-outline btn-primary justify-self-start" busy={isSubmitting}>
            Send invitation
          </BusyButton>
        </ShopForm>
      )}
    </Formik>
  );
}

/** Dollars and cents as a person writes them (250, 99.50, 1,200), or nothing. */
const amountShape = /^(\d{1,3}(,\d{3})*|\d+)(\.\d{1,2})?$|^$/;
export const limitNotAmount =
  'Write the limit in dollars and cents (for example 250 or 99.50), or leave it empty for no limit';

interface LimitValues {
  orderLimit: string;
}

/**
 * A buyer's limit per order in dollars (empty: no limit): their checkouts above it wait for a company admin's
 * approval. The server checks it; its message shows under the field.
 */
export function BuyerLimitForm({
  userId,
  who,
  limit,
  onSubmit,
}: {
  userId: string;
  who: string;
  limit: number | null | undefined;
  onSubmit: (orderLimit: number | null) => Promise<unknown>;
}) {
  return (
    <Formik<LimitValues>
      initialValues={{ orderLimit: limit == null ? '' : limit.toFixed(2) }}
      enableReinitialize
      validate={(values) =>
        amountShape.test(values.orderLimit.trim().replace(/^\$/, '')) ? {} : { orderLimit: limitNotAmount }
      }
      onSubmit={async (values, helpers) => {
        const given = values.orderLimit.trim().replace(/^\$/, '');
        // Its range (a cent at least, at most what one card payment carries) is the server's to say.
        const sent = given === '' ? null : Number(given.replace(/,/g, ''));
        if (await submitted(helpers, () => onSubmit(sent))) {
          toast.success(sent === null ? `${who} has no limit per order now.` : `${who}'s limit per order is saved.`);
        }
      }}
    >
      {({ isSubmitting }) => (
        <ShopForm
          idPrefix={`limit-${userId}`}
          className="flex flex-wrap items-end gap-2"
          aria-label={`Limit per order of ${who}`}
        >
          <div className="w-36">
            <FormField name="orderLimit" label="Limit per order ($)" inputMode="decimal" placeholder="No limit" />
          </div>
          <BusyButton className="btn btn-outline btn-primary btn-sm mb-1" busy={isSubmitting}>
            Save limit
            <span className="sr-only"> of {who}</span>
          </BusyButton>
        </ShopForm>
      )}
    </Formik>
  );
}
