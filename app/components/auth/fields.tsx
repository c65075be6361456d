import { Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { formErrors, useReplyKey } from '~/components/ui/reply-form'
import type { FieldReply } from '~/components/ui/field'
import { FormErrors, useErrorText } from './notices'

// The public sign-in forms (login, sign-up, forgot and reset password, verification, completing a
// provider sign-up) rendered from the action's conform reply, with no form library in the browser
// (decision 031). The limits are the zod schema's, given by the loader (getZodConstraint) and
// written as HTML attributes; the server validates every post and its reply puts the first error
// under each field, so the forms behave the same with JavaScript on and off.
export interface FieldConstraint {
  required?: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
}
export type Constraints = Record<string, FieldConstraint | undefined>

/** What the action answered: conform's reply (`submission.reply()`), with or without an error. */
export type AuthReply = FieldReply | null | undefined

const fieldId = (name: string) => `auth-${name}`
const errorOf = (reply: AuthReply, name: string) => reply?.error?.[name]?.[0]
const valueOf = (reply: AuthReply, name: string) => reply?.initialValue?.[name]

/**
 * A public sign-in form, posted to its page's action. Each new reply remounts it (decision 317), so its
 * inputs take the values the reply kept; the reply's form-level messages stand on top.
 */
export function AuthForm({ reply, children }: { reply: AuthReply; children: React.ReactNode }) {
  const formKey = useReplyKey(reply)
  return (
    <Form method="post" noValidate key={formKey} className="form-stack">
      <FormErrors errors={formErrors(reply)} id="auth-form-error" />
      {children}
    </Form>
  )
}

/** A field's first error, translated when it is a key of the auth namespace. */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  const errorText = useErrorText()
  if (!error) return null
  return (
    <p className="field-error" id={id} role="alert">
      {errorText(error)}
    </p>
  )
}

type InputType = 'text' | 'email' | 'password' | 'tel'

export function AuthField({
  name,
  label,
  reply,
  constraints,
  type = 'text',
  hint,
  autoComplete,
  defaultValue,
  autoFocus,
}: {
  name: string
  label: string
  reply: AuthReply
  constraints: Constraints
  type?: InputType
  hint?: string
  autoComplete?: string
  defaultValue?: string
  /** The page is this one field's (sign-in): the cursor starts in it, with JavaScript or without. */
  autoFocus?: boolean
}) {
  const id = fieldId(name)
  const error = errorOf(reply, name)
  const value = valueOf(reply, name)
  const c = constraints[name] ?? {}
  const describedBy =
    [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        required={c.required}
        minLength={c.minLength}
        maxLength={c.maxLength}
        pattern={c.pattern}
        defaultValue={typeof value === 'string' ? value : defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}

export function AuthCheckbox({
  name,
  reply,
  constraints,
  children,
}: {
  name: string
  reply: AuthReply
  constraints: Constraints
  children: React.ReactNode
}) {
  const id = fieldId(name)
  const error = errorOf(reply, name)
  const checked = valueOf(reply, name)
  return (
    <div className="field field-checkbox">
      <label>
        <input
          id={id}
          name={name}
          type="checkbox"
          value="on"
          required={constraints[name]?.required}
          defaultChecked={checked === 'on' || checked === true}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />{' '}
        {children}
      </label>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}

/** The kind of account (client, company, freelancer) as radio buttons, with optional hints. */
export function AccountTypeChoice({
  kinds,
  reply,
  constraints,
  withHints = false,
  defaultKind = 'client',
}: {
  kinds: readonly string[]
  reply: AuthReply
  constraints: Constraints
  withHints?: boolean
  defaultKind?: string
}) {
  const { t } = useTranslation('auth')
  const error = errorOf(reply, 'accountType')
  const chosen = valueOf(reply, 'accountType')
  const selected = typeof chosen === 'string' ? chosen : defaultKind
  return (
    <fieldset className="field" aria-describedby={error ? 'auth-accountType-error' : undefined}>
      <legend>{t('signup.kind')}</legend>
      {kinds.map((kind) => (
        <label key={kind} className="choice">
          <input
            type="radio"
            name="accountType"
            value={kind}
            required={constraints.accountType?.required}
            defaultChecked={selected === kind}
          />{' '}
          <strong>{t(`kinds.${kind}`)}</strong>
          {withHints ? (
            <>
              {' '}
              <span className="muted">{t(`kinds.${kind}Hint`)}</span>
            </>
          ) : null}
        </label>
      ))}
      <FieldError id="auth-accountType-error" error={error} />
    </fieldset>
  )
}

/**
 * The third-party providers offered under a sign-in or sign-up form. Each is a link, not a form: the
 * browser leaves for the provider, which a form's CSP (form-action 'self') would block.
 */
export function ThirdPartyLinks({
  providers,
  purpose,
  redirectTo,
}: {
  providers: Array<{ id: string; name: string }>
  purpose: 'signIn' | 'signUp'
  /** Where a sign-in returns afterwards. */
  redirectTo?: string
}) {
  const { t } = useTranslation('auth')
  if (!providers.length) return null
  const query = redirectTo === undefined ? '' : `?redirectTo=${encodeURIComponent(redirectTo)}`
  return (
    <div className="third-party">
      <p>{t('thirdParty.or')}</p>
      {providers.map((p) => (
        <a key={p.id} className="button" href={`/auth/oidc/${p.id}${query}`} data-provider={p.id}>
          {purpose === 'signUp'
            ? t('thirdParty.signUpWith', { name: p.name })
            : t('thirdParty.continueWith', { name: p.name })}
        </a>
      ))}
    </div>
  )
}
