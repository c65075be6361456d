import { useTranslation } from '~/lib/translations'
import {
  availabilities,
  companySizes,
  currencies,
  experienceLevels,
  genders,
  languageLevels,
} from '#server/modules/profiles/rules.ts'
import type { Catalogue } from './section'

// The choices the profile's forms offer, in the page's language: only the forms need them, so they
// load with the forms (decision 327).

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
