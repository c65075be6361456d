import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useErrorText } from './notices'

// Form pieces of the signed-in identity screens (account settings), bound to conform's useForm: a
// labelled input showing the field's first error (docs/product.md §5). The public sign-in forms use
// ./fields.tsx instead, which ships no form library (decision 031).
export { FormErrors, Notice, useErrorText } from './notices'

type InputType = 'text' | 'email' | 'password' | 'tel' | 'hidden'

export function Field({
  field,
  label,
  type = 'text',
  hint,
  autoComplete,
  defaultValue,
}: {
  field: FieldMetadata<any>
  label: string
  type?: InputType
  hint?: string
  autoComplete?: string
  defaultValue?: string
}) {
  const errorText = useErrorText()
  const error = field.errors?.[0]
  const hintId = hint ? `${field.id}-hint` : undefined
  const props = getInputProps(field, {
    type,
    ariaDescribedBy: [hintId, error ? field.errorId : undefined].filter(Boolean).join(' ') || undefined,
  })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...props}
        key={props.key}
        autoComplete={autoComplete}
        defaultValue={props.defaultValue ?? defaultValue}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={field.errorId} role="alert">
          {errorText(error)}
        </p>
      ) : null}
    </div>
  )
}

export function Checkbox({ field, children }: { field: FieldMetadata<any>; children: React.ReactNode }) {
  const errorText = useErrorText()
  const error = field.errors?.[0]
  const props = getInputProps(field, { type: 'checkbox' })
  return (
    <div className="field field-checkbox">
      <label>
        <input {...props} key={props.key} /> {children}
      </label>
      {error ? (
        <p className="field-error" id={field.errorId} role="alert">
          {errorText(error)}
        </p>
      ) : null}
    </div>
  )
}
