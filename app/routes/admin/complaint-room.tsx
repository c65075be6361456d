import type { Route } from './+types/complaint-room'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { useWords, wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { EmptyState } from '~/components/ui/empty-state'
import { MessageBubble, MessageLog } from '~/components/ui/conversation'
import { Notice } from '~/components/ui/notice'
import { complaintsContract as c } from '#server/modules/complaints/contract.ts'
import { ticketIdOf as idOf } from '../ticket-support/api.server'

// /admin/complaints/{id}/room (SuperAdmin only, decision 233): the chat room a complaint is about,
// read-only. Loading it is the audited reading (the API records who read which room for which
// complaint); the page has no form, so nothing here can write to the room.

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const complaintId = idOf(params)
  try {
    const room = await apiFor(context).call(c.room, { params: { complaintId } })
    const words = wordsFor(getLocale(context))
    for (const m of room.messages) words.date(m.createdAt, 'dateTime')
    return {
      room,
      complaintId,
      words: words.words,
      title: getInstance(context).t('disputes:room.title', { id: complaintId }),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function ComplaintRoom({ loaderData: { room, complaintId, title } }: Route.ComponentProps) {
  const { t } = useTranslation(['disputes', 'chat-events'])
  const words = useWords()
  return (
    <main id="main" className="container page">
      <p>
        <Link to={`/admin/complaints/${complaintId}`}>{t('room.back')}</Link>
      </p>
      <h1>{title}</h1>
      <Notice kind="info">{t('room.readOnly', { id: complaintId })}</Notice>
      <section className="ui-section">
        <h2 id="room-messages">{t('room.messages')}</h2>
        {room.messages.length ? (
          <MessageLog label={t('room.messages')}>
            {room.messages.map((m) => {
              const author = m.sender ?? t('room.system')
              const text =
                m.kind === 'system' && m.event
                  ? t(`chat-events:event.${m.event}.title`, { ...m.params, defaultValue: m.body })
                  : m.body
              return (
                <MessageBubble
                  key={m.id}
                  side={m.kind === 'system' ? 'system' : 'theirs'}
                  author={author}
                  data-testid="room-message"
                  footer={
                    <time dateTime={m.createdAt}>{`${author} · ${words.date(m.createdAt, 'dateTime')}`}</time>
                  }
                >
                  <p className="prewrap">{text}</p>
                </MessageBubble>
              )
            })}
          </MessageLog>
        ) : (
          <EmptyState title={t('room.empty')} />
        )}
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
