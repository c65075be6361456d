import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { AuthCheckbox, AuthField, type AuthReply, type Constraints } from './fields'

// What both ways of signing up ask (with a password, or after a third-party provider's sign-in).

/** Who signs up: first and last name (a provider's, when it gave them), and the company (optional). */
export function NameFields({
  reply,
  constraints,
  defaults = {},
}: {
  reply: AuthReply
  constraints: Constraints
  defaults?: { firstName?: string; lastName?: string }
}) {
  const { t } = useTranslation('auth')
  return (
    <>
      <AuthField
        name="firstName"
        reply={reply}
        constraints={constraints}
        defaultValue={defaults.firstName}
        label={t('fields.firstName')}
        autoComplete="given-name"
      />
      <AuthField
        name="lastName"
        reply={reply}
        constraints={constraints}
        defaultValue={defaults.lastName}
        label={t('fields.lastName')}
        autoComplete="family-name"
      />
      <AuthField
        name="companyName"
        reply={reply}
        constraints={constraints}
        label={t('fields.companyName')}
        hint={t('signup.companyHint')}
        autoComplete="organization"
      />
    </>
  )
}

/** Agreeing to the terms, which open in a new tab so the form keeps what was typed. */
export function AcceptTerms({ reply, constraints }: { reply: AuthReply; constraints: Constraints }) {
  const { t } = useTranslation('auth')
  return (
    <AuthCheckbox name="acceptTerms" reply={reply} constraints={constraints}>
      {t('signup.acceptTerms')}{' '}
      <Link to="/auth/terms-and-conditions" target="_blank">
        {t('signup.termsLink')}
      </Link>
    </AuthCheckbox>
  )
}
