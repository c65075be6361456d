import type { Route } from './+types/newsletter-unsubscribe'
import { ErrorPage } from '~/components/error-page'
import { NewsletterLinkPage } from '~/components/newsletter/link-page'
import { newsletterLinkAction, newsletterLinkLoader } from '~/lib/newsletter-link.server'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'

// The link in every newsletter mail: pressing the page's one button unsubscribes, with or without JavaScript.
export const loader = ({ params, context }: Route.LoaderArgs) =>
  newsletterLinkLoader(context, params.token, 'unsubscribeTitle')

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export const action = ({ params, context }: Route.ActionArgs) =>
  newsletterLinkAction(context, params.token, contentContract.unsubscribe, 'unsubscribed')

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsletterLinkPage
      invalid={!loaderData.valid || !!actionData?.invalid}
      keys={{
        title: 'unsubscribeTitle',
        invalid: 'invalid',
        body: 'unsubscribeBody',
        button: 'unsubscribeButton',
      }}
    />
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
