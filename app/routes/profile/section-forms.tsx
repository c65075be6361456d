import { useTranslation } from '~/lib/translations'
import { limits } from '#server/modules/profiles/rules.ts'
import { Input, SectionForm, Select } from './fields'
import { placeholderUnless, type Options } from './options'
import { CancelLink, editHref, type SectionState } from './section'

// What the forms of the profile's sections share. Its own module: fields.tsx (used beyond the profile)
// and section.tsx (in every profile page's first download) stay apart, and only the forms, loaded
// when one opens (decision 327), need both.

/**
 * The form of an open section (decision 312): it posts to the section, so an error keeps it open, and
 * its Save sits beside a Cancel link back to the section's view.
 */
export function SectionEditForm({
  section,
  item = section,
  state,
  id,
  intent = id,
  ...form
}: Omit<React.ComponentProps<typeof SectionForm>, 'intent' | 'action' | 'after' | 'lastResult' | 'submit'> & {
  section: string
  /** What `?edit=` names while the form is open: the section, or one of its items (`education-5`). */
  item?: string
  state: SectionState
  /** The form's intent, when it is not its id. */
  intent?: string
}) {
  const { t } = useTranslation('profile')
  return (
    <SectionForm
      {...form}
      id={id}
      intent={intent}
      action={editHref(item, section)}
      after={<CancelLink section={section} />}
      lastResult={state.last}
      submit={t('actions.save')}
    />
  )
}

/** Where someone is: a country (once chosen, never emptied by mistake) and a city. */
export function PlaceFields({
  x,
  o,
  country,
}: {
  x: Record<string, any>
  o: Options
  country: string | null
}) {
  const { t } = useTranslation('profile')
  return (
    <>
      <Select
        field={x.country}
        label={t('fields.country')}
        options={o.countries}
        placeholder={placeholderUnless(country, t('fields.choose'))}
      />
      <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
    </>
  )
}
