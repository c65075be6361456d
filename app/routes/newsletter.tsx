import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/newsletter'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { noticeFor } from '~/lib/errors'
import { getInstance } from '~/middleware/i18next'
import { contentContract } from '#server/modules/content/contract.ts'
// The plain module, not the contract: subscribedNotice stays in the browser's chunk, zod does not (issue 38).
import { SUBSCRIBED_REPLY, newsletterAddress } from '#server/modules/content/newsletter.ts'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { ErrorPage } from '~/components/error-page'

const newsletterSchema = z.object({
  address: z.string().trim().max(254).regex(newsletterAddress),
  redirectTo: z.string().optional(),
})

/**
 * docs/product.md §5: the reply is the notice, with no title; exactly "Subscribed Successfully!" gets a party
 * emoji. The API gives that reply for every address (decision 092), so the notice also says where
 * the subscription really starts: the link in the mail.
 */
export function subscribedNotice(reply: string, translate: (key: string) => string) {
  if (reply === SUBSCRIBED_REPLY)
    return `${translate('shell:notices.subscribed')} 🎉 ${translate('shell:notices.confirmByMail')}`
  return reply
}

// The footer's newsletter form posts here and comes back to the page it was on.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const back = safeRedirect(form.get('redirectTo'))
  const submission = parseWithZod(form, { schema: newsletterSchema })
  // A bad address does nothing and shows nothing.
  if (submission.status !== 'success') return redirect(back)
  const t = getInstance(context).t
  try {
    const reply = await apiFor(context, { token: null }).call(contentContract.subscribe, {
      params: { address: submission.value.address },
    })
    return redirectWithFlash(back, { kind: 'success', message: subscribedNotice(reply, t) })
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error
    if (error.status === 400) return redirect(back)
    const notice = noticeFor(error.status, error.problem, t, error.retryAfter)
    return redirectWithFlash(back, { kind: 'error', ...notice })
  }
}

export function loader() {
  return redirect('/')
}

// A form target with a status page of its own, not a bare resource route: what it refuses (another
// site's form, a body that is not a form) is answered with the page of docs/product.md §8, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
