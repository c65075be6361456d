import type { SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { FormConstraint } from '~/lib/form-constraint'
import { controlProps, replyFields, useReplyForm, type LimitedField } from '~/components/ui/reply-form'
import { Button } from '~/components/ui/button'
import { ErrorText } from '~/components/projects/error-text'
import { BudgetTypeAndAmount, SubcategorySelect, TextInput } from '~/components/projects/form-fields'
import { InstallmentPlan } from '~/components/projects/installment-plan'

type CategoryTree = Array<{ id: number; name: string; subcategories: Array<{ id: number; name: string }> }>
type Fields = Record<string, LimitedField>

/**
 * The direct offer's form (decision 342): the work, the price (a fixed price with its installments,
 * or an hourly rate and weekly hours: the stylesheet shows the chosen type's group, as the project
 * form does), a message and how long the offer stands. A plain form; the API's schema parses it.
 */
export function OfferForm({
  tree,
  constraint,
  lastResult,
  defaultValue,
}: {
  tree: CategoryTree
  constraint: FormConstraint
  lastResult: unknown
  defaultValue: Record<string, string>
}) {
  const { t } = useTranslation('projects')
  const reply = lastResult as SubmissionResult<string[]> | undefined
  const form = useReplyForm(reply, 'offer')
  const fields = replyFields(reply, 'offer', defaultValue, constraint)
  return (
    <Form
      method="post"
      id="offer"
      ref={form.ref}
      key={form.key}
      noValidate
      className="form-stack project-form"
    >
      <ErrorText errors={form.errors} id="offer-error" />
      <input type="hidden" name="freelancerId" value={defaultValue.freelancerId} />
      <ErrorText errors={fields.freelancerId.errors} id={fields.freelancerId.errorId} />
      <TextInput field={fields.title} label={t('fields.title')} />
      <div className="field">
        <label htmlFor={fields.description.id}>{t('fields.description')}</label>
        <textarea {...controlProps(fields.description)} rows={6} />
        <ErrorText errors={fields.description.errors} id={fields.description.errorId} />
      </div>
      <SubcategorySelect field={fields.subcategoryId} tree={tree} />
      <PriceFields fields={fields} />
      <fieldset className="field" data-budget="hourly">
        <legend>{t('offers.hourly')}</legend>
        <TextInput field={fields.weeklyHours} label={t('fields.hoursPerWeek')} inputMode="numeric" />
      </fieldset>
      <InstallmentPlan fields={fields} />
      <div className="field">
        <label htmlFor={fields.message.id}>{t('offers.message')}</label>
        <textarea {...controlProps(fields.message)} rows={4} />
        <ErrorText errors={fields.message.errors} id={fields.message.errorId} />
      </div>
      <TextInput
        field={fields.expiresInDays}
        label={t('offers.expiresInDays')}
        hint={t('offers.expiresHint')}
        inputMode="numeric"
      />
      <div>
        <Button variant="primary">{t('offers.send')}</Button>
      </div>
    </Form>
  )
}

/** Fixed or hourly, the price or rate and its currency, and how long the work takes. */
function PriceFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <BudgetTypeAndAmount fields={fields} label={t('offers.price')} hint={t('offers.priceHint')} />
      <TextInput field={fields.durationDays} label={t('fields.durationDays')} inputMode="numeric" />
    </>
  )
}
