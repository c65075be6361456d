import type { SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from '~/lib/translations'
import { useNavigation, Form } from 'react-router'
import { useFirstErrorFocus, useReplyKey } from '~/components/ui/reply-form'
import { Button, ButtonGroup } from '~/components/ui/button'
import { checkUpload, DEFAULT_MAX_FILE_KB, type UploadKind } from '#server/modules/files/rules.ts'
import type { ErrorCode } from '#server/api/errors.ts'

// Form pieces of the profile screens. Every form is a real POST form, with JavaScript or without:
// the action parses it with the API's own schema and answers conform's reply, which these pieces show
// with no form library in the browser (issue 38, decisions 316 and 317): no validation on blur or input
// either, which would post the form. A field shows its first error (docs/product.md §5); error texts
// are keys of the `profile` namespace, other texts (the API's own) show as they are.
export function useProfileText() {
  const { t } = useTranslation('profile')
  return (key: string | undefined) => (key ? t(key, { defaultValue: key }) : undefined)
}

export type ActionResult = {
  formId: string
  result?: SubmissionResult<string[]>
  upload?: { title: string; message: string }
}

/** One field of a section form, named as conform named them (the sections read `x.city.initialValue`). */
export interface SectionField {
  id: string
  name: string
  errorId: string
  errors?: string[]
  /** What the field holds: the value the reply kept, else the form's default (a list for a multiple choice). */
  initialValue?: string | string[]
}
type Fields = Record<string, SectionField>

/** A default as a form holds it: text, or a list of texts. */
const asFormValue = (value: unknown): string | string[] | undefined =>
  Array.isArray(value)
    ? value.map((v) => String(v ?? ''))
    : value === null || value === undefined
      ? undefined
      : String(value)

/** The fields of a form: after a reply the values it kept and its errors, before one the defaults. */
function sectionFields(formId: string, reply: SubmissionResult<string[]> | undefined, defaults = {}) {
  const values: Record<string, unknown> = reply?.initialValue ?? defaults
  return new Proxy({} as Fields, {
    get(_, name) {
      if (typeof name !== 'string') return undefined
      const id = `${formId}-${name}`
      const errors = reply?.error?.[name] ?? undefined
      return { id, name, errorId: `${id}-error`, errors, initialValue: asFormValue(values[name]) }
    },
  })
}

/** One section's form: hidden intent (and item id), the fields, a submit button. */
export function SectionForm({
  id,
  intent,
  lastResult,
  defaultValue,
  submit,
  children,
  danger = false,
  className = 'form-stack',
  action,
  after,
}: {
  id: string
  intent: string
  lastResult?: ActionResult | null
  defaultValue?: Record<string, unknown>
  submit: string
  children?: (fields: Fields) => React.ReactNode
  danger?: boolean
  className?: string
  /** Where it posts: the page's own section (`/profile#about`), so without JavaScript the answer opens there. */
  action?: string
  /** Beside the submit button (a Cancel link). */
  after?: React.ReactNode
}) {
  const navigation = useNavigation()
  const text = useProfileText()
  const formId = `form-${id}`
  const reply = lastResult?.formId === id ? lastResult.result : undefined
  // A new reply remounts the fields, so they take the values it kept; the first wrong one takes the focus.
  const key = useReplyKey(reply)
  const ref = useFirstErrorFocus(reply)
  const errors = reply?.error?.['']?.filter(Boolean)
  const busy = navigation.state === 'submitting' && navigation.formData?.get('formId') === id
  return (
    <Form
      method="post"
      action={action}
      id={formId}
      ref={ref}
      key={key}
      noValidate
      aria-describedby={errors?.length ? `${formId}-error` : undefined}
      className={className}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="formId" value={id} />
      {errors?.length ? (
        <div className="ui-notice ui-notice-error" role="alert" id={`${formId}-error`}>
          {errors.map((e) => (
            <p key={e}>{text(e)}</p>
          ))}
        </div>
      ) : null}
      {children?.(sectionFields(formId, reply, defaultValue))}
      <ButtonGroup>
        <Button variant={danger ? 'destructive' : 'primary'} disabled={busy}>
          {submit}
        </Button>
        {after}
      </ButtonGroup>
    </Form>
  )
}

export function ErrorText({ field }: { field: SectionField }) {
  const text = useProfileText()
  const error = field.errors?.[0]
  return error ? (
    <p className="field-error" id={field.errorId}>
      {text(error)}
    </p>
  ) : null
}

/** The attributes every control of a section form has: its name, ids and the aria of an error. */
function controlProps(field: SectionField) {
  const invalid = Boolean(field.errors?.length)
  return {
    id: field.id,
    name: field.name,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? field.errorId : undefined,
  }
}

const firstValue = (field: SectionField) =>
  Array.isArray(field.initialValue) ? field.initialValue[0] : field.initialValue

export function Input({
  field,
  label,
  type = 'text',
  hint,
  maxLength,
  min,
  max,
  step,
  autoComplete,
}: {
  field: SectionField
  label: string
  type?: 'text' | 'number' | 'month' | 'url' | 'email'
  hint?: string
  maxLength?: number
  min?: number
  max?: number
  step?: string
  autoComplete?: string
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...controlProps(field)}
        type={type}
        defaultValue={firstValue(field)}
        maxLength={maxLength}
        min={min}
        max={max}
        step={step}
        autoComplete={autoComplete}
      />
      {hint ? <p className="field-hint">{hint}</p> : null}
      <ErrorText field={field} />
    </div>
  )
}

