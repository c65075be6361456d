import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { SectionForm, type ActionResult } from './fields'
import { SectionEditForm } from './section-forms'
import { editHref, ProfileSection, type SectionState } from './section'

// The freelancer's lists (education, employment, certifications, portfolio): each item with its Edit
// link and a one-button Remove form, and one item form: "add another" (`?edit=education`), or the
// item chosen by its Edit link (`?edit=education-5`). They load with the freelancer's sections.

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
      <SectionEditForm
        key={editing ? editing.id : `new-${items.length}`}
        id={id}
        section={id}
        state={state}
        intent={intent}
        defaultValue={editing ? defaults(editing) : undefined}
        item={editing ? `${id}-${editing.id}` : id}
      >
        {(x) => (
          <>
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            {fields(x)}
          </>
        )}
      </SectionEditForm>
      {editing ? extra?.(editing) : null}
    </ProfileSection>
  )
}
