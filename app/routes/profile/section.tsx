import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Card, Notice } from '~/components/ui'
import type { z } from 'zod'
import { profileForms as f } from './forms'
import { SectionForm, type ActionResult } from './fields'
import {
  availabilities,
  companySizes,
  currencies,
  experienceLevels,
  genders,
  languageLevels,
} from '#server/modules/profiles/rules.ts'

// The profile editor's building blocks: a section is a Card with one form and one Save, its own
// "saved" notice and its own errors (decision 130). List sections (education, positions…) keep one
// item form too: "add another", or the item chosen by its Edit link (`?edit=education-5`), which
// needs no JavaScript.

/** What every section is handed: the action's last answer and the page's URL state. */
export interface SectionState {
  last: ActionResult | null
  /** The section whose Save just succeeded (`?saved=`). */
  saved: string | null
  /** The list item open for editing (`?edit=education-5`). */
  edit: string | null
}

export function ProfileSection({
  id,
  title,
  state,
  lead,
  children,
}: {
  id: string
  title: string
  state: SectionState
  lead?: string
  children: React.ReactNode
}) {
  const { t } = useTranslation('profile')
  return (
    <Card as="section" level={2} id={id} title={title} titleId={`${id}-title`} data-testid={`section-${id}`}>
      {state.saved === id ? <Notice kind="success">{t('notice.saved')}</Notice> : null}
      {lead ? <p className="hint">{lead}</p> : null}
      {children}
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
  schema,
}: {
  intent: string
  section: string
  fields: Record<string, string | number>
  label: string
  last: ActionResult | null
  schema: z.ZodType
}) {
  const key = Object.values(fields).join('-')
  return (
    <SectionForm
      id={key ? `${intent}-${key}` : intent}
      intent={intent}
      action={`/profile#${section}`}
      schema={schema}
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
  schema,
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
  schema: (typeof f)[keyof typeof f]
  describe: (item: I) => string
  defaults: (item: I) => Record<string, string>
  fields: (x: Record<string, any>) => React.ReactNode
  /** What an item shows when it is open for editing, under its form (its files). */
  extra?: (item: I) => React.ReactNode
}) {
  const { t } = useTranslation('profile')
  const editing = items.find((item) => state.edit === `${id}-${item.id}`) ?? null
  return (
    <ProfileSection id={id} title={title} state={state}>
      {items.length ? (
        <ul className="file-list">
          {items.map((item) => (
            <li key={item.id}>
              <span>{describe(item)}</span>
              <Link to={`/profile?edit=${id}-${item.id}#${id}`}>
                {t('actions.edit')}
                <span className="visually-hidden"> {describe(item)}</span>
              </Link>
              <RemoveButton
                intent={`${intent}Delete`}
                section={id}
                fields={{ id: item.id }}
                schema={f.remove}
                label={t('actions.remove')}
                last={state.last}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('page.empty')}</p>
      )}
      <h3>{editing ? t('actions.editing', { name: describe(editing) }) : t('actions.addNew')}</h3>
      <SectionForm
        key={editing ? editing.id : `new-${items.length}`}
        id={id}
        intent={intent}
        schema={schema}
        action={editing ? `/profile?edit=${id}-${editing.id}#${id}` : `/profile#${id}`}
        lastResult={state.last}
        defaultValue={editing ? defaults(editing) : undefined}
        submit={t('actions.save')}
        after={editing ? <Link to={`/profile#${id}`}>{t('actions.cancel')}</Link> : null}
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
