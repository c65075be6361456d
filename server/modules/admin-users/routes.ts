import { implement } from '#server/api/handler.ts'
import { adminUsersContract as c } from './contract.ts'
import type { AdminUsersService } from './service.ts'

// The handler has answered 401/403 before these run (access 'admin', decision 220): a caller is there.
export function adminUsersRoutes(users: AdminUsersService) {
  return [
    implement(c.search, ({ query, ctx }) => users.search(ctx.caller!, query)),
    implement(c.get, ({ params, ctx }) => users.get(ctx.caller!, params.userId)),
    implement(c.suspend, ({ params, body, ctx }) => users.suspend(ctx.caller!, params.userId, body.reason)),
    implement(c.unsuspend, ({ params, body, ctx }) =>
      users.unsuspend(ctx.caller!, params.userId, body.reason),
    ),
    implement(c.delete, ({ params, body, ctx }) => users.delete(ctx.caller!, params.userId, body.reason)),
    implement(c.superAdmin, ({ params, body, ctx }) => users.superAdmin(ctx.caller!, params.userId, body)),
    implement(c.resetPassword, ({ params, body, ctx }) =>
      users.resetPassword(ctx.caller!, params.userId, body.reason),
    ),
  ]
}
