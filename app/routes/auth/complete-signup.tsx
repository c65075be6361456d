import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect } from 'react-router'
import type { Route } from './+types/complete-signup'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { accountTypes, thirdPartySignupInput } from '#server/modules/identity/inputs.ts'
import { clearTicketCookie, readTicket } from '~/lib/oidc-cookies.server'
import { SIGNED_IN_HOME, sessionCookie } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { AccountTypeChoice, AuthForm } from '~/components/auth/fields'
import { AcceptTerms, NameFields } from '~/components/auth/sign-up-fields'
import { identityContract } from '#server/modules/identity/contract.ts'
import { titled } from '~/lib/meta'

// A 429's Retry-After goes out with the page as with the API.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// First sign-in through a provider: choose the kind of account and accept the terms.
export function loader({ request, context }: Route.LoaderArgs) {
  const ticket = readTicket(request)
  if (!ticket) throw redirect('/auth/gotosign')
  return {
    email: ticket.email,
    firstName: ticket.firstName,
    lastName: ticket.lastName,
    title: getInstance(context).t('auth:thirdParty.completeTitle'),
    constraint: getZodConstraint(thirdPartySignupInput),
    kinds: accountTypes,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const ticket = readTicket(request)
  if (!ticket) throw redirect('/auth/gotosign')
  // The page holds the ticket (a cookie) and the language; the person gives the rest.
  const form = await request.formData()
  form.set('ticket', ticket.ticket)
  form.set('language', getLocale(context))
  const submission = parseWithZod(form, { schema: thirdPartySignupInput })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  try {
    const session = await apiFor(context, { token: null }).call(identityContract.registerWithThirdPart, {
      body: submission.value,
    })
    const headers = new Headers({ 'set-cookie': clearTicketCookie() })
    headers.append('set-cookie', sessionCookie(context, request, session.token, session.expiresAt))
    // A first sign-in through a provider lands where every sign-in does.
    return redirect(SIGNED_IN_HOME, { headers })
  } catch (error) {
    return replyWithApiError(submission, error, [
      'accountType',
      'firstName',
      'lastName',
      'companyName',
      'acceptTerms',
    ])
  }
}

export default function CompleteSignup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const reply = actionData
  const constraints = loaderData.constraint
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('thirdParty.completeTitle')}</h1>
      <p className="lead">{t('thirdParty.completeLead', { email: loaderData.email })}</p>
      <AuthForm reply={reply}>
        <AccountTypeChoice kinds={loaderData.kinds} reply={reply} constraints={constraints} />
        <NameFields
          reply={reply}
          constraints={constraints}
          defaults={{ firstName: loaderData.firstName, lastName: loaderData.lastName }}
        />
        <AcceptTerms reply={reply} constraints={constraints} />
        <button type="submit" className="button button-primary">
          {t('signup.submit')}
        </button>
      </AuthForm>
    </main>
  )
}
