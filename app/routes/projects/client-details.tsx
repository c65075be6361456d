import { useTranslation } from '~/lib/translations'
import { data, redirect, Form } from 'react-router'
import type { Route } from './+types/client-details'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { invitationsContract } from '#server/modules/projects/invitations/contract.ts'
import { refused, simpleIntent } from './actions.server'
import { chosenFile, uploadProjectFile } from './api.server'
import { ActivityList, InstallmentList } from './installments'
import { RefundsSection } from '../payments/refunds'
import { loadRefunds, refundIntent } from '../payments/refunds.server'
import { loadChangeOrders } from './change-orders.server'
import { ContractValue } from './change-orders-ui'
import { wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ActionButton, Attachments, Budget, Deadline, Money } from './ui'
import { ReceivedProposal } from './received-proposal'
import { clientProjectMoves } from './moves'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Person } from '~/components/ui/person'
import { StatusChip } from '~/components/ui/status-chip'
import { titled } from '~/lib/meta'
import { useProjectChanges } from '~/components/realtime'
import { RegisterLink } from './register-ui'
import { TimesheetLink } from './timesheet-link'
import { HourlyTerms, OpenWeekNotice } from './hourly-ui'
import { InvitationsSent } from './invitations-sent'
import { loadShortlist, shortlistIntent } from './shortlist.server'
import { wordClientProject } from './client-words.server'
import { ShortlistToolbar } from './shortlist-ui'

// /projects/client/details/{projectId}: the client's view — proposals received (accept or reject,
// plain form actions), the contract and its installments, files, questions and the activity log.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  try {
    const api = apiFor(context)
    const [view, comments, invitations] = await Promise.all([
      api.call(c.detailsForClient, { params: { projectId } }),
      api.call(c.comments, { params: { projectId } }),
      api.call(invitationsContract.forProject, { params: { projectId } }),
    ])
    // Earlier versions of each revised proposal, so the client sees what changed.
    const revised = view.proposals.filter((pr) => pr.revision > 1)
    const histories = await Promise.all(
      revised.map((pr) => api.call(c.proposalRevisions, { params: { proposalId: pr.id } })),
    )
    const revisions = Object.fromEntries(revised.map((pr, n) => [pr.id, histories[n].data]))
    const words = wordsFor(getLocale(context))
    // An hourly contract has no installments to refund or amend (decision 323).
    const installments = !!view.contract && view.contract.billing !== 'hourly'
    const [refunds, changes, shortlist] = await Promise.all([
      loadRefunds(context, projectId, installments),
      loadChangeOrders(context, projectId, installments, words),
      // The client's shortlist and private notes (decision 336); ?shortlist=1 shows it alone.
      loadShortlist(context, projectId, view.proposals.length > 0),
    ])
    wordClientProject(words, view, { revisions, refunds, invitations: invitations.data })
    return {
      work: { ...view, revisions, comments: comments.data },
      words: words.words,
      invitations: invitations.data,
      refunds,
      changes,
      shortlist,
      shortlistOnly: url.searchParams.get('shortlist') === '1',
      refundDone: url.searchParams.get('refund'),
      created: url.searchParams.get('created') === '1',
      edited: url.searchParams.get('edited') === '1',
      accepted: url.searchParams.get('accepted') === '1',
      declined: url.searchParams.get('declined') === '1',
      paid: url.searchParams.get('paid') === '1',
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.work.project.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const form = await request.formData()
  const back = `/projects/client/details/${projectId}`
  const intent = String(form.get('intent') ?? '')
  const listed = await shortlistIntent(context, form, url.pathname + url.search)
  if (listed) return listed
  const refund = await refundIntent(context, projectId, form, back)
  if (refund) return refund
  if (intent === 'upload') {
    const file = chosenFile(form.get('file'))
    if (!file) return data({ notice: 'errors.chooseFile' }, { status: 400 })
    try {
      await uploadProjectFile(context, projectId, file)
    } catch (error) {
      return refused(error)
    }
    return redirect(back)
  }
  if (intent === 'answer') {
    const body = String(form.get('body') ?? '').trim()
    if (!body) return data({ notice: 'errors.required' }, { status: 400 })
    try {
      await apiFor(context).call(c.addComment, {
        params: { projectId },
        body: { body, parentId: Number(form.get('parentId')) || undefined },
      })
    } catch (error) {
      return refused(error)
    }
    return redirect(`${back}#questions`)
  }
  if (intent === 'chat') {
    // A question before accepting: the room of this project with that proposer (the same one every time).
    try {
      const room = await apiFor(context).call(c.createRoom, {
        params: { projectId, userId: Number(form.get('id')) },
      })
      return redirect(`/chats/${room.roomId}`)
    } catch (error) {
      return refused(error)
    }
  }
  // Accept and Decline come back with a confirmation of what just happened.
  const done = intent === 'accept' ? '?accepted=1' : intent === 'reject' ? '?declined=1' : ''
  return simpleIntent(context, projectId, form, back + done)
}

