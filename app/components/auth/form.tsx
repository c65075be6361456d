import { Form } from 'react-router'
import { inputProps, type ReplyFieldMeta, type useReplyForm } from '~/components/ui/reply-form'
import { FormErrors, useErrorText } from './notices'

// Form pieces of the signed-in identity screens (account settings, two-factor sign-in): a labelled
// input showing the field's first error (docs/product.md §5), rendered from the action's conform
// reply through ~/components/ui/reply-form, with no form library in the browser (decisions 031, 316).
export { FormErrors, Notice, useErrorText } from './notices'

type InputType = 'text' | 'email' | 'password' | 'tel'

export function Field({
  field,
  label,
  type = 'text',
  hint,
  autoComplete,
}: {
  field: ReplyFieldMeta
  label: string
  type?: InputType
  hint?: string
  autoComplete?: string
}) {
  const errorText = useErrorText()
  const hintId = hint ? `${field.id}-hint` : undefined
  const describedBy = [hintId, field.error ? field.errorId : undefined].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...inputProps(field)}
        type={type}
        autoComplete={autoComplete}
        aria-describedby={describedBy || undefined}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {field.error ? (
        <p className="field-error" id={field.errorId} role="alert">
          {errorText(field.error)}
        </p>
      ) : null}
    </div>
  )
}

/** The account's current password, asked before a change that needs it. */
export function CurrentPassword({ field, label }: { field: ReplyFieldMeta; label: string }) {
  return <Field field={field} label={label} type="password" autoComplete="current-password" />
}

/**
 * A POST form rendered from a reply (useReplyForm): keyed on the reply so its inputs take the values
 * it kept, its first wrong field focused, its intent a hidden field and its form-level messages on top.
 */
export function ReplyPostForm({
  form,
  id,
  intent,
  children,
}: {
  form: ReturnType<typeof useReplyForm>
  id: string
  intent?: string
  children: React.ReactNode
}) {
  return (
    <Form method="post" id={id} ref={form.ref} key={form.key} noValidate className="form-stack">
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <FormErrors errors={form.errors} id={`${id}-form-error`} />
      {children}
    </Form>
  )
}
