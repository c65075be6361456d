import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { agesById } from '~/components/shell/bells.server'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ConversationList } from '~/components/ui/conversation'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { chatContract as c } from '#server/modules/chat/contract.ts'
import { RoomItem, roomTime } from '~/components/chat/room-item'

// /chats (login required): the signed-in user's rooms, most recent first (`?page=N`), each with the
// other person, the project, the last message and the unread count; "No messages" when there are
// none. Not kept per session: a message anywhere must show here at once.
const LAST_PAGE = 10_000

export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const asked = Number(url.searchParams.get('page') ?? 1)
  const page = Number.isInteger(asked) && asked > 0 ? Math.min(asked, LAST_PAGE) : 1
  try {
    const rooms = await apiFor(context).call(c.rooms, { params: { page } })
    return {
      rooms,
      ago: agesById(context, rooms.data, roomTime),
      unread: rooms.roomsWithUnread,
      url: url.pathname + url.search,
      title: getInstance(context).t('chat:list.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Chats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('chat')
  const { rooms, unread, url, ago } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('list.title')}</h1>
      {rooms.total === 0 ? (
        <EmptyState title={t('list.empty')}>{t('list.emptyHint')}</EmptyState>
      ) : (
        <>
          <p className="lead" data-testid="rooms-unread">
            {t('list.unreadRooms', { count: unread })}
          </p>
          <ConversationList label={t('list.rooms')}>
            {rooms.data.map((room) => (
              <RoomItem key={room.id} room={room} ago={ago[room.id]} />
            ))}
          </ConversationList>
          <Pagination url={url} page={rooms.page} pageSize={rooms.pageSize} total={rooms.total} />
        </>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
