import type { Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { asLocale, renderMail } from '../identity/mails.ts'
import type { NotificationsService } from '../notifications/service.ts'

// Telling a person the decision on their verification (decision 332): a notice in the site and a
// mail in their language. It is an account mail, as a password change's is: it always goes out.

export interface NoticeDeps {
  publicUrl: string
  notifications: Pick<NotificationsService, 'record'>
}

export async function tellDecision(
  trx: Transaction<Database>,
  deps: NoticeDeps,
  request: { id: number; userId: number; state: 'verified' | 'rejected'; reason: string },
) {
  const approved = request.state === 'verified'
  await deps.notifications.record(trx, [
    {
      userId: request.userId,
      source: `verification:${request.id}`,
      messageKey: approved ? 'verification:notify.approved' : 'verification:notify.rejected',
      params: approved ? {} : { reason: request.reason },
      type: 'Verification',
    },
  ])
  const to = await trx
    .selectFrom('app_user')
    .select(['email', 'first_name', 'language', 'status'])
    .where('id', '=', request.userId)
    .executeTakeFirst()
  if (!to || to.status === 'Deleted') return
  await enqueue(
    trx,
    EMAIL_TOPIC,
    renderMail(approved ? 'verificationApproved' : 'verificationRejected', {
      to: to.email,
      language: asLocale(to.language),
      name: to.first_name,
      link: new URL('/profile/verification', deps.publicUrl).href,
      vars: { reason: request.reason },
    }),
  )
}
