import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { Chip } from '~/components/ui/status-chip'
import { controlProps, type LimitedField } from '~/components/ui/reply-form'
import type { Tone } from '~/components/ui/tones'
import { useWords, type Wording } from '~/lib/words'
import { buttonClass } from '~/components/ui/button'
import { Attachments } from './ui'
import { ErrorText } from '~/components/projects/error-text'

// Pieces of the deliverables register's screens (decision 318): an issue's revision and status,
// the client's answer as a chip, its files, and the forms' fields drawn from the reply helpers.

export interface IssueView {
  id: number
  revision: string
  status: string
  note: string
  issuedAt: string
  issuedBy: { name: string }
  transmittal: { id: number; number: string }
  files: Array<{ id: number; name: string; size: number }>
  answer: { outcome: string; comment: string; respondedAt: string; respondedBy: { name: string } } | null
}

const answerTones: Record<string, Tone> = {
  approved: 'success',
  approved_with_comments: 'success',
  revise_and_resubmit: 'danger',
}

/** The client's answer to an issue, or that it waits for one. */
export function AnswerChip({ answer }: { answer: IssueView['answer'] }) {
  const { t } = useTranslation('deliverables')
  const outcome = answer?.outcome ?? 'awaiting'
  return (
    <Chip tone={answerTones[outcome] ?? 'progress'} data-status={outcome}>
      {t(`outcome.${outcome}`)}
    </Chip>
  )
}

/** The days of `IssueLine`s, for their page's loader to word. */
export function wordIssues(words: Wording, issues: ReadonlyArray<Pick<IssueView, 'issuedAt'>>) {
  for (const i of issues) words.date(i.issuedAt)
}

/** "P02 · for approval · 3 May 2026", linked to its transmittal. */
export function IssueLine({ issue }: { issue: IssueView }) {
  const { t } = useTranslation('deliverables')
  const words = useWords()
  return (
    <span>
      <strong>{issue.revision}</strong> · {t(`status.${issue.status}`)} · {words.date(issue.issuedAt)} ·{' '}
      <Link to={`/projects/transmittal/${issue.transmittal.id}`}>{issue.transmittal.number}</Link>
    </span>
  )
}

/** An issue's files, as the contract pages list theirs. */
export const IssueFiles = ({ files }: { files: IssueView['files'] }) => (
  <Attachments files={files.map((f) => ({ ...f, url: '' }))} />
)

/** A labelled select of the given options, with the field's limits and first error (reply helpers). */
export function SelectField({
  field,
  label,
  options,
  optional,
}: {
  field: LimitedField
  label: string
  options: Array<{ value: string; label: string }>
  /** A choice that may be left blank here, whatever the schema says of the value once given. */
  optional?: boolean
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select {...controlProps(field)} required={optional ? undefined : controlProps(field).required}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

/** A labelled input or textarea whose limits are the schema's (the loader's constraint). */
export function TextInput({ field, label, rows }: { field: LimitedField; label: string; rows?: number }) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {rows ? <textarea {...controlProps(field)} rows={rows} /> : <input {...controlProps(field)} />}
      <ErrorText errors={field.errors} id={field.errorId} />
    </div>
  )
}

/** The contract pages' way to the register. */
export function RegisterLink({ projectId }: { projectId: number }) {
  const { t } = useTranslation('deliverables')
  return (
    <Link to={`/projects/register/${projectId}`} className={buttonClass()}>
      {t('page.open')}
    </Link>
  )
}
