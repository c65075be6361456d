import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'

// Form pieces of the identity screens: a labelled input showing the field's first error (SPEC §5),
// and the form-level message. Error texts are keys of the auth namespace; unknown texts show as they are.
export function useErrorText() {
  const { t } = useTranslation('auth')
  return (key: string | undefined) => (key ? t(key, { defaultValue: key }) : undefined)
}

type InputType = 'text' | 'email' | 'password' | 'tel' | 'hidden'

export function Field({ field, label, type = 'text', hint, autoComplete, defaultValue }: { field: FieldMetadata<any>; label: string; type?: InputType; hint?: string; autoComplete?: string; defaultValue?: string }) {
  const errorText = useErrorText()
  const error = field.errors?.[0]
  const hintId = hint ? `${field.id}-hint` : undefined
  const props = getInputProps(field, { type, ariaDescribedBy: [hintId, error ? field.errorId : undefined].filter(Boolean).join(' ') || undefined })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...props} key={props.key} autoComplete={autoComplete} defaultValue={props.defaultValue ?? defaultValue} />
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

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const errorText = useErrorText()
  if (!errors?.length) return null
  return (
    <div className="notice notice-error" role="alert" id={id}>
      {errors.map((e) => (
        <p key={e}>{errorText(e)}</p>
      ))}
    </div>
  )
}

export function Notice({ kind = 'success', title, children }: { kind?: 'success' | 'error' | 'info'; title?: string; children: React.ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title ? <h2>{title}</h2> : null}
      <p className="pre-line">{children}</p>
    </div>
  )
}
