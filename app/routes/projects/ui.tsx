import type React from 'react'
import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import { useWords, type Wording } from '~/lib/words'
import { ActionForm, Button, type ButtonVariant } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Notice } from '~/components/ui/notice'
import { StatusChip } from '~/components/ui/status-chip'
import { Toolbar } from '~/components/ui/toolbar'
import { Confirm } from '~/components/ui/confirm'

// Small pieces shared by the project screens.

/** How many of a contract's installments are approved or released, of those it keeps (a removed one, decision 326, is no part of it). */
export function progressOf(installments: ReadonlyArray<{ status: string }>) {
  const kept = installments.filter((i) => i.status !== 'removed')
  return {
    done: kept.filter((i) => i.status === 'approved' || i.status === 'released').length,
    total: kept.length,
  }
}
export interface Named {
  id: number
  name: string
}
export interface ProjectCardData {
  id: number
  title: string
  excerpt: string
  status: string
  category: Named | null
  subcategory: Named | null
  skills: Named[]
  budgetType: string
  budgetMinor: number
  budgetMinMinor?: number | null
  hoursPerWeek?: number | null
  currency: string
  experienceLevel: string | null
  /** The day the client needs the work by (YYYY-MM-DD), if they named one. */
  deadline?: string | null
  remote: boolean
  location: string | null
  country: string | null
  proposalCount: number
  /** Why an admin returned the project (its client's list only; decision 339). */
  reviewReason?: string | null
  publishedAt: string | null
  createdAt: string
  client: { id: number; name: string }
}

/** An amount in the page's language, as its loader worded it (`~/lib/words`). */
export function Money({ minor, currency }: { minor: number; currency: string }) {
  return <>{useWords().money(minor, currency)}</>
}

interface BudgetData {
  budgetType: string
  budgetMinor: number
  budgetMinMinor?: number | null
  hoursPerWeek?: number | null
  currency: string
}

/** A project's budget: "€1,500.00 fixed price", or its rates and hours ("€40.00–€60.00 / hour · 20 h a week"). */
export function Budget({ p }: { p: BudgetData }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  if (p.budgetType !== 'hourly')
    return (
      <>
        <Money minor={p.budgetMinor} currency={p.currency} /> {t('budget.fixed')}
      </>
    )
  const range = words.moneyRange(p.budgetMinMinor ?? p.budgetMinor, p.budgetMinor, p.currency)
  return (
    <span data-testid="project-budget">
      {t('budget.hourlyRange', { range })}
      {p.hoursPerWeek ? ` · ${t('budget.hoursPerWeek', { count: p.hoursPerWeek })}` : ''}
    </span>
  )
}

interface ProjectCardProps {
  p: ProjectCardData
  href: string
  /** The Save button, for a signed-in reader who is not the project's client: saved or not, and the page it comes back to. */
  save?: { saved: boolean; action: string }
}

/** Where the work is done: anywhere, its location, its country in the reader's language, or on site. */
export function ProjectPlace({ p }: { p: Pick<ProjectCardData, 'remote' | 'location' | 'country'> }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  if (p.remote) return t('fields.remote')
  return p.location ?? (p.country ? words.country(p.country) : t('fields.onSite'))
}

/** A project's `Budget` and `Deadline`, for its page's loader to word (`~/lib/words`). */
export function wordBudget(words: Wording, p: BudgetData & { deadline?: string | null }) {
  words.money(p.budgetMinor, p.currency)
  if (p.budgetType === 'hourly') words.money(p.budgetMinMinor ?? p.budgetMinor, p.currency)
  if (p.deadline) words.date(p.deadline)
}

/** The amounts, dates and countries of `ProjectCard`s, for their page's loader to word (`~/lib/words`). */
export function wordProjectCards(words: Wording, projects: readonly ProjectCardData[]) {
  for (const p of projects) {
    wordBudget(words, p)
    words.date(p.publishedAt ?? p.createdAt)
    if (!p.remote && !p.location && p.country) words.country(p.country)
  }
}

/** A project in a list (Find Project, My Projects, saved projects), with its Save button when given. */
export function ProjectCard({ p, href, save }: ProjectCardProps) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return (
    <Card
      data-testid="project-card"
      titleId={`project-${p.id}-title`}
      title={<Link to={href}>{p.title}</Link>}
      status={<StatusChip machine="project" state={p.status} />}
      meta={
        <>
          <Budget p={p} /> · {p.subcategory?.name ?? p.category?.name ?? ''} · <ProjectPlace p={p} />
          {p.experienceLevel ? ` · ${t(`level.${p.experienceLevel}`)}` : ''}
        </>
      }
    >
      <p>{p.excerpt}</p>
      {p.reviewReason ? (
        <Notice kind="warning" title={t('client.returnedTitle')} data-testid="review-reason">
          {t('client.returned', { reason: p.reviewReason })}
        </Notice>
      ) : null}
      <p className="muted small">
        {p.skills.map((s) => s.name).join(', ')}
        {p.skills.length ? ' · ' : ''}
        {t('list.proposals', { count: p.proposalCount })} · {words.date(p.publishedAt ?? p.createdAt)}
        {p.deadline ? (
          <>
            {' · '}
            <Deadline day={p.deadline} />
          </>
        ) : null}
      </p>
      {save ? <SaveButton projectId={p.id} saved={save.saved} action={save.action} /> : null}
    </Card>
  )
}

