import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

// Form primitives: a label above, the control, and the field's error below, wired for screen readers.

interface FieldProps {
  label: string;
  error?: string[] | string;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const message = Array.isArray(error) ? error[0] : error;
  const describedBy = [message ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${message ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children({ id, 'aria-invalid': message ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {message && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

type Errors = Record<string, string[]> | undefined;

export function TextField({ label, name, errors, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; errors?: Errors; hint?: string }) {
  return (
    <Field label={label} error={errors?.[name]} hint={hint}>
      {(a11y) => <input name={name} className="input" {...a11y} {...input} />}
    </Field>
  );
}

export function TextAreaField({ label, name, errors, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; name: string; errors?: Errors }) {
  return (
    <Field label={label} error={errors?.[name]}>
      {(a11y) => <textarea name={name} className="input input--area" {...a11y} {...area} />}
    </Field>
  );
}

export function SelectField({
  label,
  name,
  errors,
  options,
  placeholder,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; name: string; errors?: Errors; options: { value: string; label: string }[]; placeholder?: string }) {
  return (
    <Field label={label} error={errors?.[name]}>
      {(a11y) => (
        <select name={name} className="input" {...a11y} {...select}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Checkbox({ label, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode }) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}

/** The form-level error (the server's message), shown above the submit button. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

/** Reads a form's fields as strings (unchecked checkboxes are absent). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === 'string') values[key] = value;
  });
  return values;
}
