import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/offer'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import type { FieldReply } from '~/components/ui/field'
import { controlProps, replyFields, useReplyForm } from '~/components/ui/reply-form'
import { declineInput, offersContract as c } from '#server/modules/projects/offers/contract.ts'
import { ErrorText } from '~/components/projects/error-text'
import { ContractLink, OfferTerms, wordOffer } from './offer-terms'
import { wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'

// /offers/:offerId: one direct offer (decision 342) for its two parties. The freelancer accepts
// (the contract starts and they go to it) or declines with a reason; the client withdraws while it
// waits. Plain forms, so every answer works without JavaScript.

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  try {
    const offer = await apiFor(context).call(c.show, { params: { offerId: Number(params.offerId) } })
    const notice = ['sent', 'declined', 'withdrawn'].find((k) => url.searchParams.get(k) === '1') ?? null
    const words = wordsFor(getLocale(context))
    wordOffer(words, offer, true)
    return {
      offer,
      words: words.words,
      side: offer.freelancer.id === user.id ? 'freelancer' : 'client',
      notice,
      title: offer.title,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  requireUser(context, url)
  const offerId = Number(params.offerId)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const api = apiFor(context)
  try {
    if (intent === 'accept') {
      const offer = await api.call(c.accept, { params: { offerId } })
      return redirect(`/projects/freelancer/contract/${offer.projectId}?accepted=1`)
    }
    if (intent === 'withdraw') {
      await api.call(c.withdraw, { params: { offerId } })
      return redirect(`/offers/${offerId}?withdrawn=1`)
    }
    const submission = parseWithZod(form, { schema: declineInput })
    if (submission.status !== 'success') return data({ decline: submission.reply() }, { status: 400 })
    await api.call(c.decline, { params: { offerId }, body: submission.value })
    return redirect(`/offers/${offerId}?declined=1`)
  } catch (error) {
    // Answered, withdrawn or expired meanwhile: the page says so in the reader's words.
    if (error instanceof ApiCallError && error.status === 409)
      return data(
        { notice: error.code === 'offer_expired' ? 'offers.expired' : 'offers.closed' },
        { status: 409 },
      )
    throwApiError(error)
  }
}

type ActionData = { decline?: FieldReply; notice?: string }

export default function Offer({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { offer, side, notice } = loaderData
  const reply = actionData as ActionData | undefined
  const pending = offer.status === 'pending'
  return (
    <main id="main" className="container page narrow">
      <h1>{offer.title}</h1>
      {notice ? (
        <Notice kind="success" data-testid="offer-notice">
          {t(`offers.notice.${notice}`, { name: offer.freelancer.name })}
        </Notice>
      ) : null}
      {reply?.notice ? <Notice kind="error">{t(reply.notice)}</Notice> : null}
      <OfferTerms offer={offer} />
      <ContractLink offer={offer} side={side as 'client' | 'freelancer'} />
      {pending && side === 'freelancer' ? <Answer reply={reply?.decline} /> : null}
      {pending && side === 'client' ? (
        <Form method="post">
          <input type="hidden" name="intent" value="withdraw" />
          <Button variant="destructive">{t('offers.withdraw')}</Button>
        </Form>
      ) : null}
    </main>
  )
}

/** The freelancer's two answers: accept (the contract starts), or decline with a reason. */
function Answer({ reply }: { reply?: FieldReply }) {
  const { t } = useTranslation('projects')
  const idle = useNavigation().state === 'idle'
  const form = useReplyForm(idle ? reply : undefined, 'decline')
  const reason = replyFields(idle ? reply : undefined, 'decline').reason!
  return (
    <section aria-labelledby="answer-title" className="form-stack">
      <h2 id="answer-title">{t('offers.answer')}</h2>
      <p>{t('offers.acceptHint')}</p>
      <Form method="post">
        <input type="hidden" name="intent" value="accept" />
        <Button variant="primary">{t('offers.accept')}</Button>
      </Form>
      <details className="ui-section" open={!!reply}>
        <summary>{t('offers.decline')}</summary>
        <Form method="post" ref={form.ref} key={form.key} noValidate className="form-stack">
          <input type="hidden" name="intent" value="decline" />
          <div className="field">
            <label htmlFor={reason.id}>{t('offers.declineReason')}</label>
            <textarea {...controlProps(reason)} rows={3} />
            <ErrorText errors={reason.errors} id={reason.errorId} />
          </div>
          <div>
            <Button>{t('offers.declineSend')}</Button>
          </div>
        </Form>
      </details>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
