import type { Route } from './+types/newsletter-confirm'
import { ErrorPage } from '~/components/error-page'
import { NewsletterLinkPage } from '~/components/newsletter/link-page'
import { newsletterLinkAction, newsletterLinkLoader } from '~/lib/newsletter-link.server'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'

// The link in the newsletter's confirmation mail (double opt-in, decision 092): pressing the page's
// one button starts the subscription, with or without JavaScript. The link works once.
export const loader = ({ params, context }: Route.LoaderArgs) =>
  newsletterLinkLoader(context, params.token, 'confirmTitle')

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export const action = ({ params, context }: Route.ActionArgs) =>
  newsletterLinkAction(context, params.token, contentContract.confirmSubscription, 'confirmed')

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsletterLinkPage
      invalid={!loaderData.valid || !!actionData?.invalid}
      keys={{
        title: 'confirmTitle',
        invalid: 'confirmInvalid',
        body: 'confirmBody',
        button: 'confirmButton',
      }}
      primary
    />
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
