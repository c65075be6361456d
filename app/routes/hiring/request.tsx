import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/request'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { Confirm } from '~/components/ui/confirm'
import { hiringContract as c } from '#server/modules/hiring/contract.ts'
import { liveStates } from '#server/modules/hiring/states.ts'
import { refused } from '../projects/actions.server'
import { FreelancerHit, wordHit } from '../freelancers/hit'
import { HiringChip, RequestFacts, requestIdOf, wordRequest } from './ui'
import stylesheet from '../profile/profile.css?url'

// /hiring/{id}: one of the client's requests: its facts, the freelancers support proposed, each as
// Find Freelancers shows them with support's note and the ways to hire them (their profile, a new
// project), and closing it as done or cancelling it (plain forms; cancelling from its confirmation
// step, since a cancelled request takes no change, decision 310). Decision 338.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const requestId = requestIdOf(params)
  try {
    const request = await apiFor(context).call(c.get, { params: { requestId } })
    const title = getInstance(context).t('shortlist:hiring.list.item', { id: request.id })
    const words = wordsFor(getLocale(context))
    wordRequest(words, request)
    for (const p of request.proposed) wordHit(words, p.freelancer)
    return { request, title, words: words.words }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requirePermission(context, url, 'freelancers.find')
  const requestId = requestIdOf(params)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  if (intent !== 'cancel' && intent !== 'done') throw new Response('Bad Request', { status: 400 })
  if (unconfirmed('hiring', intent, form)) return notConfirmed(context)
  try {
    await apiFor(context).call(intent === 'cancel' ? c.cancel : c.done, { params: { requestId } })
  } catch (error) {
    return refused(error)
  }
  const t = getInstance(context).t
  return redirectWithFlash(`/hiring/${requestId}`, {
    kind: 'success',
    message: t(`shortlist:hiring.flash.${intent}`),
  })
}

export default function HiringRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['shortlist', 'profile'])
  const { request: r, title } = loaderData
  const live = (liveStates as readonly string[]).includes(r.state)
  const notice = (actionData as { notice?: string } | undefined)?.notice
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/hiring">{t('hiring.detail.back')}</Link>
      </p>
      <h1>
        {title} <HiringChip state={r.state} />
      </h1>
      {notice ? <Notice kind="error">{notice}</Notice> : null}
      <RequestFacts request={r} projectLink />
      <h2>{t('hiring.detail.need')}</h2>
      <p className="prewrap">{r.need}</p>
      <h2>{t('hiring.detail.proposed')}</h2>
      {r.proposed.length ? (
        <ul className="search-results" data-testid="hiring-proposed">
          {r.proposed.map((p) => (
            <Proposed key={p.freelancer.userId} pick={p} projectId={r.project?.id} />
          ))}
        </ul>
      ) : (
        <p className="muted">{live ? t('hiring.detail.waiting') : t('hiring.detail.closed')}</p>
      )}
      {live ? (
        <ButtonGroup>
          {r.proposed.length ? (
            <ActionForm intent="done" label={t('hiring.detail.done')} variant="primary" />
          ) : null}
          <Confirm
            label={t('hiring.detail.cancel')}
            variant="destructive"
            question={t('hiring.detail.cancelQuestion', { id: r.id })}
            yes={t('hiring.detail.cancelYes')}
            fields={{ intent: 'cancel' }}
          />
        </ButtonGroup>
      ) : null}
    </main>
  )
}

type Pick = Route.ComponentProps['loaderData']['request']['proposed'][number]

/** A proposed freelancer: their card, support's note, and the ways to hire them. */
function Proposed({ pick, projectId }: { pick: Pick; projectId?: number }) {
  const { t } = useTranslation('shortlist')
  const id = pick.freelancer.userId
  return (
    <FreelancerHit hit={pick.freelancer}>
      <p data-testid="hiring-note">
        <strong>{t('hiring.detail.note')}:</strong> {pick.note}
      </p>
      <ButtonGroup>
        <ButtonLink to={`/profiles/freelancers/${id}`}>{t('hiring.detail.profile')}</ButtonLink>
        {projectId ? null : <ButtonLink to="/projects/create">{t('hiring.detail.createProject')}</ButtonLink>}
      </ButtonGroup>
    </FreelancerHit>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
