import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { Form, Link, data, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/invitations'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { declineInput, invitationsContract as c } from '#server/modules/projects/invitations/contract.ts'
import { pageOf } from './ui'
import { ErrorText } from '~/components/projects/error-text'
import { InvitationChip } from './invitation-chip'
import { Button, ButtonGroup } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { controlProps, replyFields, useReplyForm } from '~/components/ui/reply-form'
import type { FieldReply } from '~/components/ui/field'
import { useWords, wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'

// /projects/invitations: a freelancer's invitations (decision 335). Accepting opens the project's
// proposal form; declining asks for a reason. Plain forms, so both work without JavaScript.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'proposals.mine')
  try {
    const page = pageOf(url)
    const result = await apiFor(context).call(c.mine, { query: { page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    for (const inv of result.data) words.date(inv.createdAt, 'dateTime')
    return {
      result,
      words: words.words,
      url: url.pathname + url.search,
      declined: url.searchParams.get('declined') === '1',
      title: getInstance(context).t('projects:invitations.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'proposals.mine')
  const form = await request.formData()
  const invitationId = Number(form.get('id'))
  const intent = String(form.get('intent') ?? '')
  try {
    if (intent === 'accept') {
      const accepted = await apiFor(context).call(c.accept, { params: { invitationId } })
      return redirect(`/projects/details/${accepted.projectId}#send-proposal`)
    }
    const submission = parseWithZod(form, { schema: declineInput })
    if (submission.status !== 'success')
      return data({ id: invitationId, decline: submission.reply() }, { status: 400 })
    await apiFor(context).call(c.decline, { params: { invitationId }, body: submission.value })
    return redirect('/projects/invitations?declined=1')
  } catch (error) {
    // Answered already, or the project closed meanwhile: the list says so, in the reader's words.
    if (error instanceof ApiCallError && error.status === 409)
      return data({ id: invitationId, notice: 'invitations.answered' }, { status: 409 })
    throwApiError(error)
  }
}

type ActionData = { id?: number; decline?: FieldReply; notice?: string }
type Invitation = Route.ComponentProps['loaderData']['result']['data'][number]

export default function Invitations({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { result, url } = loaderData
  const reply = actionData as ActionData | undefined
  return (
    <main id="main" className="container page">
      <h1>{t('invitations.title')}</h1>
      {reply?.notice ? <Notice kind="error">{t(reply.notice)}</Notice> : null}
      {loaderData.declined ? <Notice kind="success">{t('invitations.declinedNotice')}</Notice> : null}
      {result.data.length ? null : (
        <EmptyState title={t('invitations.none')}>{t('invitations.noneHint')}</EmptyState>
      )}
      {result.data.map((inv) => (
        <InvitationCard key={inv.id} inv={inv} reply={reply?.id === inv.id ? reply.decline : undefined} />
      ))}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

/** One invitation: the project, who invites and their words; Accept and Decline while it waits. */
function InvitationCard({ inv, reply }: { inv: Invitation; reply?: FieldReply }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const idle = useNavigation().state === 'idle'
  const form = useReplyForm(idle ? reply : undefined, `decline-${inv.id}`)
  const reason = replyFields(idle ? reply : undefined, `decline-${inv.id}`).reason!
  const open = inv.status !== 'declined' && inv.projectStatus === 'open'
  return (
    <Card
      data-testid="invitation"
      level={2}
      titleId={`invitation-${inv.id}`}
      title={
        open ? <Link to={`/projects/details/${inv.projectId}`}>{inv.projectTitle}</Link> : inv.projectTitle
      }
      status={<InvitationChip state={inv.status} />}
      meta={t('invitations.from', {
        name: inv.client.name,
        when: words.date(inv.createdAt, 'dateTime'),
      })}
    >
      <p className="prewrap">{inv.message}</p>
      {inv.declineReason ? (
        <p className="muted">{t('invitations.yourReason', { reason: inv.declineReason })}</p>
      ) : null}
      {inv.status === 'pending' && inv.projectStatus === 'open' ? (
        <>
          <Form method="post">
            <input type="hidden" name="id" value={inv.id} />
            <ButtonGroup>
              <Button name="intent" value="accept" variant="primary">
                {t('invitations.accept')}
              </Button>
            </ButtonGroup>
          </Form>
          <details className="ui-section" open={!!reply}>
            <summary>{t('invitations.decline')}</summary>
            <Form method="post" ref={form.ref} key={form.key} noValidate className="form-stack">
              <input type="hidden" name="id" value={inv.id} />
              <input type="hidden" name="intent" value="decline" />
              <div className="field">
                <label htmlFor={reason.id}>{t('invitations.reason')}</label>
                <textarea {...controlProps(reason)} rows={3} />
                <ErrorText errors={reason.errors} id={reason.errorId} />
              </div>
              <div>
                <Button>{t('invitations.declineSend')}</Button>
              </div>
            </Form>
          </details>
        </>
      ) : null}
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
