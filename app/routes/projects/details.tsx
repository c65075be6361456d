import type React from 'react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, useNavigation } from 'react-router'
import { Form } from 'react-router'
import type { Route } from './+types/details'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { commentInput, proposalInputFor, projectsContract as c } from '#server/modules/projects/contract.ts'
import { ProposalForm } from './proposal-form'
import type { FormConstraint } from '~/lib/form-constraint'
import { controlProps, replyFields, useReplyForm } from '~/components/ui/reply-form'
import type { FieldReply } from '~/components/ui/field'
import { refused, simpleIntent } from './actions.server'
import { chosenFile, uploadProjectFile } from './api.server'
import {
  ActionButton,
  Attachments,
  Budget,
  Deadline,
  PlanList,
  ProjectPlace,
  wordBudget,
  wordPlan,
} from './ui'
import { ErrorText } from '~/components/projects/error-text'
import { ProposalTerms, wordProposal } from './terms-ui'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip, StatusChip } from '~/components/ui/status-chip'
import { Notice } from '~/components/ui/notice'
import { titled } from '~/lib/meta'
import { useProjectChanges } from '~/components/realtime'
import { publicPageHeaders } from '~/lib/public-page'
import { PaymentVerifiedBadge } from '~/components/verified-badge'

// /projects/details/{projectId}: what a freelancer sees — the project, questions and answers, and
// their own proposal (send, see, withdraw). Saving and following are one-button forms.
export const headers = publicPageHeaders

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  const projectId = Number(params.projectId)
  try {
    const api = apiFor(context)
    const [view, comments] = await Promise.all([
      api.call(c.detailsForFreelancer, { params: { projectId } }),
      api.call(c.comments, { params: { projectId } }),
    ])
    if (view.project.isOwner) throw redirect(`/projects/client/details/${projectId}`)
    const words = wordsFor(getLocale(context))
    wordBudget(words, view.project)
    if (view.project.country) words.country(view.project.country)
    wordPlan(words, view.project.installments, view.project.currency)
    if (view.proposal) wordProposal(words, view.proposal)
    for (const cm of comments.data) words.date(cm.createdAt, 'dateTime')
    return {
      ...view,
      words: words.words,
      comments: comments.data,
      userId: user.id,
      sent: url.searchParams.get('sent') === '1',
      revised: url.searchParams.get('revised') === '1',
      // The forms' limits as data: the browser's code has no schema (issue 38).
      constraint: {
        proposal: getZodConstraint(proposalInputFor(view.project.budgetType)),
        comment: getZodConstraint(commentInput),
      },
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.project.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const back = `/projects/details/${projectId}`
  if (intent === 'propose' || intent === 'revise') {
    // The form names the project's kind of budget, so a fixed price's plan and an hourly bid's
    // hours are checked here too.
    const budgetType = form.get('budgetType')
    const schema = proposalInputFor(
      budgetType === 'fixed' || budgetType === 'hourly' ? budgetType : undefined,
    )
    const submission = parseWithZod(form, { schema })
    if (submission.status !== 'success') return data({ proposal: submission.reply() }, { status: 400 })
    const body = submission.value
    const proposalId = Number(form.get('id') ?? 0)
    try {
      const api = apiFor(context)
      const sent =
        intent === 'revise' && proposalId
          ? await api.call(c.reviseProposal, { params: { proposalId }, body })
          : await api.call(c.propose, { params: { projectId }, body })
      const file = chosenFile(form.get('file'))
      if (file) await uploadProjectFile(context, projectId, file, { proposalId: sent.id })
    } catch (error) {
      return refused(error)
    }
    return redirect(`${back}?${intent === 'revise' ? 'revised' : 'sent'}=1`)
  }
  if (intent === 'comment') {
    const submission = parseWithZod(form, { schema: commentInput })
    if (submission.status !== 'success') return data({ comment: submission.reply() }, { status: 400 })
    try {
      await apiFor(context).call(c.addComment, {
        params: { projectId },
        body: submission.value,
      })
    } catch (error) {
      return refused(error)
    }
    return redirect(`${back}#questions`)
  }
  return simpleIntent(context, projectId, form, back)
}

type ActionData = { proposal?: any; comment?: any; notice?: string }

/** One of the client's payments went through (decision 332). */
const ClientPaid = ({ shown }: { shown: boolean }) =>
  shown ? (
    <p>
      <PaymentVerifiedBadge />
    </p>
  ) : null

export default function ProjectDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { project: p, proposal, contract, canPropose, comments } = loaderData
  useProjectChanges(p.id)
  const result = actionData as ActionData | undefined
  const navigation = useNavigation()
  const idle = navigation.state === 'idle'
  // One proposal form: a new proposal, or (while it is pending) the freelancer's own, filled in to edit.
  const editing = proposal?.status === 'pending' ? proposal : null
  return (
    <main id="main" className="container page project-details">
      {result?.notice ? (
        <Notice kind="error">{t(result.notice, { defaultValue: result.notice })}</Notice>
      ) : null}
      {loaderData.sent && proposal ? (
        <Notice kind="success" data-testid="sent-notice">
          {t('details.sent')}
        </Notice>
      ) : null}
      {loaderData.revised && proposal ? <Notice kind="success">{t('details.revisedNotice')}</Notice> : null}
      <h1>{p.title}</h1>
      <p className="muted">
        <StatusChip machine="project" state={p.status} /> · <Budget p={p} /> · {p.subcategory?.name} ·{' '}
        <ProjectPlace p={p} /> · {t('list.proposals', { count: p.proposalCount })}
        {p.deadline ? (
          <>
            {' · '}
            <Deadline day={p.deadline} />
          </>
        ) : null}
      </p>
      <ButtonGroup>
        {contract ? (
          <ButtonLink variant="primary" to={`/projects/freelancer/contract/${p.id}`}>
            {t('details.openContract')}
          </ButtonLink>
        ) : null}
        {contract ? <ButtonLink to={`/chats/${contract.roomId}`}>{t('contract.chat')}</ButtonLink> : null}
        <ActionButton
          intent={p.wishlisted ? 'unwish' : 'wish'}
          label={p.wishlisted ? t('details.unsave') : t('details.save')}
        />
        <ActionButton
          intent={p.subscribed ? 'unsubscribe' : 'subscribe'}
          label={p.subscribed ? t('details.unfollow') : t('details.follow')}
        />
      </ButtonGroup>
      <section className="ui-section">
        <h2>{t('details.about')}</h2>
        <p className="prewrap">{p.description}</p>
        <p className="muted">{p.skills.map((s) => s.name).join(', ')}</p>
        <ClientPaid shown={p.clientPaymentVerified} />
        {p.installments.length ? (
          <>
            <h3>{t('details.clientPlan')}</h3>
            <PlanList items={p.installments} currency={p.currency} />
          </>
        ) : null}
        <Attachments files={p.attachments} />
      </section>

      {proposal ? <MyProposal proposal={proposal} title={p.title} /> : null}

      {canPropose || editing ? (
        <ProposalFormSection editing={!!editing} open={!editing || !!result?.proposal}>
          {editing ? <p className="hint">{t('details.editHint')}</p> : null}
          <ProposalForm
            project={p}
            editing={editing}
            constraint={loaderData.constraint.proposal}
            lastResult={idle ? result?.proposal : undefined}
          />
        </ProposalFormSection>
      ) : null}

      <Questions
        comments={comments}
        open={p.status === 'open'}
        constraint={loaderData.constraint.comment}
        lastResult={idle ? result?.comment : undefined}
      />
    </main>
  )
}

