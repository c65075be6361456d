import { useTranslation } from '~/lib/translations'
import type { LimitedField } from '~/components/ui/reply-form'
import { ErrorText } from './error-text'

/** Rows of an installment plan a form offers; the unused ones stay blank. */
export const PLAN_ROWS = 5

type Fields = Record<string, LimitedField>

/**
 * A fixed price's installment plan, in the project form and the direct offer's (decision 342). The
 * stylesheet shows it only while the fixed budget type is chosen, with or without JavaScript
 * (decision 323).
 */
export function InstallmentPlan({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  return (
    <fieldset className="field plan" data-budget="fixed">
      <legend>{t('create.plan')}</legend>
      <p className="hint">{t('create.planHint')}</p>
      <ErrorText errors={fields.installments.errors} id={fields.installments.errorId} />
      <InstallmentRows fields={fields} rows={PLAN_ROWS} dueDates />
    </fieldset>
  )
}

/**
 * The rows of a plan, named `installments[i].title`, `.amountMinor` and, with `dueDates`,
 * `.dueDate`, as the API's schemas read them: the project's, the offer's and a proposal's plan.
 */
export function InstallmentRows({
  fields,
  rows,
  dueDates = false,
}: {
  fields: Fields
  rows: number
  dueDates?: boolean
}) {
  const { t } = useTranslation('projects')
  return Array.from({ length: rows }, (_, i) => {
    const name = (part: string) => `installments[${i}].${part}`
    return (
      <div className="row plan-row" key={i}>
        <PlanInput
          name={name('title')}
          label={t('fields.installmentTitle', { n: i + 1 })}
          field={fields[name('title')]}
        />
        <PlanInput
          name={name('amountMinor')}
          label={t('fields.installmentAmount', { n: i + 1 })}
          field={fields[name('amountMinor')]}
          inputMode="decimal"
        />
        {dueDates ? (
          <PlanInput
            name={name('dueDate')}
            label={t('fields.installmentDue', { n: i + 1 })}
            field={fields[name('dueDate')]}
            type="date"
          />
        ) : null}
      </div>
    )
  })
}

function PlanInput({
  name,
  label,
  field,
  type = 'text',
  inputMode,
}: {
  name: string
  label: string
  field: LimitedField
  type?: 'text' | 'date'
  inputMode?: 'decimal'
}) {
  const id = `plan-${name.replace(/\W+/g, '-')}`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        defaultValue={field.defaultValue ?? ''}
        aria-invalid={field.errors ? true : undefined}
      />
      <ErrorText errors={field.errors} />
    </div>
  )
}
