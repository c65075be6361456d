import { lazy, useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Notice } from '~/components/ui/notice'
import type { ActionResult } from './fields'

// The profile editor's building blocks (decision 312): a section is a Card that shows what it
// holds, read-only, and an Edit (or Add) link; `?edit=<section>` opens that section's one form and
// no other, so it works without JavaScript and Back closes it. A Save returns to the view with that
// section's own "saved" notice; an error keeps its form open with the errors under their fields.

/** What every section is handed: the action's last answer and the page's URL state. */
export interface SectionState {
  last: ActionResult | null
  /** The section whose Save just succeeded (`?saved=`). */
  saved: string | null
  /** The section (or list item) open for editing (`?edit=about`, `?edit=education-5`). */
  edit: string | null
}

/** Where a section's form opens, and where it posts: the answer to an error keeps it open. */
export const editHref = (id: string, section = id) => `/profile?edit=${id}#${section}`

/** Whether this section's form is open: the section itself or one of its items is named in `?edit=`. */
export const isEditing = (state: SectionState, id: string) =>
  state.edit === id || !!state.edit?.startsWith(`${id}-`)

/** Closes a section's form unsaved: back to its view. */
export function CancelLink({ section }: { section: string }) {
  const { t } = useTranslation('profile')
  return <Link to={`/profile#${section}`}>{t('actions.cancel')}</Link>
}

export function ProfileSection({
  id,
  title,
  state,
  lead,
  view,
  opens = 'edit',
  children,
}: {
  id: string
  title: string
  state: SectionState
  /** A hint over the open form. */
  lead?: string
  /** What the section shows while its form is closed. */
  view: React.ReactNode
  /** The word of the link that opens the form: Edit, or Add for a list of items. */
  opens?: 'edit' | 'add'
  /** The section's form, shown only while it is open. */
  children: React.ReactNode
}) {
  const { t } = useTranslation('profile')
  const editing = isEditing(state, id)
  const formArea = useRef<HTMLDivElement>(null)
  // The opened form takes the keyboard focus: its first field in error, or else its first field.
  useEffect(() => {
    const area = formArea.current
    if (!editing || !area) return
    const field =
      area.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      area.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea')
    field?.focus()
  }, [editing, state.last])
  return (
    <Card
      as="section"
      level={2}
      id={id}
      title={title}
      titleId={`${id}-title`}
      data-testid={`section-${id}`}
      data-editing={editing ? 'true' : undefined}
      status={
        editing ? null : (
          <ButtonLink to={editHref(id)}>
            {t(opens === 'add' ? 'actions.add' : 'actions.edit')}
            <span className="visually-hidden"> {title}</span>
          </ButtonLink>
        )
      }
    >
      {state.saved === id ? <Notice kind="success">{t('notice.saved')}</Notice> : null}
      {editing ? (
        <div ref={formArea}>
          {lead ? <p className="hint">{lead}</p> : null}
          {children}
        </div>
      ) : (
        view
      )}
    </Card>
  )
}

/** The catalogue lists the editor's selects and tag inputs offer. */
export interface Catalogue {
  tree: Array<{
    id: number
    name: string
    subcategories: Array<{ id: number; name: string; skills: Array<{ id: number; name: string }> }>
  }>
  countries: Array<{ code: string; name: string }>
  languages: Array<{ code: string; name: string }>
  industries: Array<{ id: number; name: string }>
}

/** Every skill of the catalogue once, by name. */
export const skillsOf = (tree: Catalogue['tree']) =>
  [
    ...new Map(
      tree.flatMap((c) => c.subcategories.flatMap((s) => s.skills.map((k) => [k.id, k] as const))),
    ).values(),
  ].sort((a, b) => a.name.localeCompare(b.name))

/**
 * One component of a module that loads the first time it renders (React.lazy of a named export). The
 * sections of each kind of account and the sections' forms are such parts, so a page downloads
 * neither the other kind's code nor a form's until it shows them (issue 38, decision 327). The server
 * renders them in full before it answers, so without JavaScript nothing changes.
 */
export function lazyPart<M extends Record<K, React.ComponentType<any>>, K extends string>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }))
}
