import { data, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/hiring-request'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { Confirm } from '~/components/ui/confirm'
import { Toolbar } from '~/components/ui/toolbar'
import { hiringContract as c } from '#server/modules/hiring/contract.ts'
import { liveStates } from '#server/modules/hiring/states.ts'
import { HiringChip, RequestFacts, requestIdOf, wordRequest } from '../hiring/ui'
import { AuditTimeline, wordAudit } from './audit-ui'
import { firstError, parseProposal } from './hiring-request.server'

// /admin/hiring/{id} (SuperAdmin only): a hiring request for support: its facts, taking it, finding
// active freelancers by name (a GET form), proposing up to five with a note each, closing it, and
// its audit trail. Every form is a plain one (decision 338); closing, which is for good, comes from its
// confirmation step (decision 310).

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const admin = requirePermission(context, url, 'admin.area')
  const q = (url.searchParams.get('q') ?? '').slice(0, 100)
  try {
    const request = await apiFor(context).call(c.adminGet, {
      params: { requestId: requestIdOf(params) },
      query: { q },
    })
    const title = `${getInstance(context).t('shortlist:hiring.list.item', { id: request.id })} · ${getInstance(context).t('shortlist:hiring.admin.title')}`
    const words = wordsFor(getLocale(context))
    wordRequest(words, request)
    wordAudit(words, request.audit)
    return { request, q, mine: request.assignee?.id === admin.id, title, words: words.words }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const requestId = requestIdOf(params)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const api = apiFor(context)
  const t = getInstance(context).t
  if (unconfirmed('adminHiring', intent, form)) return notConfirmed(context)
  try {
    if (intent === 'claim') await api.call(c.claim, { params: { requestId } })
    else if (intent === 'close') {
      const reason = String(form.get('reason') ?? '').trim()
      await api.call(c.close, { params: { requestId }, body: reason ? { reason } : {} })
    } else if (intent === 'propose') {
      const submission = parseProposal(form)
      if (submission.status !== 'success')
        return data({ notice: firstError(submission.reply().error) }, { status: 400 })
      await api.call(c.propose, { params: { requestId }, body: submission.value })
    } else throw new Response('Bad Request', { status: 400 })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 400 || error.status === 409)) {
      const problem = typeof error.problem === 'object' ? error.problem : null
      const notice = error.status === 409 ? 'shortlist:hiring.errors.closed' : firstError(problem?.errors)
      return data({ notice }, { status: error.status })
    }
    throwApiError(error)
  }
  return redirectWithFlash(`/admin/hiring/${requestId}`, {
    kind: 'success',
    message: t(`shortlist:hiring.flash.${intent}`),
  })
}

type Detail = Route.ComponentProps['loaderData']['request']

export default function AdminHiringRequest({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['shortlist', 'projects'])
  const { request: r, q, mine, title } = loaderData
  const live = (liveStates as readonly string[]).includes(r.state)
  const notice = (actionData as { notice?: string } | undefined)?.notice
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/admin/hiring">{t('hiring.admin.back')}</Link>
      </p>
      <h1>
        {title} <HiringChip state={r.state} />
      </h1>
      {notice ? <Notice kind="error">{t(notice, { defaultValue: notice })}</Notice> : null}
      <p>{`${t('hiring.admin.client')}: ${r.client.name} · ${t('hiring.admin.assignee')}: ${r.assignee?.name ?? t('hiring.admin.unassigned')}`}</p>
      <RequestFacts request={r} />
      <p className="prewrap">{r.need}</p>
      {live && !mine ? <ActionForm intent="claim" label={t('hiring.admin.claim')} /> : null}
      {live ? <ProposalSection request={r} q={q} /> : null}
      {live ? (
        <section aria-labelledby="hiring-close" className="ui-section">
          <h2 id="hiring-close">{t('hiring.admin.close')}</h2>
          <Confirm
            label={t('hiring.admin.close')}
            question={t('hiring.admin.closeQuestion', { id: r.id, name: r.client.name })}
            yes={t('hiring.admin.closeYes')}
            fields={{ intent: 'close' }}
          >
            <div className="field">
              <label htmlFor="hiring-reason">{t('hiring.admin.reason')}</label>
              <textarea id="hiring-reason" name="reason" rows={2} maxLength={1000} />
            </div>
          </Confirm>
        </section>
      ) : null}
      <section aria-labelledby="hiring-history" className="ui-section">
        <h2 id="hiring-history">{t('hiring.admin.history')}</h2>
        <AuditTimeline entries={r.audit} empty="—" />
      </section>
    </main>
  )
}

/** Finding freelancers by name, and the proposal: those proposed now first, then the ones found. */
function ProposalSection({ request: r, q }: { request: Detail; q: string }) {
  const { t } = useTranslation('shortlist')
  const proposed = new Set(r.proposed.map((p) => p.freelancer.id))
  const rows = [
    ...r.proposed.map((p) => ({ ...p.freelancer, note: p.note, picked: true })),
    ...r.candidates.filter((f) => !proposed.has(f.id)).map((f) => ({ ...f, note: '', picked: false })),
  ]
  return (
    <section aria-labelledby="hiring-propose" className="ui-section">
      <h2 id="hiring-propose">{t('hiring.admin.propose')}</h2>
      <Form method="get" role="search" aria-label={t('hiring.admin.search')}>
        <Toolbar label={t('hiring.admin.search')}>
          <div className="field">
            <label htmlFor="hiring-q">{t('hiring.admin.searchLabel')}</label>
            <input id="hiring-q" name="q" type="search" defaultValue={q} maxLength={100} />
          </div>
          <Button>{t('hiring.admin.searchButton')}</Button>
        </Toolbar>
      </Form>
      <p className="muted">{t('hiring.admin.proposeLead')}</p>
      {rows.length ? (
        <Form method="post" className="form-stack" data-testid="hiring-propose-form">
          <input type="hidden" name="intent" value="propose" />
          {rows.map((f, i) => (
            <fieldset key={f.id} className="ui-card">
              <legend>
                <label>
                  <input
                    type="checkbox"
                    name={`freelancers[${i}].userId`}
                    value={f.id}
                    defaultChecked={f.picked}
                  />{' '}
                  {t('hiring.admin.pick', { name: f.name })}
                </label>
              </legend>
              {f.title ? <p className="muted small">{f.title}</p> : null}
              <div className="field">
                <label htmlFor={`hiring-note-${f.id}`}>{t('hiring.admin.noteFor', { name: f.name })}</label>
                <textarea
                  id={`hiring-note-${f.id}`}
                  name={`freelancers[${i}].note`}
                  rows={2}
                  maxLength={1000}
                  defaultValue={f.note}
                />
              </div>
            </fieldset>
          ))}
          <Button variant="primary">{t('hiring.admin.propose')}</Button>
        </Form>
      ) : (
        <p>{t('hiring.admin.noCandidates')}</p>
      )}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