export default function ClientProjectDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['projects', 'payments', 'shortlist'])
  const { project: p, proposals, contract, activity, comments, revisions } = loaderData.work
  const can = clientProjectMoves(p, contract)
  useProjectChanges(p.id)
  const notice = (actionData as { notice?: string } | undefined)?.notice
  const noteError = (actionData as { noteError?: { id: number; message: string } } | undefined)?.noteError
  const { shortlist, shortlistOnly } = loaderData
  const shown = shortlistOnly ? proposals.filter((pr) => shortlist[pr.id]) : proposals
  return (
    <main id="main" className="container page project-details">
      <Notices data={loaderData} notice={notice} />
      <h1>{p.title}</h1>
      <p className="muted">
        <StatusChip machine="project" state={p.status} /> · <Budget p={p} /> · {p.subcategory?.name} ·{' '}
        {t('list.proposals', { count: p.proposalCount })}
        {p.deadline ? (
          <>
            {' · '}
            <Deadline day={p.deadline} />
          </>
        ) : null}
      </p>
      <ClientActions project={p} contract={contract} can={can} />
      {p.status === 'in_progress' && contract?.hourly?.openWeek ? (
        <OpenWeekNotice projectId={p.id} openWeek={contract.hourly.openWeek} />
      ) : p.status === 'in_progress' && !can.complete ? (
        <p className="muted small">{t('client.completeLater')}</p>
      ) : null}
      <About project={p} />
      {contract ? <ContractSection contract={contract} projectId={p.id} /> : null}
      {loaderData.changes ? (
        <ContractValue v={loaderData.changes} link={`/projects/changes/${p.id}`} />
      ) : null}
      {contract && loaderData.refunds ? (
        <RefundsSection
          refunds={loaderData.refunds}
          installments={contract.installments}
          role="client"
          counterpart={contract.freelancer.name}
          done={loaderData.refundDone}
          result={actionData as never}
        />
      ) : null}
      <section aria-labelledby="proposals" className="ui-section">
        <h2 id="proposals">{t('client.proposals', { count: proposals.length })}</h2>
        {proposals.length ? (
          <ShortlistToolbar projectId={p.id} only={shortlistOnly} count={Object.keys(shortlist).length} />
        ) : (
          <EmptyState title={t('client.noProposals')} />
        )}
        {proposals.length && !shown.length ? <EmptyState title={t('shortlist:shortlist.none')} /> : null}
        {shown.map((pr) => (
          <ReceivedProposal
            key={pr.id}
            pr={pr}
            revisions={revisions[pr.id] ?? []}
            answerable={pr.status === 'pending' && p.status === 'open'}
            shortlist={{
              mark: shortlist[pr.id],
              error: noteError?.id === pr.id ? noteError.message : undefined,
            }}
          />
        ))}
      </section>
      <InvitationsSent
        invitations={loaderData.invitations}
        visibility={p.visibility}
        open={p.status === 'open'}
      />
      <Questions comments={comments} open={p.status === 'open'} />
      <section aria-labelledby="activity" className="ui-section">
        <h2 id="activity">{t('activity.title')}</h2>
        <ActivityList items={activity} />
      </section>
    </main>
  )
}

type Details = Route.ComponentProps['loaderData']
type Work = Details['work']

/** What just happened (created, edited, accepted, declined, paid), or why it did not. */
function Notices({ data: loaderData, notice }: { data: Details; notice: string | null | undefined }) {
  const { t } = useTranslation(['projects', 'payments', 'hourly'])
  const p = loaderData.work.project
  return (
    <>
      {loaderData.created && p.status !== 'in_review' ? (
        <Notice kind="success">
          {p.status === 'draft' ? t('client.draftSaved') : t('client.published')}
        </Notice>
      ) : null}
      {p.status === 'in_review' ? (
        <Notice kind="info" data-testid="review-state">
          {t('client.inReview')}
        </Notice>
      ) : null}
      {p.reviewReason ? (
        <Notice kind="warning" title={t('client.returnedTitle')} data-testid="review-reason">
          {t('client.returned', { reason: p.reviewReason })}
        </Notice>
      ) : null}
      {loaderData.edited ? <Notice kind="success">{t('edit.saved')}</Notice> : null}
      {loaderData.accepted ? (
        <Notice kind="success" data-testid="accepted-notice">
          {loaderData.work.contract?.billing === 'hourly' ? t('hourly:accepted') : t('client.accepted')}
        </Notice>
      ) : null}
      {loaderData.declined ? <Notice kind="success">{t('client.declined')}</Notice> : null}
      {loaderData.paid ? (
        <Notice kind="success" data-testid="paid-notice">
          {t('payments:paid')}
        </Notice>
      ) : null}
      {notice ? <Notice kind="error">{t(notice, { defaultValue: notice })}</Notice> : null}
    </>
  )
}

