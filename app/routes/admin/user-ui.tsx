import { useTranslation } from '~/lib/translations'
import { Chip } from '~/components/ui/status-chip'
import { type Tone } from '~/components/ui/tones'
import type { UserStatus } from '#server/db/schema.ts'

// An account's status and roles, as the user list, the user's page and the audit list show them.
const statusTones: Record<UserStatus, Tone> = {
  Pending: 'progress',
  Active: 'success',
  Suspended: 'danger',
  Deleted: 'neutral',
}

export function UserStatusChip({ status }: { status: UserStatus }) {
  const { t } = useTranslation('adminUsers')
  return (
    <Chip tone={statusTones[status]} data-status={status} data-testid="status-chip">
      {t(`status.${status}`)}
    </Chip>
  )
}

export function RoleNames({ roles }: { roles: number[] }) {
  const { t } = useTranslation('adminUsers')
  return <>{roles.map((r) => t(`roles.${r}`, { defaultValue: String(r) })).join(', ')}</>
}

/** The reason of one of the user page's forms: each form's own id, its first error under it (docs/product.md §5). */
export function ReasonField({
  form,
  label,
  required,
  error,
  maxLength,
}: {
  form: string
  label: string
  required: boolean
  error?: string
  maxLength: number
}) {
  const { t } = useTranslation('adminUsers')
  const id = `${form}-reason`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name="reason"
        rows={2}
        required={required}
        minLength={required ? 3 : undefined}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {t(error, { defaultValue: error })}
        </p>
      ) : null}
    </div>
  )
}
