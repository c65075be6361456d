import { isRouteErrorResponse, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { noticeFor } from '~/lib/errors'

// Every route's ErrorBoundary renders the docs/product.md §8 notice for the status it was given: 400
// "Invalid Info" with the server's messages, 500 "Server Error", anything else "Something went
// wrong (because of backend)", and the fallback text when there is nothing better to say.
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const notice = noticeFor(status, isRouteErrorResponse(error) ? error.data : null, t)
  return (
    <main className="container page narrow" id="main">
      <div className="notice notice-error" role="alert" data-status={status}>
        <h1>{notice.title}</h1>
        <p className="pre-line">{notice.message}</p>
        <p>
          <Link to="/">{t('nav.home')}</Link>
        </p>
      </div>
    </main>
  )
}
