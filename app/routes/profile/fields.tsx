import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from '~/lib/translations'
import { useNavigation, Form } from 'react-router'
import { Button, ButtonGroup } from '~/components/ui/button'
import { checkUpload, DEFAULT_MAX_FILE_KB, type UploadKind } from '#server/modules/files/rules.ts'
import type { ErrorCode } from '#server/api/errors.ts'

// Form pieces of the profile screens. Every form is a real POST form, with JavaScript or without:
// the action parses it with the API's own schema and conform shows the reply's errors (the browser
// has no zod, issue 38; no validation on blur or input either, which would post the form). A field shows its
// first error (docs/product.md §5); error texts are keys of the `profile` namespace, other texts (the API's
// own) show as they are.
export function useProfileText() {
  const { t } = useTranslation('profile')
  return (key: string | undefined) => (key ? t(key, { defaultValue: key }) : undefined)
}

export type ActionResult = {
  formId: string
  result?: SubmissionResult<string[]>
  upload?: { title: string; message: string }
}

type Fields = Record<string, FieldMetadata<any>>

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
  const [form, fields] = useForm({
    id: `form-${id}`,
    lastResult: navigation.state === 'idle' && lastResult?.formId === id ? lastResult.result : undefined,
    defaultValue: defaultValue as never,
  })
  const busy = navigation.state === 'submitting' && navigation.formData?.get('formId') === id
  return (
    <Form method="post" action={action} {...getFormProps(form)} className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="formId" value={id} />
      {form.errors?.length ? (
        <div className="ui-notice ui-notice-error" role="alert" id={form.errorId}>
          {form.errors.map((e) => (
            <p key={e}>{text(e)}</p>
          ))}
        </div>
      ) : null}
      {children?.(fields as Fields)}
      <ButtonGroup>
        <Button variant={danger ? 'destructive' : 'primary'} disabled={busy}>
          {submit}
        </Button>
        {after}
      </ButtonGroup>
    </Form>
  )
}

export function ErrorText({ field }: { field: FieldMetadata<any> }) {
  const text = useProfileText()
  const error = field.errors?.[0]
  return error ? (
    <p className="field-error" id={field.errorId}>
      {text(error)}
    </p>
  ) : null
}

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
  field: FieldMetadata<any>
  label: string
  type?: 'text' | 'number' | 'month' | 'url' | 'email'
  hint?: string
  maxLength?: number
  min?: number
  max?: number
  step?: string
  autoComplete?: string
}) {
  const props = getInputProps(field, {
    type,
    ariaDescribedBy: field.errors?.length ? field.errorId : undefined,
  })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...props}
        key={props.key}
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
  field: FieldMetadata<any>
  label: string
  maxLength?: number
  rows?: number
}) {
  const props = getTextareaProps(field, { ariaDescribedBy: field.errors?.length ? field.errorId : undefined })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <textarea {...props} key={props.key} rows={rows} maxLength={maxLength} />
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
  field: FieldMetadata<any>
  label: string
  options: Array<{ value: string; label: string }>
  placeholder?: string
  onChange?: (value: string) => void
}) {
  const props = getSelectProps(field, { ariaDescribedBy: field.errors?.length ? field.errorId : undefined })
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select {...props} key={props.key} onChange={onChange ? (e) => onChange(e.target.value) : undefined}>
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
