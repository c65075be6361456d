import { useTranslation } from '~/lib/translations'
import { Form, Link, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import type { FieldReply } from '~/components/ui/field'
import { controlProps, replyFields, useReplyForm } from '~/components/ui/reply-form'
import { ErrorText } from '~/components/projects/error-text'

// A client invites the freelancer of this profile to one of their open projects (decision 335).
// A plain form: it posts to the profile page's action, with or without JavaScript.
export function InviteForm({
  projects,
  name,
  invited,
  lastResult,
}: {
  projects: Array<{ id: number; title: string }>
  name: string
  /** The project just invited to (after the redirect). */
  invited: number | null
  lastResult?: unknown
}) {
  const { t } = useTranslation('projects')
  const idle = useNavigation().state === 'idle'
  const reply = (idle ? lastResult : undefined) as FieldReply | undefined
  const form = useReplyForm(reply, 'invite')
  const fields = replyFields(reply, 'invite')
  const sentTo = projects.find((p) => p.id === invited)
  return (
    <section id="invite" aria-labelledby="invite-title" className="card profile-section">
      <h2 id="invite-title">{t('invitations.inviteTitle', { name })}</h2>
      {sentTo ? (
        <Notice kind="success" data-testid="invited-notice">
          {t('invitations.invitedNotice', { name, title: sentTo.title })}
        </Notice>
      ) : null}
      {projects.length ? (
        <Form method="post" ref={form.ref} key={form.key} noValidate className="form-stack">
          <ErrorText errors={form.errors} id="invite-error" />
          <div className="field">
            <label htmlFor={fields.projectId!.id}>{t('invitations.project')}</label>
            <select {...controlProps(fields.projectId!)}>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </select>
            <ErrorText errors={fields.projectId!.errors} id={fields.projectId!.errorId} />
          </div>
          <div className="field">
            <label htmlFor={fields.message!.id}>{t('invitations.message')}</label>
            <textarea {...controlProps(fields.message!)} rows={4} maxLength={2000} />
            <ErrorText errors={fields.message!.errors} id={fields.message!.errorId} />
          </div>
          <div>
            <Button variant="primary">{t('invitations.send')}</Button>
          </div>
        </Form>
      ) : (
        <p className="muted">
          {t('invitations.noOpenProjects')} <Link to="/projects/create">{t('invitations.postOne')}</Link>
        </p>
      )}
    </section>
  )
}
