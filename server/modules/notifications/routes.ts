import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { notificationsContract as c } from './contract.ts'
import type { NotificationsService } from './service.ts'

const signedIn = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}
const me = (caller: Caller | null) => signedIn(caller).userId

export function notificationsRoutes(notifications: NotificationsService) {
  return [
    implement(c.count, ({ ctx }) => notifications.count(me(ctx.caller))),
    implement(c.list, ({ query, ctx }) => notifications.list(me(ctx.caller), query.hand, ctx.locale)),
    implement(c.markRead, ({ params, ctx }) => notifications.markRead(me(ctx.caller), params.id, ctx.locale)),
    implement(c.markAllRead, async ({ ctx }) => ({
      marked: await notifications.markAllRead(me(ctx.caller)),
      unreadCount: 0,
    })),
    implement(c.preferences, async ({ ctx }) => ({
      preferences: await notifications.preferences(me(ctx.caller)),
    })),
    implement(c.setPreferences, async ({ body, ctx }) => ({
      preferences: await notifications.setPreferences(me(ctx.caller), body.preferences),
    })),
    implement(c.pushKey, async () => ({ publicKey: await notifications.pushKey() })),
    implement(c.pushSubscribe, ({ body, ctx }) =>
      notifications.subscribe(signedIn(ctx.caller), body, ctx.request.headers.get('user-agent')),
    ),
    implement(c.pushUnsubscribe, async ({ body, ctx }) => {
      await notifications.unsubscribe(me(ctx.caller), body.endpoint)
      return { endpoint: body.endpoint }
    }),
    implement(c.emailOff, async ({ params }) => {
      await notifications.stopMails(params.userId, params.kind, params.token)
      return { kind: params.kind }
    }),
    implement(c.hubList, ({ params, query, ctx }) =>
      notifications.list(notifications.ownId(me(ctx.caller), params.userId), query.hand, ctx.locale),
    ),
    implement(c.hubCount, ({ params, ctx }) =>
      notifications.count(notifications.ownId(me(ctx.caller), params.userId)),
    ),
    implement(c.hubMarkRead, ({ params, ctx }) =>
      notifications.markRead(me(ctx.caller), params.id, ctx.locale),
    ),
  ]
}
