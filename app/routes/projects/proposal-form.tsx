import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import type { FormConstraint } from '~/lib/form-constraint'
import { controlProps, replyFields, useReplyForm, type LimitedField } from '~/components/ui/reply-form'
import { amountText } from '#server/modules/projects/rules.ts'
import { ErrorText } from '~/components/projects/error-text'
import { TextInput } from '~/components/projects/form-fields'
import { InstallmentRows } from '~/components/projects/installment-plan'

interface Editing {
  id: number
  revision: number
  coverLetter: string
  bidMinor: number
  durationDays: number
  weeklyHours?: number | null
  installments: Array<{ title: string; amountMinor: number; dueDate?: string }>
}

/**
 * Send a proposal, or edit the freelancer's pending one. The action parses it with the API's own
 * schema for this project (on a fixed price the installments add up to the bid; on an hourly one
 * the bid is a rate with hours a week), with the bid typed as money, and replies with the errors;
 * the loader gives the schema's limits (`constraint`).
 */
export function ProposalForm({
  project,
  editing,
  constraint,
  lastResult,
}: {
  project: { budgetType: 'fixed' | 'hourly'; currency: string; hoursPerWeek?: number | null }
  editing: Editing | null
  constraint: FormConstraint
  lastResult: unknown
}) {
  const { t } = useTranslation(['projects', 'hourly'])
  // A new version remounts the form with the saved values.
  const id = editing ? `proposal-${editing.revision}` : 'proposal'
  const reply = lastResult as SubmissionResult<string[]> | undefined
  const form = useReplyForm(reply, id)
  const defaults = editing
    ? {
        coverLetter: editing.coverLetter,
        bidMinor: amountText(editing.bidMinor),
        durationDays: String(editing.durationDays),
        weeklyHours: editing.weeklyHours == null ? '' : String(editing.weeklyHours),
        installments: editing.installments.map((i) => ({
          title: i.title,
          amountMinor: amountText(i.amountMinor),
          dueDate: i.dueDate ?? '',
        })),
      }
    : // A new hourly proposal starts from the hours a week the client expects.
      project.hoursPerWeek
      ? { weeklyHours: String(project.hoursPerWeek) }
      : undefined
  const fields = replyFields(reply, id, defaults, constraint)
  const hourly = project.budgetType === 'hourly'
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      id={id}
      ref={form.ref}
      key={form.key}
      noValidate
      className="form-stack"
    >
      <input type="hidden" name="intent" value={editing ? 'revise' : 'propose'} />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <input type="hidden" name="budgetType" value={project.budgetType} />
      <div className="field">
        <label htmlFor={fields.coverLetter.id}>{t('fields.coverLetter')}</label>
        <textarea {...controlProps(fields.coverLetter)} rows={6} />
        <ErrorText errors={fields.coverLetter.errors} id={fields.coverLetter.errorId} />
      </div>
      <div className="row">
        <TextInput
          field={fields.bidMinor}
          label={`${hourly ? t('fields.rate') : t('fields.bid')} (${project.currency})`}
          inputMode="decimal"
        />
        {hourly ? (
          <TextInput field={fields.weeklyHours} label={t('fields.weeklyHours')} inputMode="numeric" />
        ) : null}
        <TextInput field={fields.durationDays} label={t('fields.durationDays')} inputMode="numeric" />
      </div>
      {/* An hourly proposal is paid by the week, so it has no installments (decision 323). */}
      {hourly ? <p className="hint">{t('hourly:rateHint')}</p> : <ProposalPlan fields={fields} />}
      <div className="field">
        <label htmlFor="proposal-file">{t('fields.attachment')}</label>
        <input id="proposal-file" name="file" type="file" />
      </div>
      <div>
        <Button variant="primary">{editing ? t('details.saveProposal') : t('details.submitProposal')}</Button>
      </div>
    </Form>
  )
}

/** The freelancer's installments (optional): three rows, the unused ones left blank. */
function ProposalPlan({ fields }: { fields: Record<string, LimitedField> }) {
  const { t } = useTranslation('projects')
  return (
    <fieldset className="field plan">
      <legend>{t('details.proposedPlan')}</legend>
      <ErrorText errors={fields.installments.errors} id={fields.installments.errorId} />
      <InstallmentRows fields={fields} rows={3} />
    </fieldset>
  )
}
