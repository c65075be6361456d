import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/notifications'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { MarkAllRead, NotificationEntry } from '~/components/shell/bells'
import { withAges } from '~/components/shell/bells.server'
import { titled } from '~/lib/meta'
import { notificationsContract as c, NOTIFICATION_PAGE } from '#server/modules/notifications/contract.ts'

// /notifications (login required, issue 15): every notification of the signed-in user, newest
// first, ten a page (`?page=2`), with plain links between pages. Each one is the bell's form: it
// marks the notification read and opens what it is about, with or without JavaScript. The bell's
// "See all" leads here. Not kept per session: a read anywhere must show here at once.
const LAST_PAGE = 10_000 // the API's offset stops at 100,000

export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const asked = Number(url.searchParams.get('page') ?? 1)
  const page = Number.isInteger(asked) && asked > 0 ? Math.min(asked, LAST_PAGE) : 1
  const hand = (page - 1) * NOTIFICATION_PAGE
  const api = apiFor(context)
  try {
    // The next page's first row says whether there is one (the API has no total).
    const [list, next] = await Promise.all([
      api.call(c.list, { query: { hand } }),
      page < LAST_PAGE ? api.call(c.list, { query: { hand: hand + NOTIFICATION_PAGE } }) : { data: [] },
    ])
    return {
      items: withAges(context, list.data),
      page,
      hasNext: next.data.length > 0,
      unread: list.unreadCount,
      title: getInstance(context).t('notifications:page.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

const pageHref = (page: number) => (page > 1 ? `/notifications?page=${page}` : '/notifications')

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications')
  const { items, page, hasNext, unread } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('page.title')}</h1>
      <p className="lead">{t('page.unread', { count: unread })}</p>
      <div className="notification-actions">
        {unread > 0 ? <MarkAllRead className="mark-all-read" /> : null}
        <Link to="/notifications/settings">{t('settings.link')}</Link>
      </div>
      {items.length ? (
        <>
          <p className="muted">{t('page.intro')}</p>
          <ul className="bell-list notification-list" aria-label={t('page.current', { page })}>
            {items.map((n) => (
              <li key={n.id} className={n.isRead ? '' : 'unread'} data-testid="notification">
                <NotificationEntry n={n} ago={n.ago} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="empty-state">{page > 1 ? t('page.emptyPage') : t('page.empty')}</p>
      )}
      {page > 1 || hasNext ? (
        <nav className="pagination" aria-label={t('page.pages')}>
          {page > 1 ? (
            <Link to={pageHref(page - 1)} rel="prev">
              {t('page.newer')}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted">{t('page.current', { page })}</span>
          {hasNext ? (
            <Link to={pageHref(page + 1)} rel="next">
              {t('page.older')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
