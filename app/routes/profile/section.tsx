import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { useEffect, useRef } from 'react'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Notice } from '~/components/ui/notice'
import { SectionForm, type ActionResult } from './fields'
import {
  availabilities,
  companySizes,
  currencies,
  experienceLevels,
  genders,
  languageLevels,
} from '#server/modules/profiles/rules.ts'

// The profile editor's building blocks (decision 312): a section is a Card that shows what it
// holds, read-only, and an Edit (or Add) link; `?edit=<section>` opens that section's one form and
// no other, so it works without JavaScript and Back closes it. A Save returns to the view with that
// section's own "saved" notice; an error keeps its form open with the errors under their fields.
// List sections (education, positions…) open one item form: "add another" (`?edit=education`), or
// the item chosen by its Edit link (`?edit=education-5`).

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

/** A one-button form that removes something (a list item, a language, the schedule of rates). */
export function RemoveButton({
  intent,
  section,
  fields,
  label,
  last,
}: {
  intent: string
  section: string
  fields: Record<string, string | number>
  label: string
  last: ActionResult | null
}) {
  const key = Object.values(fields).join('-')
  return (
    <SectionForm
      id={key ? `${intent}-${key}` : intent}
      intent={intent}
      action={`/profile#${section}`}
      lastResult={last}
      submit={label}
      danger
      className="inline-form"
    >
      {() =>
        Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))
      }
    </SectionForm>
  )
}

export function ListSection<I extends { id: number }>({
  id,
  title,
  items,
  state,
  intent,
  describe,
  defaults,
  fields,
  extra,
}: {
  id: string
  title: string
  items: I[]
  state: SectionState
  intent: string
  describe: (item: I) => string
  defaults: (item: I) => Record<string, string>
  fields: (x: Record<string, any>) => React.ReactNode
  /** What an item shows when it is open for editing, under its form (its files). */
  extra?: (item: I) => React.ReactNode
}) {
  const { t } = useTranslation('profile')
  const editing = items.find((item) => state.edit === `${id}-${item.id}`) ?? null
  const view = items.length ? (
    <ul className="file-list">
      {items.map((item) => (
        <li key={item.id}>
          <span>{describe(item)}</span>
          <Link to={editHref(`${id}-${item.id}`, id)}>
            {t('actions.edit')}
            <span className="visually-hidden"> {describe(item)}</span>
          </Link>
          <RemoveButton
            intent={`${intent}Delete`}
            section={id}
            fields={{ id: item.id }}
            label={t('actions.remove')}
            last={state.last}
          />
        </li>
      ))}
    </ul>
  ) : (
    <p className="hint">{t('page.empty')}</p>
  )
  return (
    <ProfileSection id={id} title={title} state={state} view={view} opens="add">
      <h3>{editing ? t('actions.editing', { name: describe(editing) }) : t('actions.addNew')}</h3>
      <SectionForm
        key={editing ? editing.id : `new-${items.length}`}
        id={id}
        intent={intent}
        action={editHref(editing ? `${id}-${editing.id}` : id, id)}
        lastResult={state.last}
        defaultValue={editing ? defaults(editing) : undefined}
        submit={t('actions.save')}
        after={<CancelLink section={id} />}
      >
        {(x) => (
          <>
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            {fields(x)}
          </>
        )}
      </SectionForm>
      {editing ? extra?.(editing) : null}
    </ProfileSection>
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

export function useOptions(data: Catalogue) {
  const { t } = useTranslation('profile')
  return {
    countries: data.countries.map((c) => ({ value: c.code, label: c.name })),
    languages: data.languages.map((l) => ({ value: l.code, label: l.name })),
    industries: data.industries.map((i) => ({ value: String(i.id), label: i.name })),
    categories: data.tree.map((c) => ({ value: String(c.id), label: c.name })),
    levels: experienceLevels.map((v) => ({ value: v, label: t(`experience.${v}`) })),
    availability: availabilities.map((v) => ({ value: v, label: t(`availability.${v}`) })),
    genders: genders.map((v) => ({ value: v, label: t(`gender.${v}`) })),
    languageLevels: languageLevels.map((v) => ({ value: v, label: t(`languageLevel.${v}`) })),
    currencies: currencies.map((v) => ({ value: v, label: v })),
    sizes: companySizes.map((v) => ({ value: v, label: t(`companySize.${v}`) })),
  }
}

/** The option lists of `useOptions`, handed to the sections that offer them. */
export type Options = ReturnType<typeof useOptions>

/** A select's placeholder only while nothing is chosen: a chosen value cannot be emptied by mistake. */
export const placeholderUnless = (value: unknown, text: string) => (value ? undefined : text)
