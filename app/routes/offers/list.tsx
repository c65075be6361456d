import { Link } from 'react-router'
import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { can } from '#server/modules/identity/permissions.ts'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { offersContract as c, type OfferOut } from '#server/modules/projects/offers/contract.ts'
import { listPage } from '~/lib/list-page'
import { OfferChip, useOfferLine, usePrice, wordOffer } from './offer-terms'

// /offers: a person's direct offers (decision 342), newest first: a freelancer's received ones, a
// client's sent ones. Each card opens the offer, where it is answered or withdrawn.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  const side = can(user.roles, 'proposals.mine') ? 'received' : 'sent'
  try {
    const page = listPage(url)
    const result = await apiFor(context).call(side === 'received' ? c.received : c.sent, {
      query: { page, pageSize: 20 },
    })
    const t = getInstance(context).t
    const words = wordsFor(getLocale(context))
    for (const o of result.data) wordOffer(words, o)
    return {
      result,
      side,
      words: words.words,
      url: url.pathname + url.search,
      title: t(`projects:offers.${side}`),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Offers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { result, side, url } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t(`offers.${side}`)}</h1>
      {result.data.length ? null : (
        <EmptyState title={t('offers.none')}>{t(`offers.noneHint.${side}`)}</EmptyState>
      )}
      {result.data.map((o) => (
        <OfferCard key={o.id} offer={o} />
      ))}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

function OfferCard({ offer: o }: { offer: OfferOut }) {
  return (
    <Card
      data-testid="offer-card"
      level={2}
      titleId={`offer-${o.id}`}
      title={<Link to={`/offers/${o.id}`}>{o.title}</Link>}
      status={<OfferChip state={o.status} />}
      meta={useOfferLine(o)}
    >
      <p>{usePrice(o)}</p>
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
