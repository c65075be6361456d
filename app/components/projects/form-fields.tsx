import { useTranslation } from '~/lib/translations'
import { budgetTypes, currencies } from '#server/modules/projects/rules.ts'
import { controlProps, type LimitedField } from '~/components/ui/reply-form'
import { ErrorText } from './error-text'

// The fields the project form and the direct offer's form (decision 342) both have: a text input
// with its label, hint and error, the subcategory, and the budget's type, amount and currency.

type Fields = Record<string, LimitedField>

/** A labelled text or date input with its hint and first error. */
export function TextInput({
  field,
  label,
  hint,
  type = 'text',
  inputMode,
}: {
  field: LimitedField
  label: string
  hint?: string
  type?: 'text' | 'date'
  inputMode?: 'decimal' | 'numeric'
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...controlProps(field)} type={type} inputMode={inputMode} />
      {hint ? <p className="hint">{hint}</p> : null}
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

/** The subcategory, under its category (a project's, and a direct offer's). */
export function SubcategorySelect({
  field,
  tree,
}: {
  field: LimitedField
  tree: Array<{ id: number; name: string; subcategories: Array<{ id: number; name: string }> }>
}) {
  const { t } = useTranslation('projects')
  return (
    <div className="field">
      <label htmlFor={field.id}>{t('fields.subcategory')}</label>
      <select {...controlProps(field)}>
        <option value="">{t('create.choose')}</option>
        {tree.map((c) => (
          <optgroup key={c.id} label={c.name}>
            {c.subcategories.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

/** Fixed or hourly, then the amount and its currency: the project form's, and the direct offer's (decision 342). */
export function BudgetTypeAndAmount({
  fields,
  label,
  hint,
}: {
  fields: Fields
  label: string
  hint: string
}) {
  const { t } = useTranslation('projects')
  return (
    <>
      <fieldset className="field">
        <legend>{t('fields.budgetType')}</legend>
        {budgetTypes.map((b) => (
          <label key={b} className="radio">
            <input
              type="radio"
              name={fields.budgetType.name}
              value={b}
              defaultChecked={fields.budgetType.defaultValue === b}
            />{' '}
            {t(`budgetType.${b}`)}
          </label>
        ))}
        <ErrorText errors={fields.budgetType.errors} id={fields.budgetType.errorId} />
      </fieldset>
      <div className="row">
        <TextInput field={fields.budgetMinor} label={label} hint={hint} inputMode="decimal" />
        <div className="field">
          <label htmlFor={fields.currency.id}>{t('fields.currency')}</label>
          <select {...controlProps(fields.currency)}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </div>
    </>
  )
}
