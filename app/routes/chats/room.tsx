import { useEffect, useLayoutEffect, useRef } from 'react'
import { data, redirect, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/room'
import { ApiCallError, type ProblemBody } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getUser, requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { imageSrc } from '~/lib/image-src'
import { ErrorPage } from '~/components/error-page'
import { ButtonGroup, ButtonLink } from '~/components/ui/button'
import { MessageLog } from '~/components/ui/conversation'
import { Notice } from '~/components/ui/notice'
import { Person } from '~/components/ui/person'
import type { ChatRoom } from '#server/modules/chat/contract.ts'
import type { ErrorCode } from '#server/api/errors.ts'
import { readRoom, roomPage, sendMessage } from './api.server'
import { newClientMessageId } from './forms'
import { messageFormSchema } from './message-form.server'
import { Composer, type SendResult } from './composer'
import { useRoomMessages } from './live'
import { MessageItem, wordMessages } from './ui'

// /chats/{roomId} (login required): a room's history, newest last, with earlier messages loaded on
// scroll (JavaScript) or through "Load earlier messages" (a link to ?before=…), the composer, and
// the other person, the project and the contract. Opening the newest messages reads the room.

const positive = (value: string | null | undefined) => {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : null
}
const roomIdOf = (params: { roomId?: string }) => {
  const id = positive(params.roomId)
  if (!id) throw redirect('/auth/not-found')
  return id
}

// Opening the room as a page reads it, before the loaders run, so the top bar's count, loaded
// beside the room, already leaves it out (the only way without JavaScript). With JavaScript the
// page's data requests read nothing: the page itself reads what is on screen while it is in front
// (live.ts), so a hidden tab reloaded by a countChat does not read for its absent reader.
// Earlier pages (?before=) and form posts read nothing.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context, params, url }) => {
    const roomId = positive(params.roomId)
    const dataRequest = new URL(request.url).pathname.endsWith('.data')
    if (
      request.method !== 'GET' ||
      dataRequest ||
      !roomId ||
      url.searchParams.has('before') ||
      !getUser(context)
    )
      return
    await readRoom(context, roomId).catch((error: unknown) => {
      if (!(error instanceof ApiCallError)) throw error // a refused room is the loader's to answer
    })
  },
]

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  const roomId = roomIdOf(params)
  const before = positive(url.searchParams.get('before')) ?? undefined
  try {
    const page = await roomPage(context, roomId, before)
    const t = getInstance(context).t
    const words = wordsFor(getLocale(context))
    wordMessages(words, page.data)
    return {
      page,
      words: words.words,
      me: user.id,
      clientMessageId: newClientMessageId(),
      viewingEarlier: before !== undefined,
      title: t('chat:room.title', { name: page.room.other.name }),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const roomId = roomIdOf(params)
  const form = await request.formData()
  if (form.get('intent') === 'read') {
    try {
      return { read: await readRoom(context, roomId, positive(String(form.get('upTo'))) ?? undefined) }
    } catch (error) {
      throwApiError(error)
    }
  }
  const submission = parseWithZod(form, { schema: messageFormSchema })
  if (submission.status !== 'success') return data({ reply: submission.reply() }, { status: 400 })
  try {
    const sent = await sendMessage(context, roomId, submission.value)
    // With JavaScript the page adds the message itself; without it, the room shows it after the redirect.
    if (form.get('live')) return { sent }
    return redirect(`/chats/${roomId}#m-${sent.id}`)
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status !== 400 || typeof error.problem !== 'object')
      throwApiError(error)
    // The room closed while the form was open: the room itself says why, in place of the composer.
    if (error.code === 'conversation_closed') return redirect(`/chats/${roomId}`)
    return data(
      { reply: submission.reply({ fieldErrors: { text: [sendProblem(error.problem)] } }) },
      { status: 400 },
    )
  }
}

/** The API's refusal of a send, as a key of the chat namespace where one fits (upload rules), else its own words. */
function sendProblem(problem: ProblemBody) {
  if (problem.code === 'file_too_large') return 'errors.fileSize'
  if (fileTypeCodes.has(problem.code) || problem.errors?.files) return 'errors.fileType'
  return Object.values(problem.errors ?? {})[0]?.[0] ?? problem.detail
}
const fileTypeCodes = new Set<ErrorCode>([
  'invalid_image',
  'invalid_document',
  'invalid_media',
  'invalid_attachment',
  'invalid_excel',
])

/** Where the project and the contract are, for each side of the room. */
function projectLinks(room: ChatRoom) {
  const p = room.project.id
  if (room.myRole === 'client')
    return {
      project: `/projects/client/details/${p}`,
      contract: room.contractId ? `/projects/client/details/${p}#contract` : null,
    }
  return {
    project: `/projects/details/${p}`,
    contract: room.contractId ? `/projects/freelancer/contract/${p}` : null,
  }
}

