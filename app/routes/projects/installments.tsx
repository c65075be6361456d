import { Form } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import { Attachments, Money, Status } from './ui'

interface Installment {
  id: number
  position: number
  title: string
  amountMinor: number
  currency: string
  dueDate: string | null
  status: string
  submissionNote: string | null
  feedback: string | null
  files: Array<{ id: number; name: string; url: string; size: number }>
}

/** A contract's installments with the moves the viewer may make: plain forms, each with a note. */
export function InstallmentList({ items, role, active }: { items: Installment[]; role: 'client' | 'freelancer'; active: boolean }) {
  const { t } = useTranslation('projects')
  return (
    <ol className="installments">
      {items.map((i) => {
        const moves: Array<{ intent: string; label: string; note?: boolean; file?: boolean }> = []
        if (active && role === 'client' && i.status === 'pending') moves.push({ intent: 'installment-fund', label: t('installment.fund') })
        if (active && role === 'client' && i.status === 'submitted') moves.push({ intent: 'installment-approve', label: t('installment.approve') }, { intent: 'installment-request-changes', label: t('installment.requestChanges'), note: true })
        if (active && role === 'freelancer' && (i.status === 'funded' || i.status === 'changes_requested')) moves.push({ intent: 'installment-submit', label: t('installment.submit'), note: true, file: true })
        return (
          <li key={i.id} className="card" data-testid={`installment-${i.position}`}>
            <h3>
              {i.position}. {i.title} — <Money minor={i.amountMinor} currency={i.currency} /> <Status value={i.status} />
            </h3>
            {i.dueDate ? <p className="muted small">{t('installment.due', { date: i.dueDate })}</p> : null}
            {i.submissionNote ? <p className="prewrap">{t('installment.submitted', { note: i.submissionNote })}</p> : null}
            {i.feedback ? <p className="prewrap">{t('installment.feedback', { note: i.feedback })}</p> : null}
            <Attachments files={i.files} />
            {moves.map((m) => (
              <Form key={m.intent} method="post" encType={m.file ? 'multipart/form-data' : undefined} className="form-stack inline-form">
                <input type="hidden" name="intent" value={m.intent} />
                <input type="hidden" name="id" value={i.id} />
                {m.note ? (
                  <div className="field">
                    <label htmlFor={`note-${m.intent}-${i.id}`}>{m.intent === 'installment-submit' ? t('installment.noteSubmit') : t('installment.noteChanges')}</label>
                    <textarea id={`note-${m.intent}-${i.id}`} name="note" rows={2} required maxLength={2000} />
                  </div>
                ) : null}
                {m.file ? (
                  <div className="field">
                    <label htmlFor={`file-${i.id}`}>{t('fields.attachment')}</label>
                    <input id={`file-${i.id}`} name="file" type="file" />
                  </div>
                ) : null}
                <button type="submit" className="button">
                  {m.label}
                </button>
              </Form>
            ))}
          </li>
        )
      })}
    </ol>
  )
}

export function ActivityList({ items }: { items: Array<{ id: number; entity: string; action: string; toState: string; note: string | null; actor: { name: string } | null; createdAt: string }> }) {
  const { t, i18n } = useTranslation('projects')
  return (
    <ul className="activity">
      {items.map((a) => (
        <li key={a.id}>
          <span className="muted small">{new Date(a.createdAt).toLocaleString(i18n.language)}</span> — {a.actor?.name ?? t('activity.system')}: {t(`activity.${a.entity}.${a.action}`, { defaultValue: `${a.entity} ${a.action}` })}
          {a.note ? ` (${a.note})` : ''}
        </li>
      ))}
    </ul>
  )
}
