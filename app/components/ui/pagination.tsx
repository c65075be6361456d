import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'

/** Previous / next links that keep the other parameters of the URL; nothing when one page holds all. */
export function Pagination({
  url,
  page,
  pageSize,
  total,
}: {
  url: string
  page: number
  pageSize: number
  total: number
}) {
  const { t } = useTranslation('ui')
  const pages = Math.max(1, Math.ceil(total / pageSize))
  if (pages <= 1) return null
  const to = (n: number) => {
    const u = new URL(url, 'http://x')
    u.searchParams.set('page', String(n))
    return `${u.pathname}?${u.searchParams}`
  }
  return (
    <nav className="ui-pagination" aria-label={t('pagination.label')}>
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev">
          {t('pagination.previous')}
        </Link>
      ) : null}
      <span className="ui-pagination-current" aria-current="page">
        {t('pagination.pageOf', { page, pages: total >= 1000 ? `${pages}+` : pages })}
      </span>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next">
          {t('pagination.next')}
        </Link>
      ) : null}
    </nav>
  )
}
