import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

/** A labelled input; the hint is tied to it with aria-describedby. */
export function Field(props: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const { label, hint, ...input } = props;
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled select. */
export function SelectField(props: { label: string; options: readonly { value: string; label: string }[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { label, options, ...select } = props;
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
