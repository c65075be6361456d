import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { shortlistLimits } from '#server/modules/projects/shortlist/limits.ts'
import { ActionButton } from './ui'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Chip } from '~/components/ui/status-chip'
import { FilterSelect } from '~/components/ui/filter-select'
import { Toolbar } from '~/components/ui/toolbar'

// The shortlist on the client's project page (decision 336): a filter, the link to the comparison,
// and each proposal's Shortlist toggle with the client's private note.

/** Show every proposal or the shortlisted ones only (a GET form), and Compare. */
export function ShortlistToolbar({
  projectId,
  only,
  count,
}: {
  projectId: number
  only: boolean
  count: number
}) {
  const { t } = useTranslation('shortlist')
  return (
    <Toolbar label={t('shortlist.filters')}>
      <Form method="get">
        <FilterSelect
          name="shortlist"
          label={t('shortlist.show')}
          value={only ? '1' : ''}
          options={[
            { value: '', label: t('shortlist.all') },
            { value: '1', label: t('shortlist.only') },
          ]}
        />
        <Button>{t('shortlist.show')}</Button>
      </Form>
      {count ? (
        <ButtonLink to={`/projects/client/compare/${projectId}`} data-testid="compare-link">
          {t('shortlist.compare')}
        </ButtonLink>
      ) : null}
    </Toolbar>
  )
}

/** A proposal's Shortlist toggle and, once shortlisted, the client's private note. */
export function ShortlistControls({
  proposalId,
  mark,
  error,
  describedBy,
}: {
  proposalId: number
  mark: { note: string | null } | undefined
  /** The message of a refused note for this proposal. */
  error?: string
  describedBy: string
}) {
  const { t } = useTranslation('shortlist')
  if (!mark)
    return (
      <ActionButton
        intent="shortlist"
        fields={{ id: proposalId }}
        label={t('shortlist.add')}
        describedBy={describedBy}
      />
    )
  const field = `note-${proposalId}`
  // The note's form and Remove sit side by side: Save note submits the note's form from the group.
  return (
    <div className="shortlist" data-testid="shortlisted">
      <p>
        <Chip tone="progress">{t('shortlist.on')}</Chip>
      </p>
      <Form method="post" id={`${field}-form`}>
        <input type="hidden" name="intent" value="shortlist-note" />
        <input type="hidden" name="id" value={proposalId} />
        <div className="field">
          <label htmlFor={field}>{t('shortlist.note')}</label>
          <textarea
            id={field}
            name="note"
            rows={2}
            maxLength={shortlistLimits.note}
            defaultValue={mark.note ?? ''}
            aria-describedby={`${field}-hint${error ? ` ${field}-error` : ''}`}
            aria-invalid={error ? true : undefined}
          />
          <p className="muted small" id={`${field}-hint`}>
            {t('shortlist.noteHint')}
          </p>
          {error ? (
            <p className="field-error" id={`${field}-error`} role="alert">
              {error}
            </p>
          ) : null}
        </div>
      </Form>
      <ButtonGroup label={t('shortlist.on')}>
        <Button form={`${field}-form`}>{t('shortlist.saveNote')}</Button>
        <ActionButton
          intent="unshortlist"
          fields={{ id: proposalId }}
          label={t('shortlist.remove')}
          describedBy={describedBy}
        />
      </ButtonGroup>
    </div>
  )
}