function ClientActions({
  project: p,
  contract,
  can,
}: {
  project: Work['project']
  contract: Work['contract']
  can: ReturnType<typeof clientProjectMoves>
}) {
  const { t } = useTranslation(['projects', 'payments'])
  return (
    <ButtonGroup label={t('client.actions')}>
      {can.publish ? <ActionButton intent="open" label={t('client.publish')} variant="primary" /> : null}
      {can.complete ? (
        <ActionButton intent="completed" label={t('client.complete')} variant="primary" />
      ) : null}
      {can.edit ? <ButtonLink to={`/projects/client/edit/${p.id}`}>{t('client.edit')}</ButtonLink> : null}
      {contract ? <ButtonLink to={`/chats/${contract.roomId}`}>{t('contract.chat')}</ButtonLink> : null}
      {contract ? <RegisterLink projectId={p.id} /> : null}
      {contract?.billing === 'hourly' ? <TimesheetLink projectId={p.id} /> : null}
      {contract?.status === 'completed' ? (
        <ButtonLink to="/reviews">{t('contract.review')}</ButtonLink>
      ) : null}
      {can.cancel ? (
        <ActionButton
          intent="cancelled"
          label={t('client.cancel')}
          confirm={{ question: t('confirm.cancel', { title: p.title }), yes: t('confirm.cancelYes') }}
          variant="destructive"
        />
      ) : null}
      {can.delete ? (
        <ActionButton
          intent="delete"
          label={t('client.delete')}
          confirm={{ question: t('confirm.delete', { title: p.title }), yes: t('confirm.deleteYes') }}
          variant="destructive"
        />
      ) : null}
    </ButtonGroup>
  )
}

/** The description and files, and an upload while the project is not finished. */
function About({ project: p }: { project: Work['project'] }) {
  const { t } = useTranslation(['projects', 'payments'])
  return (
    <section className="ui-section">
      <h2>{t('details.about')}</h2>
      <p className="prewrap">{p.description}</p>
      <Attachments
        files={p.attachments}
        removable={p.status === 'draft' || p.status === 'returned' || p.status === 'open'}
      />
      {['draft', 'returned', 'open', 'in_progress'].includes(p.status) ? (
        <Form method="post" encType="multipart/form-data" className="ui-button-group">
          <input type="hidden" name="intent" value="upload" />
          <label htmlFor="client-file">{t('fields.attachment')}</label>{' '}
          <input id="client-file" name="file" type="file" />
          <Button>{t('client.upload')}</Button>
        </Form>
      ) : null}
    </section>
  )
}

function ContractSection({
  contract,
  projectId,
}: {
  contract: NonNullable<Work['contract']>
  projectId: number
}) {
  const { t } = useTranslation(['projects', 'payments'])
  return (
    <section aria-labelledby="contract" className="ui-section">
      <h2 id="contract">{t('contract.title')}</h2>
      <Card>
        <header className="ui-card-header">
          <Person
            name={contract.freelancer.name}
            imageUrl={contract.freelancer.imageUrl}
            href={`/profiles/freelancers/${contract.freelancer.id}`}
          />
          <StatusChip machine="contract" state={contract.status} />
        </header>
        {contract.billing === 'hourly' ? (
          <HourlyTerms contract={contract} note />
        ) : (
          <DefinitionList
            items={[
              [t('details.bid'), <Money key="m" minor={contract.amountMinor} currency={contract.currency} />],
            ]}
          />
        )}
      </Card>
      {contract.billing === 'hourly' ? null : (
        <InstallmentList
          items={contract.installments}
          role="client"
          active={contract.status === 'active'}
          projectId={projectId}
          payee={contract.freelancer.name}
        />
      )}
    </section>
  )
}

/** Questions on the project, each answerable by the client while the project is open. */
function Questions({ comments, open }: { comments: Work['comments']; open: boolean }) {
  const { t } = useTranslation(['projects', 'payments'])
  return (
    <section id="questions" aria-labelledby="qa" className="ui-section">
      <h2 id="qa">{t('details.questions')}</h2>
      {comments.length ? null : <p className="muted">{t('details.noQuestions')}</p>}
      <ul className="comments">
        {comments.map((cm) => (
          <li key={cm.id} className={cm.parentId ? 'reply' : undefined}>
            <strong>{cm.author.name}</strong>
            <p className="prewrap">{cm.body}</p>
            {!cm.parentId && open ? (
              <Form method="post" className="ui-button-group">
                <input type="hidden" name="intent" value="answer" />
                <input type="hidden" name="parentId" value={cm.id} />
                <label htmlFor={`answer-${cm.id}`}>{t('client.answer')}</label>{' '}
                <input id={`answer-${cm.id}`} name="body" required maxLength={2000} />
                <Button>{t('details.post')}</Button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