/** The freelancer's own proposal on this project: its terms, and Withdraw while it is pending. */
function MyProposal({
  proposal,
  title,
}: {
  proposal: NonNullable<Route.ComponentProps['loaderData']['proposal']>
  title: string
}) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return (
    <section aria-labelledby="my-proposal" className="ui-section">
      <Card
        title={t('details.yourProposal')}
        titleId="my-proposal"
        level={2}
        status={<StatusChip machine="proposal" state={proposal.status} />}
      >
        <ProposalTerms proposal={proposal} />
        {proposal.rejectReason ? (
          <p className="notice" data-testid="reject-reason">
            {t('proposals.rejectReason', { reason: proposal.rejectReason })}
          </p>
        ) : null}
        <Attachments files={proposal.attachments} />
        {proposal.status === 'pending' ? (
          <ButtonGroup>
            <ActionButton
              intent="withdraw"
              fields={{ id: proposal.id }}
              label={t('details.withdraw')}
              confirm={{
                question: t('confirm.withdraw', {
                  amount:
                    proposal.weeklyHours == null
                      ? words.money(proposal.bidMinor, proposal.currency)
                      : t('budget.rateUpTo', {
                          rate: words.money(proposal.bidMinor, proposal.currency),
                          count: proposal.weeklyHours,
                        }),
                  title,
                }),
                yes: t('confirm.withdrawYes'),
              }}
              variant="destructive"
            />
          </ButtonGroup>
        ) : null}
      </Card>
    </section>
  )
}

/** The project's public questions and answers, and the form to ask one while it is open. */
function Questions({
  comments,
  open,
  constraint,
  lastResult,
}: {
  comments: Route.ComponentProps['loaderData']['comments']
  open: boolean
  constraint: FormConstraint
  lastResult: unknown
}) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const reply = lastResult as FieldReply | undefined
  const form = useReplyForm(reply, 'comment')
  const body = replyFields(reply, 'comment', {}, constraint).body!
  return (
    <section id="questions" aria-labelledby="qa" className="ui-section">
      <h2 id="qa">{t('details.questions')}</h2>
      {comments.length ? (
        <ul className="comments">
          {comments.map((cm) => (
            <li key={cm.id} className={cm.parentId ? 'reply' : undefined}>
              <strong>{cm.author.name}</strong>{' '}
              {cm.isClient ? <Chip tone="info">{t('details.client')}</Chip> : null}{' '}
              <span className="muted small">{words.date(cm.createdAt, 'dateTime')}</span>
              <p className="prewrap">{cm.body}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('details.noQuestions')}</p>
      )}
      {open ? (
        <Form method="post" id="comment" ref={form.ref} key={form.key} noValidate className="form-stack">
          <input type="hidden" name="intent" value="comment" />
          <div className="field">
            <label htmlFor={body.id}>{t('details.ask')}</label>
            <textarea {...controlProps(body)} rows={3} />
            <ErrorText errors={body.errors} id={body.errorId} />
          </div>
          <div>
            <Button>{t('details.post')}</Button>
          </div>
        </Form>
      ) : (
        <p className="muted">{t('details.questionsClosed')}</p>
      )}
    </section>
  )
}

/**
 * The proposal form. A new proposal shows it open; the freelancer's own pending proposal folds it
 * under "Edit your proposal", so right after sending the page shows the proposal once, not twice.
 */
function ProposalFormSection({
  editing,
  open,
  children,
}: {
  editing: boolean
  open: boolean
  children: React.ReactNode
}) {
  const { t } = useTranslation('projects')
  if (!editing)
    return (
      <section aria-labelledby="send-proposal" className="ui-section">
        <h2 id="send-proposal">{t('details.sendProposal')}</h2>
        {children}
      </section>
    )
  return (
    <details className="ui-card ui-section" open={open} data-testid="edit-proposal">
      <summary>
        <h2 id="send-proposal">{t('details.editProposal')}</h2>
      </summary>
      {children}
    </details>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
