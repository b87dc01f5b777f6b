import { Form, useField, useFormikContext } from 'formik';
import { createContext, useContext, useEffect, useRef, type FocusEvent, type ReactNode, type RefObject } from 'react';

/** What the fields' ids start with: `field` (`field-email`), or another prefix for a second form on a page. */
const IdPrefix = createContext('field');
import { afterPointerRelease, followPointer } from './pointer';

/** After a submit that found errors (the rules' or the server's), focus goes to the first field in error. */
function FocusFirstInvalid({ form }: { form: RefObject<HTMLFormElement | null> }) {
  const { submitCount, isSubmitting, isValidating } = useFormikContext();
  const handled = useRef(submitCount);
  useEffect(() => {
    if (isSubmitting || isValidating || submitCount === handled.current) return;
    handled.current = submitCount;
    if (submitCount === 0) return; // the form was reset
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
  return null;
}

interface ShopFormProps {
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
  /** Starts the fields' ids (default `field`): a form shown over another (a dialog) needs ids of its own. */
  idPrefix?: string;
}

/**
 * Every form of the shop (inside a Formik): the browser's own validation off (the shared rules speak), focus
 * on the first invalid field after a failed submit, and fields that show their messages as FormField does.
 */
export function ShopForm({ children, className, 'aria-label': label, idPrefix = 'field' }: ShopFormProps) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(followPointer, []);
  return (
    <IdPrefix.Provider value={idPrefix}>
      <Form ref={ref} noValidate className={className} aria-label={label}>
        {children}
        <FocusFirstInvalid form={ref} />
      </Form>
    </IdPrefix.Provider>
  );
}

interface FieldFrameProps {
  id: string;
  label: string;
  /** The message shown under the field, if any. */
  error?: string;
  children: ReactNode;
}

/** The id of a field's message, for its aria-describedby. */
export const errorIdOf = (fieldId: string) => `${fieldId}-error`;

/**
 * A label, the field, and its message: the message sits in a polite live region that is always there (so
 * screen readers announce it when it appears), and the field names it (aria-describedby) while it shows.
 */
export function FieldFrame({ id, label, error, children }: FieldFrameProps) {
  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label pb-1">
        <span className="label-text font-medium text-base-content">{label}</span>
      </label>
      {children}
      <p id={errorIdOf(id)} aria-live="polite" className={error ? 'mt-1 text-sm text-red-600' : 'sr-only'}>
        {error}
      </p>
    </div>
  );
}

/** aria-invalid and aria-describedby of a field showing `error`. */
export const errorAria = (id: string, error: string | undefined) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': errorIdOf(id) } : {};

interface FormFieldProps {
  name: string;
  label: string;
  type?: string;
  readOnly?: boolean;
  placeholder?: string;
  as?: 'textarea';
  rows?: number;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'tel' | 'email' | 'url' | 'text';
}

/**
 * A labelled Formik field with its message (the shared rules' text, or the server's) under it, tied to it
 * (aria-invalid, aria-describedby) and announced. A field left by pressing the pointer elsewhere shows its
 * message only once the pointer is released, so the press's click lands where it was aimed.
 */
export function FormField({
  name,
  label,
  type = 'text',
  readOnly,
  placeholder,
  as,
  rows,
  autoComplete,
  inputMode,
}: FormFieldProps) {
  const [field, meta] = useField(name);
  const id = `${useContext(IdPrefix)}-${name}`;
  const error = meta.touched && meta.error ? meta.error : undefined;
  const common = {
    ...field,
    value: (field.value as string | number | undefined) ?? '',
    id,
    readOnly,
    placeholder,
    autoComplete,
    inputMode,
    ...errorAria(id, error),
    onBlur: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      afterPointerRelease(() => field.onBlur(event)),
  };
  const look = `w-full ${readOnly ? 'bg-base-200' : ''} ${error ? 'border-red-600' : ''}`;
  return (
    <FieldFrame id={id} label={label} error={error}>
      {as === 'textarea' ? (
        <textarea {...common} rows={rows} className={`textarea ${look}`} />
      ) : (
        <input {...common} type={type} className={`input ${look}`} />
      )}
    </FieldFrame>
  );
}
