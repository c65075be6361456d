import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type DefaultValue,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import type { z } from 'zod'
import { useTranslation } from '~/lib/translations'
import { useNavigation, Form } from 'react-router'
import { budgetTypes, currencies, experienceLevels } from '#server/modules/projects/rules.ts'
import type { projectInput } from '#server/modules/projects/contract.ts'
import type { FormConstraint } from '~/lib/form-constraint'
import { PLAN_ROWS } from './forms'
import { ErrorText } from './ui'
import { Button, ButtonGroup } from '~/components/ui/button'
import { TagInput } from '~/components/ui/tag-input'

type CategoryTree = Array<{
  id: number
  name: string
  subcategories: Array<{ id: number; name: string; skills: Array<{ id: number; name: string }> }>
}>
export type ProjectFormValues = Record<string, string | string[] | Array<Record<string, string>> | undefined>

type Fields = ReturnType<typeof useForm<z.input<typeof projectInput>, z.output<typeof projectInput>>>[1]

/** The project form of Create Project and Edit Project: one multipart form, the attachment rides along. */
export function ProjectForm({
  tree,
  constraint,
  lastResult,
  defaultValue,
  status,
}: {
  tree: CategoryTree
  constraint: FormConstraint
  lastResult: unknown
  defaultValue: ProjectFormValues
  status?: 'draft' | 'open'
}) {
  const { t } = useTranslation('projects')
  const navigation = useNavigation()
  // The action parses with the API's own schema (an amount such as "1500.50" becomes its value
  // there) and replies with the errors; the browser only has the schema's limits as HTML attributes.
  const [form, fields] = useForm<z.input<typeof projectInput>, z.output<typeof projectInput>>({
    lastResult:
      navigation.state === 'idle' ? (lastResult as SubmissionResult<string[]> | undefined) : undefined,
    constraint,
    // The form's values as text (what inputs hold), not the schema's parsed types.
    defaultValue: defaultValue as DefaultValue<z.input<typeof projectInput>>,
  })
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form-stack">
      <ErrorText errors={form.errors} id={form.errorId} />
      <WorkFields fields={fields} tree={tree} />
      <BudgetFields fields={fields} />
      <PlaceFields fields={fields} />
      <PlanFields fields={fields} />
      <div className="field">
        <label htmlFor="project-file">{t('fields.attachment')}</label>
        <input
          id="project-file"
          name="file"
          type="file"
          accept=".pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip,.png,.jpg,.jpeg,.gif,.tiff,.bpg"
        />
        <p className="hint">{t('create.fileHint')}</p>
      </div>
      <ButtonGroup>
        {status === 'open' ? (
          <Button name="publish" value="true" variant="primary">
            {t('edit.save')}
          </Button>
        ) : (
          <>
            <Button name="publish" value="true" variant="primary">
              {t('create.publish')}
            </Button>
            <Button name="publish" value="false">
              {t('create.saveDraft')}
            </Button>
          </>
        )}
      </ButtonGroup>
    </Form>
  )
}

/** What the work is: title, description, subcategory and skills. */
function WorkFields({ fields, tree }: { fields: Fields; tree: CategoryTree }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <TextInput field={fields.title} label={t('fields.title')} />
      <div className="field">
        <label htmlFor={fields.description.id}>{t('fields.description')}</label>
        <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={8} />
        <ErrorText errors={fields.description.errors} id={fields.description.errorId} />
      </div>
      <div className="field">
        <label htmlFor={fields.subcategoryId.id}>{t('fields.subcategory')}</label>
        <select {...getSelectProps(fields.subcategoryId)} key={fields.subcategoryId.key}>
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
        <ErrorText errors={fields.subcategoryId.errors} id={fields.subcategoryId.errorId} />
      </div>
      <div className="field">
        <TagInput
          name={fields.skillIds.name}
          legend={t('fields.skills')}
          hint={t('create.skillsHint')}
          options={skillsOf(tree)}
          selected={[fields.skillIds.initialValue ?? []].flat().map(String)}
        />
        <ErrorText errors={fields.skillIds.errors} id={fields.skillIds.errorId} />
      </div>
    </>
  )
}

