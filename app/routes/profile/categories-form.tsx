import { useState } from 'react'
import { TagInput } from '~/components/ui/tag-input'
import { useTranslation } from '~/lib/translations'
import { Select, useProfileText } from './fields'
import { SectionEditForm } from './section-forms'
import { placeholderUnless, useOptions } from './options'
import { skillsOf, type Catalogue, type SectionState } from './section'

// The form of the categories section, loaded when it opens (decision 327).

/** What the section and its form are handed (the section imports only this type, so the form stays lazy). */
export interface CategoriesPart {
  data: Catalogue
  state: SectionState
  intent: 'categorization' | 'clientCategorization'
  categoryId: number | null
  subcategoryIds: number[]
  skillIds?: number[]
}

const asList = (value: unknown) =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []

export function CategoriesForm({
  data,
  state,
  intent,
  categoryId,
  subcategoryIds,
  skillIds,
}: CategoriesPart) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const text = useProfileText()
  return (
    <SectionEditForm
      id="categories"
      section="categories"
      state={state}
      intent={intent}
      defaultValue={{
        categoryId: categoryId?.toString() ?? '',
        subcategoryIds: subcategoryIds.map(String),
        skillIds: skillIds?.map(String) ?? [],
      }}
    >
      {(x) => (
        <Fields
          x={x}
          data={data}
          categories={o.categories}
          skills={skillIds ? skillsOf(data.tree) : []}
          withSkills={!!skillIds}
          text={text}
          placeholder={placeholderUnless(categoryId, t('fields.choose'))}
        />
      )}
    </SectionEditForm>
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
