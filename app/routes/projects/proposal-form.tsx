import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import type { FormConstraint } from '~/lib/form-constraint'
import { amountText } from '#server/modules/projects/rules.ts'
import { PLAN_ROWS } from './forms'
import { ErrorText } from './ui'

interface Editing {
  id: number
  revision: number
  coverLetter: string
  bidMinor: number
  durationDays: number
  installments: Array<{ title: string; amountMinor: number; dueDate?: string }>
}

/**
 * Send a proposal, or edit the freelancer's pending one. The action parses it with the API's own
 * schema for this project (on a fixed price the installments add up to the bid), with the bid typed
 * as money, and replies with the errors; the loader gives the schema's limits (`constraint`).
 */
export function ProposalForm({
  project,
  editing,
  constraint,
  lastResult,
}: {
  project: { budgetType: 'fixed' | 'hourly'; currency: string }
  editing: Editing | null
  constraint: FormConstraint
  lastResult: unknown
}) {
  const { t } = useTranslation('projects')
  const [form, fields] = useForm({
    // A new version remounts the form with the saved values.
    id: editing ? `proposal-${editing.revision}` : 'proposal',
    lastResult: lastResult as never,
    constraint,
    defaultValue: editing
      ? {
          coverLetter: editing.coverLetter,
          bidMinor: amountText(editing.bidMinor),
          durationDays: String(editing.durationDays),
          installments: editing.installments.map((i) => ({
            title: i.title,
            amountMinor: amountText(i.amountMinor),
            dueDate: i.dueDate ?? '',
          })),
        }
      : undefined,
  })
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form-stack">
      <input type="hidden" name="intent" value={editing ? 'revise' : 'propose'} />
      {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
      <input type="hidden" name="budgetType" value={project.budgetType} />
      <div className="field">
        <label htmlFor={fields.coverLetter.id}>{t('fields.coverLetter')}</label>
        <textarea {...getTextareaProps(fields.coverLetter)} key={fields.coverLetter.key} rows={6} />
        <ErrorText errors={fields.coverLetter.errors} id={fields.coverLetter.errorId} />
      </div>
      <div className="row">
        <TextField
          field={fields.bidMinor}
          label={`${t('fields.bid')} (${project.currency})`}
          mode="decimal"
        />
        <TextField field={fields.durationDays} label={t('fields.durationDays')} mode="numeric" />
      </div>
      <ProposalPlan field={fields.installments as never} />
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

function TextField({
  field,
  label,
  mode,
}: {
  field: FieldMetadata<any>
  label: string
  mode: 'decimal' | 'numeric'
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...getInputProps(field, { type: 'text' })} key={field.key} inputMode={mode} />
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

/** The freelancer's installments (optional): a few rows, the unused ones left blank. */
function ProposalPlan({ field }: { field: FieldMetadata<Array<Record<string, unknown>> | undefined> }) {
  const { t } = useTranslation('projects')
  const plan = field.getFieldList()
  return (
    <fieldset className="field plan">
      <legend>{t('details.proposedPlan')}</legend>
      <ErrorText errors={field.errors} id={field.errorId} />
      {Array.from({ length: Math.min(3, PLAN_ROWS) }, (_, i) => {
        const f = plan[i]?.getFieldset()
        return (
          <div className="row plan-row" key={i}>
            <div className="field">
              <label htmlFor={`pp-${i}-t`}>{t('fields.installmentTitle', { n: i + 1 })}</label>
              <input
                id={`pp-${i}-t`}
                name={`installments[${i}].title`}
                defaultValue={(f?.title.initialValue as string) ?? ''}
              />
              <ErrorText errors={f?.title.errors} />
            </div>
            <div className="field">
              <label htmlFor={`pp-${i}-a`}>{t('fields.installmentAmount', { n: i + 1 })}</label>
              <input
                id={`pp-${i}-a`}
                name={`installments[${i}].amountMinor`}
                inputMode="decimal"
                defaultValue={(f?.amountMinor.initialValue as string) ?? ''}
              />
              <ErrorText errors={f?.amountMinor.errors} />
            </div>
          </div>
        )
      })}
    </fieldset>
  )
}
