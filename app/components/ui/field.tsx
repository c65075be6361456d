import { getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'

// A labelled input or textarea showing the field's first error (SPEC §5). Error texts are keys of
// the given namespace; texts that are not keys (the API's own) show as they are. The limits are
// also given as HTML constraints, so the browser checks them before sending, without any library.
export function TextField({ field, label, ns, type = 'text', autoComplete, multiline = false, rows = 6, required, minLength, maxLength }: { field: FieldMetadata<any>; label: string; ns: string; type?: 'text' | 'email'; autoComplete?: string; multiline?: boolean; rows?: number; required?: boolean; minLength?: number; maxLength?: number }) {
  const { t } = useTranslation(ns)
  const error = field.errors?.[0]
  const describedBy = error ? field.errorId : undefined
  const props = multiline ? getTextareaProps(field, { ariaDescribedBy: describedBy }) : getInputProps(field, { type, ariaDescribedBy: describedBy })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {multiline ? (
        <textarea {...props} key={props.key} rows={rows} required={required} minLength={minLength} maxLength={maxLength} />
      ) : (
        <input {...props} key={props.key} autoComplete={autoComplete} required={required} minLength={minLength} maxLength={maxLength} />
      )}
      {error ? (
        <p className="field-error" id={field.errorId}>
          {t(error, { defaultValue: error })}
        </p>
      ) : null}
    </div>
  )
}
