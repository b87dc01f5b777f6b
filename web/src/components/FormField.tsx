import { ErrorMessage, Field } from 'formik';

interface FormFieldProps {
  name: string;
  label: string;
  type?: string;
  readOnly?: boolean;
  placeholder?: string;
  as?: 'textarea';
  rows?: number;
  autoComplete?: string;
}

/** A labelled Formik field with its message (the shared rules' text) under it. */
export function FormField({
  name,
  label,
  type = 'text',
  readOnly,
  placeholder,
  as,
  rows,
  autoComplete,
}: FormFieldProps) {
  const id = `field-${name}`;
  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label pb-1">
        <span className="label-text font-medium">{label}</span>
      </label>
      <Field
        id={id}
        name={name}
        type={type}
        as={as}
        rows={rows}
        readOnly={readOnly}
        placeholder={placeholder}
        autoComplete={autoComplete}
        className={`${as === 'textarea' ? 'textarea' : 'input'} w-full ${readOnly ? 'bg-base-200' : ''}`}
      />
      <ErrorMessage name={name}>{(message) => <p className="mt-1 text-sm text-red-600">{message}</p>}</ErrorMessage>
    </div>
  );
}