/** The money and the time: kind of budget, amount, currency, duration, deadline, experience. */
function BudgetFields({ fields }: { fields: Fields }) {
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
              defaultChecked={fields.budgetType.initialValue === b}
            />{' '}
            {t(`budgetType.${b}`)}
          </label>
        ))}
        <ErrorText errors={fields.budgetType.errors} id={fields.budgetType.errorId} />
      </fieldset>
      <div className="row">
        <TextInput
          field={fields.budgetMinor}
          label={t('fields.budget')}
          hint={t('create.budgetHint')}
          inputMode="decimal"
        />
        <div className="field">
          <label htmlFor={fields.currency.id}>{t('fields.currency')}</label>
          <select {...getSelectProps(fields.currency)} key={fields.currency.key}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row">
        <TextInput field={fields.durationDays} label={t('fields.durationDays')} inputMode="numeric" />
        <TextInput field={fields.deadline} label={t('fields.deadline')} type="date" />
      </div>
      <div className="field">
        <label htmlFor={fields.experienceLevel.id}>{t('fields.experienceLevel')}</label>
        <select {...getSelectProps(fields.experienceLevel)} key={fields.experienceLevel.key}>
          <option value="">{t('list.any')}</option>
          {experienceLevels.map((l) => (
            <option key={l} value={l}>
              {t(`level.${l}`)}
            </option>
          ))}
        </select>
      </div>
    </>
  )
}

/** Where the work is done: remotely, or on a site the client names. */
function PlaceFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <fieldset className="field">
        <legend>{t('create.workplace')}</legend>
        {(['true', 'false'] as const).map((value) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name={fields.remote.name}
              value={value}
              defaultChecked={String(fields.remote.initialValue ?? 'true') === value}
            />{' '}
            {value === 'true' ? t('create.remote') : t('create.onSite')}
          </label>
        ))}
        <ErrorText errors={fields.remote.errors} id={fields.remote.errorId} />
      </fieldset>
      <div className="row">
        <TextInput field={fields.location} label={t('fields.location')} />
        <TextInput field={fields.country} label={t('fields.countryCode')} />
      </div>
    </>
  )
}

/** The installment plan: a few rows, the unused ones left blank. */
function PlanFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  const plan = fields.installments.getFieldList()
  const rows = Array.from({ length: PLAN_ROWS }, (_, i) => plan[i])
  return (
    <fieldset className="field plan">
      <legend>{t('create.plan')}</legend>
      <p className="hint">{t('create.planHint')}</p>
      <ErrorText errors={fields.installments.errors} id={fields.installments.errorId} />
      {rows.map((row, i) => {
        const f = row?.getFieldset()
        return (
          <div className="row plan-row" key={i}>
            <PlanInput
              name={`installments[${i}].title`}
              label={t('fields.installmentTitle', { n: i + 1 })}
              field={f?.title}
            />
            <PlanInput
              name={`installments[${i}].amountMinor`}
              label={t('fields.installmentAmount', { n: i + 1 })}
              field={f?.amountMinor}
              inputMode="decimal"
            />
            <PlanInput
              name={`installments[${i}].dueDate`}
              label={t('fields.installmentDue', { n: i + 1 })}
              field={f?.dueDate}
              type="date"
            />
          </div>
        )
      })}
    </fieldset>
  )
}

/** Every skill of the catalogue once, by name, for the skills picker. */
function skillsOf(tree: CategoryTree) {
  const skills = new Map(tree.flatMap((c) => c.subcategories.flatMap((s) => s.skills)).map((k) => [k.id, k]))
  return [...skills.values()].sort((a, b) => a.name.localeCompare(b.name))
}

function TextInput({
  field,
  label,
  hint,
  type = 'text',
  inputMode,
}: {
  field: FieldMetadata<any>
  label: string
  hint?: string
  type?: 'text' | 'date'
  inputMode?: 'decimal' | 'numeric'
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...getInputProps(field, { type })}
        key={field.key}
        inputMode={inputMode}
        aria-describedby={field.errors ? field.errorId : undefined}
      />
      {hint ? <p className="hint">{hint}</p> : null}
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
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
  field?: FieldMetadata<any>
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
        defaultValue={(field?.initialValue as string) ?? ''}
        aria-invalid={field?.errors ? true : undefined}
      />
      <ErrorText errors={field?.errors} />
    </div>
  )
}
