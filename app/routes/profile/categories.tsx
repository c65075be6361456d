import { useState } from 'react'
import { TagInput } from '~/components/ui/tag-input'
import { useTranslation } from '~/lib/translations'
import { sectionTitle } from './kind'
import { Select, SectionForm, useProfileText } from './fields'
import {
  CancelLink,
  editHref,
  ProfileSection,
  placeholderUnless,
  useOptions,
  type Catalogue,
  type SectionState,
} from './section'
import { Facts } from './views'

/** The names of the chosen ones, in the catalogue's order ("Structural Engineering, Geotechnics"). */
const named = (options: Array<{ id: number; name: string }>, ids: number[]) =>
  options
    .filter((o) => ids.includes(o.id))
    .map((o) => o.name)
    .join(', ')

const asList = (value: unknown) =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []

/**
 * The category, its subcategories and (for a freelancer) the skills: tag inputs, which are checkbox
 * lists without JavaScript. The subcategories offered are the chosen category's; with JavaScript
 * they follow the category select at once, without it after the next Save.
 */
export function CategoriesSection({
  data,
  state,
  intent,
  categoryId,
  subcategoryIds,
  skillIds,
}: {
  data: Catalogue
  state: SectionState
  intent: 'categorization' | 'clientCategorization'
  categoryId: number | null
  subcategoryIds: number[]
  skillIds?: number[]
}) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const text = useProfileText()
  const skills = skillIds
    ? [
        ...new Map(
          data.tree.flatMap((c) => c.subcategories.flatMap((s) => s.skills.map((k) => [k.id, k] as const))),
        ).values(),
      ].sort((a, b) => a.name.localeCompare(b.name))
    : []
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
            [t('fields.skills'), skillIds ? named(skills, skillIds) : null],
          ]}
        />
      }
    >
      <SectionForm
        id="categories"
        intent={intent}
        action={editHref('categories')}
        after={<CancelLink section="categories" />}
        lastResult={state.last}
        defaultValue={{
          categoryId: categoryId?.toString() ?? '',
          subcategoryIds: subcategoryIds.map(String),
          skillIds: skillIds?.map(String) ?? [],
        }}
        submit={t('actions.save')}
      >
        {(x) => (
          <Fields
            x={x}
            data={data}
            categories={o.categories}
            skills={skills}
            withSkills={!!skillIds}
            text={text}
            placeholder={placeholderUnless(categoryId, t('fields.choose'))}
          />
        )}
      </SectionForm>
    </ProfileSection>
  )
}

function Fields({
  x,
  data,
  categories,
  skills,
  withSkills,
  text,
  placeholder,
}: {
  x: Record<string, any>
  data: Catalogue
  categories: Array<{ value: string; label: string }>
  skills: Array<{ id: number; name: string }>
  withSkills: boolean
  text: (key: string | undefined) => string | undefined
  placeholder?: string
}) {
  const { t } = useTranslation('profile')
  const [category, setCategory] = useState(String(x.categoryId.initialValue ?? ''))
  const subcategories = data.tree.find((c) => String(c.id) === category)?.subcategories ?? []
  return (
    <>
      <Select
        field={x.categoryId}
        label={t('fields.category')}
        options={categories}
        placeholder={placeholder}
        onChange={setCategory}
      />
      <TagInput
        key={category}
        name="subcategoryIds"
        legend={t('fields.subcategories')}
        options={subcategories}
        hint={subcategories.length ? undefined : t('fields.chooseCategoryFirst')}
        selected={asList(x.subcategoryIds.initialValue)}
        error={text(x.subcategoryIds.errors?.[0])}
      />
      {withSkills ? (
        <TagInput
          name="skillIds"
          legend={t('fields.skills')}
          options={skills}
          selected={asList(x.skillIds.initialValue)}
          error={text(x.skillIds.errors?.[0])}
        />
      ) : null}
    </>
  )
}
