import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { chatContract as c } from './contract.ts'
import type { ChatService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller.userId
}

export function chatRoutes(chat: ChatService) {
  return [
    implement(c.roomsCount, ({ ctx }) => chat.roomsCount(me(ctx.caller))),
    implement(c.rooms, ({ params, query, ctx }) =>
      chat.rooms(me(ctx.caller), params.page, query.pageSize, ctx.locale),
    ),
    implement(c.userInfo, ({ params, ctx }) => chat.userInfo(me(ctx.caller), params.userId)),
    implement(c.messages, ({ params, query, ctx }) =>
      chat.messages(me(ctx.caller), params.roomId, query, ctx.locale),
    ),
    // The body is undefined when the request is multipart (the contract's `multipart`).
    implement(c.send, ({ params, body, ctx }) =>
      body
        ? chat.send(me(ctx.caller), params.roomId, body, ctx.locale)
        : chat.sendForm(me(ctx.caller), params.roomId, ctx.request, ctx.locale),
    ),
    implement(c.markRead, ({ params, body, ctx }) => chat.markRead(me(ctx.caller), params.roomId, body.upTo)),
    implement(c.countUnread, ({ params, ctx }) => chat.countUnread(me(ctx.caller), params.roomId)),
  ]
}
