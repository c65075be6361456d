import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, data, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/create'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { projectsContract } from '../../../server/modules/projects/contract'
import { catalogueContract } from '../../../server/modules/catalogue/contract'
import { budgetTypes, currencies, experienceLevels } from '../../../server/modules/projects/rules'
import { PLAN_ROWS, planOf, projectFormSchema } from './forms'
import { chosenFile, uploadProjectFile } from './api.server'
import { ErrorText } from './ui'

// /projects/create: a multipart form (the attachment rides along) that saves a draft or publishes.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'projects.create')
  try {
    const { data: tree } = await apiFor(context).call(catalogueContract.allCategories)
    return { tree, title: getInstance(context).t('projects:create.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.title ?? ''} – Workneer` }]
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'projects.create')
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: projectFormSchema })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  const v = submission.value
  let id: number
  try {
    const created = await apiFor(context).call(projectsContract.create, {
      body: {
        title: v.title,
        description: v.description,
        subcategoryId: v.subcategoryId,
        skillIds: v.skillIds ?? [],
        budgetType: v.budgetType,
        budgetMinor: v.budget,
        currency: v.currency,
        durationDays: v.durationDays,
        deadline: v.deadline,
        experienceLevel: v.experienceLevel,
        remote: v.remote,
        location: v.location,
        country: v.country?.toUpperCase(),
        installments: planOf(v.installments),
        publish: v.intent === 'publish',
      },
    })
    id = created.id
  } catch (error) {
    if (error instanceof ApiCallError && typeof error.body === 'object' && error.status === 400) {
      const fieldErrors: Record<string, string[]> = {}
      for (const [field, messages] of Object.entries(error.body.errors)) fieldErrors[field === 'budgetMinor' ? 'budget' : field === 'skillIds' ? 'skillIds' : field] = messages
      return data(submission.reply({ fieldErrors }), { status: 400 })
    }
    if (error instanceof ApiCallError && typeof error.body === 'object') return data(submission.reply({ formErrors: [error.body.detail] }), { status: error.status })
    throw error
  }
  const file = chosenFile(formData.get('file'))
  if (file) {
    try {
      await uploadProjectFile(context, id, file)
    } catch (error) {
      // The project exists; the file problem is shown on its page, where another file can be added.
      const detail = error instanceof ApiCallError && typeof error.body === 'object' ? error.body.detail : 'errors.upload'
      return redirect(`/projects/client/details/${id}?uploadError=${encodeURIComponent(detail)}`)
    }
  }
  return redirect(`/projects/client/details/${id}?created=1`)
}

export default function CreateProject({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const navigation = useNavigation()
  const [form, fields] = useForm({
    lastResult: navigation.state === 'idle' ? actionData : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: projectFormSchema }),
    shouldValidate: 'onBlur',
    defaultValue: { currency: 'EUR', budgetType: 'fixed', remote: 'on' },
  })
  const plan = fields.installments.getFieldList()
  const rows = Array.from({ length: PLAN_ROWS }, (_, i) => plan[i])
  return (
    <main id="main" className="container page narrow">
      <h1>{t('create.title')}</h1>
      <p className="lead">{t('create.lead')}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form-stack">
        <ErrorText errors={form.errors} id={form.errorId} />
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
            {loaderData.tree.map((c) => (
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
          <label htmlFor={fields.skillIds.id}>{t('fields.skills')}</label>
          <select {...getSelectProps(fields.skillIds)} key={fields.skillIds.key} multiple size={8}>
            {loaderData.tree.map((c) => (
              <optgroup key={c.id} label={c.name}>
                {[...new Map(c.subcategories.flatMap((s) => s.skills).map((k) => [k.id, k])).values()].map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p className="hint">{t('create.skillsHint')}</p>
          <ErrorText errors={fields.skillIds.errors} id={fields.skillIds.errorId} />
        </div>
        <fieldset className="field">
          <legend>{t('fields.budgetType')}</legend>
          {budgetTypes.map((b) => (
            <label key={b} className="radio">
              <input type="radio" name={fields.budgetType.name} value={b} defaultChecked={fields.budgetType.initialValue === b} /> {t(`budgetType.${b}`)}
            </label>
          ))}
          <ErrorText errors={fields.budgetType.errors} id={fields.budgetType.errorId} />
        </fieldset>
        <div className="row">
          <TextInput field={fields.budget} label={t('fields.budget')} hint={t('create.budgetHint')} inputMode="decimal" />
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
        <label className="checkbox">
          <input {...getInputProps(fields.remote, { type: 'checkbox' })} key={fields.remote.key} /> {t('create.remote')}
        </label>
        <div className="row">
          <TextInput field={fields.location} label={t('fields.location')} />
          <TextInput field={fields.country} label={t('fields.countryCode')} />
        </div>
        <fieldset className="field plan">
          <legend>{t('create.plan')}</legend>
          <p className="hint">{t('create.planHint')}</p>
          <ErrorText errors={fields.installments.errors} id={fields.installments.errorId} />
          {rows.map((row, i) => {
            const f = row?.getFieldset()
            return (
              <div className="row plan-row" key={i}>
                <PlanInput name={`installments[${i}].title`} label={t('fields.installmentTitle', { n: i + 1 })} field={f?.title} />
                <PlanInput name={`installments[${i}].amount`} label={t('fields.installmentAmount', { n: i + 1 })} field={f?.amount} inputMode="decimal" />
                <PlanInput name={`installments[${i}].dueDate`} label={t('fields.installmentDue', { n: i + 1 })} field={f?.dueDate} type="date" />
              </div>
            )
          })}
        </fieldset>
        <div className="field">
          <label htmlFor="project-file">{t('fields.attachment')}</label>
          <input id="project-file" name="file" type="file" accept=".pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip,.png,.jpg,.jpeg,.gif,.tiff,.bpg" />
          <p className="hint">{t('create.fileHint')}</p>
        </div>
        <div className="actions">
          <button type="submit" name="intent" value="publish" className="button button-primary">
            {t('create.publish')}
          </button>
          <button type="submit" name="intent" value="draft" className="button">
            {t('create.saveDraft')}
          </button>
        </div>
      </Form>
    </main>
  )
}

function TextInput({ field, label, hint, type = 'text', inputMode }: { field: FieldMetadata<any>; label: string; hint?: string; type?: 'text' | 'date'; inputMode?: 'decimal' | 'numeric' }) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input {...getInputProps(field, { type })} key={field.key} inputMode={inputMode} aria-describedby={field.errors ? field.errorId : undefined} />
      {hint ? <p className="hint">{hint}</p> : null}
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

function PlanInput({ name, label, field, type = 'text', inputMode }: { name: string; label: string; field?: FieldMetadata<any>; type?: 'text' | 'date'; inputMode?: 'decimal' }) {
  const id = `plan-${name.replace(/\W+/g, '-')}`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={type} inputMode={inputMode} defaultValue={(field?.initialValue as string) ?? ''} aria-invalid={field?.errors ? true : undefined} />
      <ErrorText errors={field?.errors} />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