export function TextArea({
  field,
  label,
  maxLength,
  rows = 5,
}: {
  field: SectionField
  label: string
  maxLength?: number
  rows?: number
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <textarea {...controlProps(field)} defaultValue={firstValue(field)} rows={rows} maxLength={maxLength} />
      <ErrorText field={field} />
    </div>
  )
}

export function Select({
  field,
  label,
  options,
  placeholder,
  onChange,
}: {
  field: SectionField
  label: string
  options: Array<{ value: string; label: string }>
  placeholder?: string
  onChange?: (value: string) => void
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select
        {...controlProps(field)}
        defaultValue={firstValue(field)}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorText field={field} />
    </div>
  )
}

/** The picture types an upload form offers (docs/product.md §5; the server checks the bytes). */
export const imageTypes = '.png,.jpg,.jpeg,.gif,.tiff,.bpg'

/**
 * A multipart upload form. The browser checks the name and size first (docs/product.md §5, a convenience:
 * the server checks again, and also the bytes); without JavaScript the server's answer shows.
 */
export function UploadForm({
  id,
  action,
  kind,
  label,
  submit,
  lastResult,
  accept,
}: {
  id: string
  action: string
  kind: UploadKind
  label: string
  submit: string
  lastResult?: ActionResult | null
  accept: string
}) {
  const { t } = useTranslation('profile')
  const navigation = useNavigation()
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null)
  const shown =
    problem ?? (navigation.state === 'idle' && lastResult?.formId === id ? (lastResult.upload ?? null) : null)
  const busy =
    navigation.state === 'submitting' && navigation.formAction?.includes(action.split('?')[1] ?? action)
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      className="form-stack"
      id={`upload-${id}`}
      onSubmit={(event) => {
        const input = event.currentTarget.elements.namedItem('file') as HTMLInputElement | null
        const file = input?.files?.[0]
        const found = file
          ? checkUpload(kind, file.name, file.size)
          : { code: 'missing' as const, title: '', message: '' }
        if (found) {
          event.preventDefault()
          setProblem(uploadProblemText(t as T, found.code === 'missing' ? 'missing' : found.code))
        } else setProblem(null)
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-file`}>{label}</label>
        <input
          id={`${id}-file`}
          type="file"
          name="file"
          accept={accept}
          aria-describedby={shown ? `${id}-problem` : undefined}
          onChange={() => setProblem(null)}
        />
      </div>
      {shown ? (
        <div className="ui-notice ui-notice-error" role="alert" id={`${id}-problem`}>
          <strong>{shown.title}</strong>
          <p>{shown.message}</p>
        </div>
      ) : null}
      <ButtonGroup>
        <Button variant="primary" disabled={busy}>
          {submit}
        </Button>
      </ButtonGroup>
    </Form>
  )
}

type T = (key: string, options?: Record<string, unknown>) => string
/** The title and message of an upload problem in the page's language (the English ones are docs/product.md §5's exact words). */
export function uploadProblemText(t: T, code: string) {
  switch (code) {
    case 'fileSize':
      return {
        title: t('upload.fileSize.title'),
        message: t('upload.fileSize.message', { limit: DEFAULT_MAX_FILE_KB }),
      }
    case 'invalidImage':
      return { title: t('upload.invalidImage.title'), message: t('upload.invalidImage.message') }
    case 'invalidExcel':
      return { title: t('upload.invalidExcel.title'), message: t('upload.invalidExcel.message') }
    case 'invalidDocument':
      return { title: t('upload.invalidDocument.title'), message: t('upload.invalidDocument.message') }
    default:
      return { title: t('upload.missing.title'), message: t('upload.missing.message') }
  }
}

/** The texts this page has for an upload problem, by the API error's code. */
export function uploadCodeOf(code: ErrorCode | undefined) {
  if (code === 'file_too_large') return 'fileSize'
  if (code === 'invalid_image') return 'invalidImage'
  if (code === 'invalid_excel') return 'invalidExcel'
  if (code === 'invalid_document') return 'invalidDocument'
  return code === 'file_missing' ? 'missing' : 'other'
}
