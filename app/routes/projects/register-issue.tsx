import { useTranslation } from '~/lib/translations'
import { Button, ButtonLink } from '~/components/ui/button'
import type { FieldReply } from '~/components/ui/field'
import { replyFields, useReplyForm } from '~/components/ui/reply-form'
import { ReplyPostForm } from '~/components/auth/form'
import type { FormConstraint } from '~/lib/form-constraint'
import { issueStatuses } from '#server/modules/projects/deliverables/rules.ts'
import { SelectField, TextInput } from './register-ui'
import { ErrorText } from '~/components/projects/error-text'

// The register's form that issues several deliverables of one installment at once (issue 40: one
// transmittal per issue of an installment's deliverables): a row per deliverable with its next
// revisions or "not this time", one status and one note for all. A plain form, so it works with
// JavaScript off; the transmittal it produces lists every deliverable sent.

type Installment = { id: number; title: string; status: string }
type Deliverable = { id: number; number: string; title: string; nextRevisions: string[] }

/** Installments whose money is held: their deliverables may be issued. */
const issuable = ['funded', 'submitted', 'changes_requested']

/** A way to the form for each installment whose deliverables may be issued now (the register's actions). */
export function IssueManyLinks({ installments }: { installments: Installment[] }) {
  const { t } = useTranslation('deliverables')
  return installments
    .filter((i) => issuable.includes(i.status))
    .map((i) => (
      <ButtonLink key={i.id} to={`?issue=${i.id}#issue`}>
        {t('page.issueManyLink', { installment: i.title })}
      </ButtonLink>
    ))
}

export function IssueManyForm({
  installment,
  deliverables,
  reply,
  constraint,
}: {
  installment: Installment | undefined
  deliverables: Deliverable[]
  reply?: FieldReply
  constraint: FormConstraint
}) {
  const { t } = useTranslation('deliverables')
  const form = useReplyForm(reply, 'issue')
  const fields = replyFields(reply, 'issue', {}, constraint)
  const rows =
    installment && issuable.includes(installment.status)
      ? deliverables.filter((x) => x.nextRevisions.length)
      : []
  return (
    <section aria-labelledby="issue" className="ui-section">
      <h2 id="issue">{t('page.issueMany', { installment: installment?.title ?? '' })}</h2>
      {rows.length && installment ? (
        <ReplyPostForm form={form} id="issue-many" intent="issue">
          <input type="hidden" name="installmentId" value={installment.id} />
          <fieldset className="field">
            <legend>{t('page.deliverables')}</legend>
            <p className="muted small" id="issue-many-hint">
              {t('page.issueManyIntro')}
            </p>
            <ErrorText errors={fields.items!.errors} id={fields.items!.errorId} />
            {rows.map((x, n) => (
              <div key={x.id}>
                <input type="hidden" name={`items[${n}].deliverableId`} value={x.id} />
                <SelectField
                  field={fields[`items[${n}].revision`]!}
                  label={`${x.number} ${x.title}`}
                  optional
                  options={[
                    { value: '', label: t('page.notThisTime') },
                    ...x.nextRevisions.map((r) => ({ value: r, label: r })),
                  ]}
                />
              </div>
            ))}
          </fieldset>
          <SelectField
            field={fields.status!}
            label={t('page.status')}
            options={issueStatuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
          <TextInput field={fields.note!} label={t('page.note')} rows={4} />
          <Button type="submit" variant="primary">
            {t('page.issueManySubmit')}
          </Button>
        </ReplyPostForm>
      ) : (
        <p className="muted">{t('page.issueManyNone')}</p>
      )}
    </section>
  )
}
