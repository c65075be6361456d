import type { RouterContextProvider } from 'react-router'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { getInstance } from '~/middleware/i18next'
import { contentContract, newsletterToken } from '#server/modules/content/contract.ts'

// The two links the newsletter mails (confirm a subscription, unsubscribe) work alike: opening one
// shows a page with one button, so a mail scanner that follows links changes nothing; pressing it
// calls the API with the link's token, once. Both routes are these two functions and one page.
type Context = Readonly<RouterContextProvider>
type LinkCall = typeof contentContract.confirmSubscription | typeof contentContract.unsubscribe

export function newsletterLinkLoader(context: Context, token: string, titleKey: string) {
  return {
    valid: newsletterToken.test(token),
    title: getInstance(context).t(`content:newsletter.${titleKey}`),
  }
}

export async function newsletterLinkAction(context: Context, token: string, call: LinkCall, doneKey: string) {
  if (!newsletterToken.test(token)) return { invalid: true }
  try {
    await apiFor(context, { token: null }).call(call, { params: { token } })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 404 || error.status === 400))
      return { invalid: true }
    throw error
  }
  return redirectWithFlash('/', {
    kind: 'success',
    message: getInstance(context).t(`content:newsletter.${doneKey}`),
  })
}
