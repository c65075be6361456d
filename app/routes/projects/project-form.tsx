import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { experienceLevels, projectVisibilities } from '#server/modules/projects/rules.ts'
import type { FormConstraint } from '~/lib/form-constraint'
import {
  asTexts,
  controlProps,
  replyFields,
  useReplyForm,
  type LimitedField,
} from '~/components/ui/reply-form'
import { ErrorText } from '~/components/projects/error-text'
import { BudgetTypeAndAmount, SubcategorySelect, TextInput } from '~/components/projects/form-fields'
import { InstallmentPlan } from '~/components/projects/installment-plan'
import { Button, ButtonGroup } from '~/components/ui/button'
import { TagInput } from '~/components/ui/tag-input'

type CategoryTree = Array<{
  id: number
  name: string
  subcategories: Array<{ id: number; name: string; skills: Array<{ id: number; name: string }> }>
}>
export type ProjectFormValues = Record<string, string | string[] | Array<Record<string, string>> | undefined>

type Fields = Record<string, LimitedField>

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
  status?: 'draft' | 'returned' | 'open'
}) {
  const { t } = useTranslation('projects')
  // The action parses with the API's own schema (an amount such as "1500.50" becomes its value
  // there) and replies with the errors (decision 317: no form library in the browser); the browser
  // only has the schema's limits as HTML attributes.
  const reply = lastResult as SubmissionResult<string[]> | undefined
  const form = useReplyForm(reply, 'project')
  const fields = replyFields(reply, 'project', defaultValue, constraint)
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      id="project"
      ref={form.ref}
      key={form.key}
      noValidate
      className="form-stack project-form"
    >
      <ErrorText errors={form.errors} id="project-error" />
      <WorkFields fields={fields} tree={tree} />
      <BudgetFields fields={fields} />
      <HourlyFields fields={fields} />
      <PlaceFields fields={fields} />
      <InstallmentPlan fields={fields} />
      <VisibilityFields fields={fields} />
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
        <textarea {...controlProps(fields.description)} rows={8} />
        <ErrorText errors={fields.description.errors} id={fields.description.errorId} />
      </div>
      <SubcategorySelect field={fields.subcategoryId} tree={tree} />
      <div className="field">
        <TagInput
          name={fields.skillIds.name}
          legend={t('fields.skills')}
          hint={t('create.skillsHint')}
          options={skillsOf(tree)}
          selected={asTexts(fields.skillIds.value)}
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
      <BudgetTypeAndAmount fields={fields} label={t('fields.budget')} hint={t('create.budgetHint')} />
      <div className="row">
        <TextInput field={fields.durationDays} label={t('fields.durationDays')} inputMode="numeric" />
        <TextInput field={fields.deadline} label={t('fields.deadline')} type="date" />
      </div>
      <div className="field">
        <label htmlFor={fields.experienceLevel.id}>{t('fields.experienceLevel')}</label>
        <select {...controlProps(fields.experienceLevel)}>
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

/**
 * An hourly project's lowest rate and hours a week (the budget above is its highest rate). The
 * stylesheet shows only the chosen budget type's group, with or without JavaScript (decision 323).
 */
function HourlyFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  return (
    <fieldset className="field" data-budget="hourly">
      <legend>{t('create.hourly')}</legend>
      <p className="hint">{t('create.hourlyHint')}</p>
      <div className="row">
        <TextInput field={fields.budgetMinMinor} label={t('fields.rateMin')} inputMode="decimal" />
        <TextInput field={fields.hoursPerWeek} label={t('fields.hoursPerWeek')} inputMode="numeric" />
      </div>
    </fieldset>
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
              defaultChecked={(fields.remote.defaultValue ?? 'true') === value}
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

/** Who sees the project: everyone, signed-in people, or only the freelancers the client invites (decision 335). */
function VisibilityFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation('projects')
  return (
    <fieldset className="field">
      <legend>{t('visibility.legend')}</legend>
      {projectVisibilities.map((value) => (
        <label key={value} className="radio">
          <input
            type="radio"
            name={fields.visibility.name}
            value={value}
            defaultChecked={(fields.visibility.defaultValue ?? 'public') === value}
          />{' '}
          {t(`visibility.${value}`)}
        </label>
      ))}
      <p className="hint">{t('visibility.hint')}</p>
      <ErrorText errors={fields.visibility.errors} id={fields.visibility.errorId} />
    </fieldset>
  )
}

/** Every skill of the catalogue once, by name, for the skills picker. */
function skillsOf(tree: CategoryTree) {
  const skills = new Map(tree.flatMap((c) => c.subcategories.flatMap((s) => s.skills)).map((k) => [k.id, k]))
  return [...skills.values()].sort((a, b) => a.name.localeCompare(b.name))
}
