import type React from 'react'
import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { useTranslation } from 'react-i18next'
import { data, redirect, useNavigation, Form } from 'react-router'
import type { Route } from './+types/details'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { formatDateTime } from '~/lib/format'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '../../../server/modules/projects/contract'
import { amountText } from '../../../server/modules/projects/rules'
import { PLAN_ROWS, commentFormSchema, planOf, proposalFormSchema } from './forms'
import { refused, simpleIntent } from './actions.server'
import { chosenFile, uploadProjectFile } from './api.server'
import { ActionButton, Attachments, Budget, ErrorText, PlanList, ProposalTerms } from './ui'
import { Button, ButtonGroup, ButtonLink, Card, Chip, Notice, StatusChip } from '~/components/ui'
import { titled } from '~/lib/meta'
import { useProjectChanges } from '~/components/realtime'

// /projects/details/{projectId}: what a freelancer sees — the project, questions and answers, and
// their own proposal (send, see, withdraw). Saving and following are one-button forms.
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
    return {
      ...view,
      comments: comments.data,
      userId: user.id,
      sent: url.searchParams.get('sent') === '1',
      revised: url.searchParams.get('revised') === '1',
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
    const submission = parseWithZod(form, { schema: proposalFormSchema })
    if (submission.status !== 'success') return data({ proposal: submission.reply() }, { status: 400 })
    const v = submission.value
    const body = {
      coverLetter: v.coverLetter,
      bidMinor: v.bid,
      durationDays: v.durationDays,
      installments: planOf(v.installments),
    }
    try {
      const api = apiFor(context)
      const sent =
        v.intent === 'revise' && v.id
          ? await api.call(c.reviseProposal, { params: { proposalId: v.id }, body })
          : await api.call(c.propose, { params: { projectId }, body })
      const file = chosenFile(form.get('file'))
      if (file) await uploadProjectFile(context, projectId, file, { proposalId: sent.id })
    } catch (error) {
      return refused(error)
    }
    return redirect(`${back}?${v.intent === 'revise' ? 'revised' : 'sent'}=1`)
  }
  if (intent === 'comment') {
    const submission = parseWithZod(form, { schema: commentFormSchema })
    if (submission.status !== 'success') return data({ comment: submission.reply() }, { status: 400 })
    try {
      await apiFor(context).call(c.addComment, {
        params: { projectId },
        body: { body: submission.value.body, parentId: submission.value.parentId },
      })
    } catch (error) {
      return refused(error)
    }
    return redirect(`${back}#questions`)
  }
  return simpleIntent(context, projectId, form, back)
}

type ActionData = { proposal?: any; comment?: any; notice?: string }
type Details = Route.ComponentProps['loaderData']
type Project = Details['project']

export default function ProjectDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { project: p, proposal, canPropose, comments } = loaderData
  useProjectChanges(p.id)
  const result = actionData as ActionData | undefined
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
        {p.remote ? t('fields.remote') : (p.location ?? t('fields.onSite'))} ·{' '}
        {t('list.proposals', { count: p.proposalCount })}
      </p>
      <FreelancerActions project={p} contract={loaderData.contract} />
      <About project={p} />

      {proposal ? <MyProposal proposal={proposal} /> : null}

      {canPropose || editing ? (
        <ProposalFormSection editing={!!editing} open={!editing || !!result?.proposal}>
          {editing ? <p className="hint">{t('details.editHint')}</p> : null}
          <ProposalForm project={p} editing={editing} result={result} />
        </ProposalFormSection>
      ) : null}

      <Questions project={p} comments={comments} result={result} />
    </main>
  )
}

/** The contract and its chat once there is one; saving and following the project. */
function FreelancerActions({ project: p, contract }: { project: Project; contract: Details['contract'] }) {
  const { t } = useTranslation('projects')
  return (
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
  )
}

function About({ project: p }: { project: Project }) {
  const { t } = useTranslation('projects')
  return (
    <section className="ui-section">
      <h2>{t('details.about')}</h2>
      <p className="prewrap">{p.description}</p>
      <p className="muted">{p.skills.map((s) => s.name).join(', ')}</p>
      {p.installments.length ? (
        <>
          <h3>{t('details.clientPlan')}</h3>
          <PlanList items={p.installments} currency={p.currency} />
        </>
      ) : null}
      <Attachments files={p.attachments} />
    </section>
  )
}

/** The freelancer's own proposal: its terms, why it was declined, and Withdraw while pending. */
function MyProposal({ proposal }: { proposal: NonNullable<Details['proposal']> }) {
  const { t } = useTranslation('projects')
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
              confirm={t('details.confirmWithdraw')}
              variant="destructive"
            />
          </ButtonGroup>
        ) : null}
      </Card>
    </section>
  )
}

