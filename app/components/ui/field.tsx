import { useTranslation } from '~/lib/translations'

// A labelled input or textarea showing the field's first error (docs/product.md §5). The errors come from the
// server's conform reply (submission.reply()), so no form library is shipped to the page; the
// limits are also HTML constraints, which the browser checks before sending. Error texts are keys
// of the given namespace; texts that are not keys (the API's own) show as they are.
export interface FieldReply {
  initialValue?: Record<string, unknown> | null
  error?: Record<string, string[] | null> | null
}

export function TextField({
  name,
  label,
  ns,
  reply,
  type = 'text',
  autoComplete,
  multiline = false,
  rows = 6,
  required,
  minLength,
  maxLength,
}: {
  name: string
  label: string
  ns: string
  reply?: FieldReply | null
  type?: 'text' | 'email' | 'date'
  autoComplete?: string
  multiline?: boolean
  rows?: number
  required?: boolean
  minLength?: number
  maxLength?: number
}) {
  const { t } = useTranslation(ns)
  const id = `field-${name}`
  const error = reply?.error?.[name]?.[0]
  const value = reply?.initialValue?.[name]
  const props = {
    id,
    name,
    required,
    minLength,
    maxLength,
    defaultValue: typeof value === 'string' ? value : undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...props} rows={rows} />
      ) : (
        <input {...props} type={type} autoComplete={autoComplete} />
      )}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {t(error, { defaultValue: error })}
        </p>
      ) : null}
    </div>
  )
}
