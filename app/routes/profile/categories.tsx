import { useTranslation } from '~/lib/translations'
import { sectionTitle } from './kind'
import type { CategoriesPart } from './categories-form'
import { lazyPart, ProfileSection, skillsOf } from './section'
import { Facts } from './views'

// Its form, with the tag inputs, loads when the section opens (decision 327).
const CategoriesForm = lazyPart(() => import('./categories-form'), 'CategoriesForm')

/** The names of the chosen ones, in the catalogue's order ("Structural Engineering, Geotechnics"). */
const named = (options: Array<{ id: number; name: string }>, ids: number[]) =>
  options
    .filter((o) => ids.includes(o.id))
    .map((o) => o.name)
    .join(', ')

/**
 * The category, its subcategories and (for a freelancer) the skills: tag inputs, which are checkbox
 * lists without JavaScript. The subcategories offered are the chosen category's; with JavaScript
 * they follow the category select at once, without it after the next Save.
 */
export function CategoriesSection(part: CategoriesPart) {
  const { data, state, categoryId, subcategoryIds, skillIds } = part
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="categories"
      title={t(sectionTitle('categories', skillIds ? 'freelancer' : 'individual'))}
      state={state}
      lead={t(skillIds ? 'fields.categorizationHint' : 'fields.interestsHint')}
      view={
        <Facts
          items={[
            [t('fields.category'), named(data.tree, [categoryId ?? 0])],
            [
              t('fields.subcategories'),
              named(
                data.tree.flatMap((c) => c.subcategories),
                subcategoryIds,
              ),
            ],
            [t('fields.skills'), skillIds ? named(skillsOf(data.tree), skillIds) : null],
          ]}
        />
      }
    >
      <CategoriesForm {...part} />
    </ProfileSection>
  )
}