export default function ChatRoomPage({ loaderData, actionData }: Route.ComponentProps) {
  // A new room is a new conversation: nothing of the last one's state carries over.
  return (
    <Room key={loaderData.page.room.id} data={loaderData} result={actionData as SendResult | undefined} />
  )
}

function Room({
  data: { page, me, clientMessageId, viewingEarlier },
  result,
}: {
  data: Route.ComponentProps['loaderData']
  result?: SendResult
}) {
  const { t } = useTranslation(['chat', 'chat-closed'])
  const room = page.room
  const live = !viewingEarlier
  const chat = useRoomMessages({ roomId: room.id, me, otherId: room.other.id, page, live })
  const log = useRef<HTMLDivElement>(null)
  const sentinel = useRef<HTMLAnchorElement>(null)
  useNewestInView(log, chat.messages, me)
  const { loadEarlier } = chat
  useLoadEarlierAtTop(log, sentinel, loadEarlier)
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/chats">{t('room.back')}</Link>
      </p>
      <h1 className="visually-hidden">{t('room.title', { name: room.other.name })}</h1>
      <RoomHeader room={room} />
      <MessageLog label={t('room.history')} live={live} boxRef={log}>
        <li className="ui-chat-log-start">
          {chat.before !== null ? (
            <Link
              ref={sentinel}
              to={`/chats/${room.id}?before=${chat.before}`}
              onClick={(event) => {
                if (!live) return
                event.preventDefault()
                loadEarlier()
              }}
              data-testid="load-earlier"
            >
              {chat.loadingEarlier ? t('room.loadingEarlier') : t('room.loadEarlier')}
            </Link>
          ) : (
            <span className="hint">{chat.messages.length ? t('room.beginning') : t('room.empty')}</span>
          )}
        </li>
        {chat.messages.map((m) => (
          <MessageItem
            key={m.id}
            message={m}
            mine={m.senderId === me}
            otherName={room.other.name}
            read={m.id <= chat.otherRead}
          />
        ))}
      </MessageLog>
      <p className="hint" role="status" data-testid="typing">
        {chat.typing ? t('room.typing', { name: room.other.name }) : ''}
      </p>
      {viewingEarlier ? (
        <p>
          <Link to={`/chats/${room.id}`}>{t('room.newest')}</Link>
        </p>
      ) : null}
      {room.closed ? (
        <Notice title={t('chat-closed:closed.title')} data-testid="room-closed">
          {t(`chat-closed:closed.${room.closed}`)}
        </Notice>
      ) : (
        <Composer roomId={room.id} clientMessageId={clientMessageId} result={result} onSent={chat.add} />
      )}
    </main>
  )
}

/** Who the room is with, and links to the project and its contract. */
function RoomHeader({ room }: { room: Route.ComponentProps['loaderData']['page']['room'] }) {
  const { t } = useTranslation(['chat', 'chat-closed'])
  const links = projectLinks(room)
  const profile = room.myRole === 'client' ? `/profiles/freelancers/${room.other.id}` : undefined
  return (
    <header className="ui-card-header">
      <Person
        name={room.other.name}
        imageUrl={imageSrc(room.other.imageUrl)}
        href={profile}
        subtitle={t('room.project', { title: room.project.title })}
      />
      <ButtonGroup>
        {links.contract ? <ButtonLink to={links.contract}>{t('room.contract')}</ButtonLink> : null}
        <ButtonLink to={links.project}>{t('room.projectLink')}</ButtonLink>
      </ButtonGroup>
    </header>
  )
}

/** Reaching the top of the history (its first item in view) loads the page before it. */
function useLoadEarlierAtTop(
  box: React.RefObject<HTMLDivElement | null>,
  sentinel: React.RefObject<HTMLAnchorElement | null>,
  loadEarlier: () => void,
) {
  useEffect(() => {
    const target = sentinel.current
    if (!target || !box.current || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && loadEarlier(),
      {
        root: box.current,
      },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [box, sentinel, loadEarlier])
}

/**
 * The history's scroll box is anchored at its end (ui.css: column-reverse), so it opens at the
 * newest message, stays there as messages come and keeps its place when earlier pages are added
 * above, with or without JavaScript. Sending one's own message brings the view back to the end.
 */
function useNewestInView(
  box: React.RefObject<HTMLDivElement | null>,
  messages: { id: number; senderId: number | null }[],
  me: number,
) {
  const newest = messages.at(-1)
  const seen = useRef(newest?.id ?? 0)
  useLayoutEffect(() => {
    if (newest && newest.id > seen.current && newest.senderId === me && box.current) box.current.scrollTop = 0
    seen.current = Math.max(seen.current, newest?.id ?? 0)
  }, [box, newest, me])
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
