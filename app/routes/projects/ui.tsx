import type React from 'react'
import { Form, Link } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import { formatDate, formatMoney } from '~/lib/format'

// Small pieces shared by the project screens.
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
  currency: string
  experienceLevel: string | null
  remote: boolean
  location: string | null
  country: string | null
  proposalCount: number
  publishedAt: string | null
  createdAt: string
  client: { id: number; name: string }
}

export function Money({ minor, currency }: { minor: number; currency: string }) {
  const { i18n } = useTranslation()
  return <>{formatMoney(minor, currency, i18n.language)}</>
}

export function Status({ value }: { value: string }) {
  const { t } = useTranslation('projects')
  return <span className={`badge badge-${value}`}>{t(`status.${value}`)}</span>
}

export function Budget({ p }: { p: { budgetType: string; budgetMinor: number; currency: string } }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <Money minor={p.budgetMinor} currency={p.currency} /> {p.budgetType === 'hourly' ? t('budget.perHour') : t('budget.fixed')}
    </>
  )
}

export function ProjectCard({ p, href, children }: { p: ProjectCardData; href: string; children?: React.ReactNode }) {
  const { t, i18n } = useTranslation('projects')
  return (
    <article className="card project-card" data-testid="project-card">
      <h3 id={`project-${p.id}-title`}>
        <Link to={href}>{p.title}</Link>
      </h3>
      <p className="muted">
        <Budget p={p} /> · {p.subcategory?.name ?? p.category?.name ?? ''} · {p.remote ? t('fields.remote') : (p.location ?? p.country ?? t('fields.onSite'))}
        {p.experienceLevel ? ` · ${t(`level.${p.experienceLevel}`)}` : ''}
      </p>
      <p>{p.excerpt}</p>
      <p className="muted small">
        {p.skills.map((s) => s.name).join(', ')}
        {p.skills.length ? ' · ' : ''}
        {t('list.proposals', { count: p.proposalCount })} · {p.publishedAt ? formatDate(p.publishedAt, i18n.language) : formatDate(p.createdAt, i18n.language)} · <Status value={p.status} />
      </p>
      {children}
    </article>
  )
}

/** Previous/next links that keep the other parameters of the URL. */
export function Pager({ url, page, pageSize, total }: { url: string; page: number; pageSize: number; total: number }) {
  const { t } = useTranslation('projects')
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const to = (n: number) => {
    const u = new URL(url, 'http://x')
    u.searchParams.set('page', String(n))
    return `${u.pathname}?${u.searchParams}`
  }
  if (pages <= 1) return null
  return (
    <nav className="pager" aria-label={t('list.pages')}>
      {page > 1 ? <Link to={to(page - 1)}>{t('list.previous')}</Link> : null}
      <span>{t('list.pageOf', { page, pages: total >= 1000 ? `${pages}+` : pages })}</span>
      {page < pages ? <Link to={to(page + 1)}>{t('list.next')}</Link> : null}
    </nav>
  )
}

/** A one-button form (accept, reject, save…): a plain POST that works without JavaScript. */
export function ActionButton({ intent, label, fields = {}, className = 'button', confirm, action, describedBy }: { intent: string; label: string; fields?: Record<string, string | number>; className?: string; confirm?: string; action?: string; describedBy?: string }) {
  return (
    <Form method="post" action={action} className="inline-form" onSubmit={confirm ? (e) => !window.confirm(confirm) && e.preventDefault() : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={className} aria-describedby={describedBy}>
        {label}
      </button>
    </Form>
  )
}

export function ErrorText({ errors, id }: { errors?: string[]; id?: string }) {
  const { t } = useTranslation('projects')
  const first = errors?.[0]
  return first ? (
    <p className="field-error" id={id} role="alert">
      {t(first, { defaultValue: first })}
    </p>
  ) : null
}

/** A list of downloadable files; with `removable`, each has a Remove form (intent remove-file). */
export function Attachments({ files, removable = false }: { files: Array<{ id: number; name: string; url: string; size: number }>; removable?: boolean }) {
  const { t } = useTranslation('projects')
  if (!files.length) return null
  return (
    <ul className="file-list" aria-label={t('fields.attachments')}>
      {files.map((f) => (
        <li key={f.id}>
          <a href={`/projects/files/${f.id}`} download={f.name}>{f.name}</a> <span className="muted small">({Math.max(1, Math.round(f.size / 1024))} KB)</span>
          {removable ? <ActionButton intent="remove-file" fields={{ id: f.id }} label={t('client.removeFile', { name: f.name })} /> : null}
        </li>
      ))}
    </ul>
  )
}

/** Save or unsave a project from a card (a plain POST to the page, which comes back to the same URL). */
export function SaveButton({ projectId, saved, action }: { projectId: number; saved: boolean; action: string }) {
  const { t } = useTranslation('projects')
  return (
    <ActionButton intent={saved ? 'unwish' : 'wish'} fields={{ projectId }} action={action} label={saved ? t('details.unsave') : t('details.save')} describedBy={`project-${projectId}-title`} />
  )
}

/** An installment plan (the client's or a proposal's): title, amount and due date of each. */
export function PlanList({ items, currency }: { items: Array<{ title: string; amountMinor: number; dueDate?: string }>; currency: string }) {
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
export const statusOf = <S extends string>(url: URL, states: readonly S[]) => states.find((s) => s === url.searchParams.get('status'))

/** The status filter of My Projects and My Proposals: a GET form, so it works without JavaScript. */
export function StatusFilter({ states, status }: { states: readonly string[]; status: string }) {
  const { t } = useTranslation('projects')
  return (
    <Form method="get" className="filters">
      <label htmlFor="status">{t('fields.status')}</label>{' '}
      <select id="status" name="status" defaultValue={status}>
        <option value="">{t('list.any')}</option>
        {states.map((s) => (
          <option key={s} value={s}>
            {t(`status.${s}`)}
          </option>
        ))}
      </select>{' '}
      <button type="submit" className="button">
        {t('list.apply')}
      </button>
    </Form>
  )
}
