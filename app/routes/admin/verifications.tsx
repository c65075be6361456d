import { data, Link } from 'react-router'
import type { Route } from './+types/verifications'
import { adminList } from '~/lib/admin-list.server'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Card } from '~/components/ui/card'
import { Confirm } from '~/components/ui/confirm'
import { ButtonGroup } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { verificationContract as c, verificationDecision } from '#server/modules/verification/contract.ts'
import { REASON_MAX } from '#server/modules/verification/choices.ts'
import { listPage } from '~/lib/list-page'

// /admin/verifications (SuperAdmin only, decision 332): the pending requests, oldest first. Each
// opens its document and is approved or rejected (with a reason) from a confirmation step, since
// the document is deleted with the decision. Plain forms, so it works without JavaScript.
export async function loader({ context, url }: Route.LoaderArgs) {
  const page = listPage(url)
  return adminList(
    context,
    url,
    'verification:admin.title',
    (api) => api.call(c.queue, { query: { page } }),
    (words, result) => {
      for (const r of result.data) words.date(r.requestedAt)
    },
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Answer = { notice?: string; failed?: { id: number; reason: string } }

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const form = await request.formData()
  if (unconfirmed('adminVerification', String(form.get('intent') ?? ''), form)) return notConfirmed(context)
  const id = Number(form.get('id'))
  const name = String(form.get('name') ?? '')
  const parsed = verificationDecision.safeParse({
    decision: form.get('intent'),
    reason: form.get('reason') ?? '',
  })
  if (!Number.isInteger(id) || id <= 0 || !parsed.success)
    return data<Answer>({ failed: { id, reason: 'admin.reasonRequired' } }, { status: 400 })
  const { t } = getInstance(context)
  try {
    await apiFor(context).call(c.decide, { params: { id }, body: parsed.data })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 409 || error.status === 404))
      return data<Answer>({ notice: 'errors.decided' }, { status: error.status })
    throwApiError(error)
  }
  const message = t(
    parsed.data.decision === 'approve' ? 'verification:admin.approved' : 'verification:admin.rejected',
    { name },
  )
  return redirectWithFlash('/admin/verifications', { kind: 'success', message })
}

export default function VerificationQueue({ loaderData: { result, url }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('verification')
  const words = useWords()
  const answer = actionData as Answer | undefined
  return (
    <main id="main" className="container page">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.lead')}</p>
      {answer?.notice ? (
        <Notice kind="error">{t(answer.notice, { defaultValue: answer.notice })}</Notice>
      ) : null}
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('admin.list')}>
          {result.data.map((r) => (
            <Card
              as="li"
              level={2}
              key={r.id}
              data-testid="verification-request"
              titleId={`verification-${r.id}`}
              title={<Link to={`/admin/users/${r.userId}`}>{r.name}</Link>}
              meta={`${r.email} · ${t(`page.kinds.${r.kind}`)} · ${t('admin.requested', { date: words.date(r.requestedAt) })}`}
            >
              <p>
                {r.document ? (
                  <a href={`/admin/verifications/${r.id}/document`} target="_blank" rel="noreferrer">
                    {`${t('admin.document')}: ${r.document.name}`}
                  </a>
                ) : (
                  t('admin.noDocument')
                )}
              </p>
              {answer?.failed?.id === r.id ? <Notice kind="error">{t(answer.failed.reason)}</Notice> : null}
              <ButtonGroup>
                {decisions.map((decision) => (
                  <Confirm
                    key={decision}
                    label={t(`admin.${decision}`)}
                    variant={decision === 'approve' ? 'primary' : 'destructive'}
                    question={t(`admin.${decision}Question`, { name: r.name })}
                    yes={t(`admin.${decision}Yes`)}
                    fields={{ intent: decision, id: r.id, name: r.name }}
                    open={decision === 'reject' && answer?.failed?.id === r.id}
                  >
                    {decision === 'reject' ? <ReasonField id={r.id} /> : null}
                  </Confirm>
                ))}
              </ButtonGroup>
            </Card>
          ))}
        </ul>
      ) : (
        <EmptyState title={t('admin.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

const decisions = ['approve', 'reject'] as const

/** Why a request is rejected: required to reject, told to the person. */
function ReasonField({ id }: { id: number }) {
  const { t } = useTranslation('verification')
  return (
    <div className="field">
      <label htmlFor={`reason-${id}`}>{t('admin.reason')}</label>
      <textarea id={`reason-${id}`} name="reason" rows={3} required maxLength={REASON_MAX} />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