function ProposalForm({
  project: p,
  editing,
  result,
}: {
  project: Project
  editing: Details['proposal'] | null
  result: ActionData | undefined
}) {
  const { t } = useTranslation('projects')
  const idle = useNavigation().state === 'idle'
  const [pForm, pf] = useForm({
    // A new version remounts the form with the saved values.
    id: editing ? `proposal-${editing.revision}` : 'proposal',
    lastResult: idle ? result?.proposal : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: proposalFormSchema }),
    shouldValidate: 'onBlur',
    defaultValue: editing
      ? {
          coverLetter: editing.coverLetter,
          bid: amountText(editing.bidMinor),
          durationDays: String(editing.durationDays),
          installments: editing.installments.map((i) => ({
            title: i.title,
            amount: amountText(i.amountMinor),
            dueDate: i.dueDate ?? '',
          })),
        }
      : undefined,
  })
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(pForm)} className="form-stack">
      <input type="hidden" name="intent" value={editing ? 'revise' : 'propose'} />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <input type="hidden" name="fixed" value={p.budgetType === 'fixed' ? 'true' : 'false'} />
      <ProposalTermsFields pf={pf} currency={p.currency} />
      <PlanFields pf={pf} />
      <div className="field">
        <label htmlFor="proposal-file">{t('fields.attachment')}</label>
        <input id="proposal-file" name="file" type="file" />
      </div>
      <div>
        <Button variant="primary">{editing ? t('details.saveProposal') : t('details.submitProposal')}</Button>
      </div>
    </Form>
  )
}

type ProposalFields = ReturnType<typeof useForm<z.input<typeof proposalFormSchema>>>[1]

/** The cover letter, the bid and the duration. */
function ProposalTermsFields({ pf, currency }: { pf: ProposalFields; currency: string }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <div className="field">
        <label htmlFor={pf.coverLetter.id}>{t('fields.coverLetter')}</label>
        <textarea {...getTextareaProps(pf.coverLetter)} key={pf.coverLetter.key} rows={6} />
        <ErrorText errors={pf.coverLetter.errors} id={pf.coverLetter.errorId} />
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor={pf.bid.id}>
            {t('fields.bid')} ({currency})
          </label>
          <input {...getInputProps(pf.bid, { type: 'text' })} key={pf.bid.key} inputMode="decimal" />
          <ErrorText errors={pf.bid.errors} id={pf.bid.errorId} />
        </div>
        <div className="field">
          <label htmlFor={pf.durationDays.id}>{t('fields.durationDays')}</label>
          <input
            {...getInputProps(pf.durationDays, { type: 'text' })}
            key={pf.durationDays.key}
            inputMode="numeric"
          />
          <ErrorText errors={pf.durationDays.errors} id={pf.durationDays.errorId} />
        </div>
      </div>
    </>
  )
}

/** The proposed plan: up to three installments, each a title and an amount. */
function PlanFields({ pf }: { pf: ProposalFields }) {
  const { t } = useTranslation('projects')
  const plan = pf.installments.getFieldList()
  return (
    <fieldset className="field plan">
      <legend>{t('details.proposedPlan')}</legend>
      <ErrorText errors={pf.installments.errors} id={pf.installments.errorId} />
      {Array.from({ length: Math.min(3, PLAN_ROWS) }, (_, i) => {
        const f = plan[i]?.getFieldset()
        return (
          <div className="row plan-row" key={i}>
            <div className="field">
              <label htmlFor={`pp-${i}-t`}>{t('fields.installmentTitle', { n: i + 1 })}</label>
              <input
                id={`pp-${i}-t`}
                name={`installments[${i}].title`}
                defaultValue={(f?.title.initialValue as string) ?? ''}
              />
              <ErrorText errors={f?.title.errors} />
            </div>
            <div className="field">
              <label htmlFor={`pp-${i}-a`}>{t('fields.installmentAmount', { n: i + 1 })}</label>
              <input
                id={`pp-${i}-a`}
                name={`installments[${i}].amount`}
                inputMode="decimal"
                defaultValue={(f?.amount.initialValue as string) ?? ''}
              />
              <ErrorText errors={f?.amount.errors} />
            </div>
          </div>
        )
      })}
    </fieldset>
  )
}

/** Questions and answers, and a question of one's own while the project is open. */
function Questions({
  project: p,
  comments,
  result,
}: {
  project: Project
  comments: Details['comments']
  result: ActionData | undefined
}) {
  const { t, i18n } = useTranslation('projects')
  const idle = useNavigation().state === 'idle'
  const [cForm, cf] = useForm({
    id: 'comment',
    lastResult: idle ? result?.comment : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: commentFormSchema }),
    shouldValidate: 'onSubmit',
  })
  return (
    <section id="questions" aria-labelledby="qa" className="ui-section">
      <h2 id="qa">{t('details.questions')}</h2>
      {comments.length ? (
        <ul className="comments">
          {comments.map((cm) => (
            <li key={cm.id} className={cm.parentId ? 'reply' : undefined}>
              <strong>{cm.author.name}</strong>{' '}
              {cm.isClient ? <Chip tone="info">{t('details.client')}</Chip> : null}{' '}
              <span className="muted small">{formatDateTime(cm.createdAt, i18n.language)}</span>
              <p className="prewrap">{cm.body}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('details.noQuestions')}</p>
      )}
      {p.status === 'open' ? (
        <Form method="post" {...getFormProps(cForm)} className="form-stack">
          <input type="hidden" name="intent" value="comment" />
          <div className="field">
            <label htmlFor={cf.body.id}>{t('details.ask')}</label>
            <textarea {...getTextareaProps(cf.body)} key={cf.body.key} rows={3} />
            <ErrorText errors={cf.body.errors} id={cf.body.errorId} />
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
