import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import type { Logger } from '#server/log.ts'
import { periodicJob } from '#server/jobs/periodic.ts'
import { refundsContract as c } from './refunds-contract.ts'
import type { Refunds } from './refunds.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function refundsRoutes(refunds: Refunds) {
  return [
    implement(c.request, ({ params, body, ctx }) =>
      refunds.request(me(ctx.caller), { ...params, reason: body.reason }),
    ),
    implement(c.list, ({ params, ctx }) => refunds.list(me(ctx.caller), params.projectId)),
    implement(c.accept, ({ params, ctx }) => refunds.accept(me(ctx.caller), params.requestId)),
    implement(c.decline, ({ params, body, ctx }) =>
      refunds.decline(me(ctx.caller), params.requestId, body.reason),
    ),
    implement(c.dispute, ({ params, ctx }) => refunds.dispute(me(ctx.caller), params.requestId)),
  ]
}

/** Runs the refunds' periodic job (auto-release, refunds the gateway was never asked for) every `everyMs`, an hour by default. */
export function createRefundSweeper(refunds: Refunds, log: Logger, everyMs = 3_600_000) {
  return periodicJob(
    () =>
      refunds
        .sweep()
        .then(({ released }) => released && log.info({ released }, 'released installments left unanswered'))
        .catch((error) => log.error({ err: error }, 'refund sweep failed')),
    everyMs,
  )
}