/** The day a client needs the work by, in the reader's language ("Deadline: 1 Aug 2026"). */
export function Deadline({ day }: { day: string }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return <span data-testid="project-deadline">{t('list.deadline', { date: words.date(day) })}</span>
}

/** A one-button form of the project pages (accept, fund, save…): the design system's ActionForm. */
export function ActionButton({
  intent,
  label,
  fields,
  variant = 'secondary',
  confirm,
  action,
  describedBy,
}: {
  intent: string
  label: string
  fields?: Record<string, string | number>
  variant?: ButtonVariant
  confirm?: { question: string; yes: string }
  action?: string
  describedBy?: string
}) {
  if (confirm)
    return (
      <Confirm
        label={label}
        variant={variant}
        action={action}
        describedBy={describedBy}
        fields={{ intent, ...fields }}
        {...confirm}
      />
    )
  return (
    <ActionForm
      intent={intent}
      label={label}
      fields={fields}
      variant={variant}
      action={action}
      describedBy={describedBy}
    />
  )
}

/** A list of downloadable files; with `removable`, each has a Remove form (intent remove-file). */
export function Attachments({
  files,
  removable = false,
}: {
  files: Array<{ id: number; name: string; url: string; size: number }>
  removable?: boolean
}) {
  const { t } = useTranslation('projects')
  if (!files.length) return null
  return (
    <ul className="file-list" aria-label={t('fields.attachments')}>
      {files.map((f) => (
        <li key={f.id}>
          <a href={`/projects/files/${f.id}`} download={f.name}>
            {f.name}
          </a>{' '}
          <span className="muted small">({Math.max(1, Math.round(f.size / 1024))} KB)</span>
          {removable ? (
            <ActionButton
              intent="remove-file"
              fields={{ id: f.id }}
              label={t('client.removeFile', { name: f.name })}
              variant="destructive"
            />
          ) : null}
        </li>
      ))}
    </ul>
  )
}

/** Save or unsave a project from a card (a plain POST to the page, which comes back to the same URL). */
export function SaveButton({
  projectId,
  saved,
  action,
}: {
  projectId: number
  saved: boolean
  action: string
}) {
  const { t } = useTranslation('projects')
  return (
    <ActionButton
      intent={saved ? 'unwish' : 'wish'}
      fields={{ projectId }}
      action={action}
      label={saved ? t('details.unsave') : t('details.save')}
      describedBy={`project-${projectId}-title`}
    />
  )
}

/** The amounts of a `PlanList`, for its page's loader to word. */
export function wordPlan(words: Wording, items: ReadonlyArray<{ amountMinor: number }>, currency: string) {
  for (const i of items) words.money(i.amountMinor, currency)
}

/** An installment plan (the client's or a proposal's): title, amount and due date of each. */
export function PlanList({
  items,
  currency,
}: {
  items: Array<{ title: string; amountMinor: number; dueDate?: string }>
  currency: string
}) {
  if (!items.length) return null
  return (
    <ol>
      {items.map((i, n) => (
        <li key={n}>
          {i.title} — <Money minor={i.amountMinor} currency={currency} />
          {i.dueDate ? ` (${i.dueDate})` : ''}
        </li>
      ))}
    </ol>
  )
}

/** A My-list URL's page (1 when absent or not a number). */
export const pageOf = (url: URL) => Math.max(1, Number(url.searchParams.get('page')) || 1)

/** A My-list URL's status, when it is one of `states`. */
export const statusOf = <S extends string>(url: URL, states: readonly S[]) =>
  states.find((s) => s === url.searchParams.get('status'))

/** The status filter of My Projects and My Proposals: a GET form in the toolbar, so it works without JavaScript. */
export function StatusFilter({
  machine,
  states,
  status,
  children,
}: {
  machine: 'project' | 'proposal'
  states: readonly string[]
  status: string
  children?: React.ReactNode
}) {
  const { t } = useTranslation(['projects', 'ui'])
  return (
    <Toolbar label={t('list.filters')}>
      <Form method="get">
        <label htmlFor="status">
          {t('fields.status')}
          <select id="status" name="status" defaultValue={status}>
            <option value="">{t('list.any')}</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {t(`ui:status.${machine}.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <Button>{t('list.apply')}</Button>
      </Form>
      {children}
    </Toolbar>
  )
}
