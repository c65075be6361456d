import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/compare'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import type { ResultOf } from '#server/api/contract.ts'
import { shortlistContract as c } from '#server/modules/projects/shortlist/contract.ts'
import { simpleIntent } from './actions.server'
import { ActionButton, PlanList } from './ui'
import { Bid, wordProposal } from './terms-ui'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Rating } from '~/components/ui/person'
import { StatusChip } from '~/components/ui/status-chip'
import { titled } from '~/lib/meta'
import stylesheet from './compare.css?url'

// /projects/client/compare/{projectId}: the proposals the client shortlisted, side by side on a
// wide screen and one under the other on a phone (a grid that wraps, so nothing scrolls sideways),
// each with the client's private note and Accept (decision 336). Only the project's client gets here.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const compared = await apiFor(context).call(c.compare, {
      params: { projectId: Number(params.projectId) },
    })
    const words = wordsFor(getLocale(context))
    for (const { proposal: pr } of compared.data) {
      wordProposal(words, pr)
      if (pr.freelancer.ratingCount) words.rating(pr.freelancer.rating)
    }
    return { ...compared, words: words.words, title: getInstance(context).t('shortlist:compare.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

/** Accept, as on the project page, and back there with its confirmation. */
export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const form = await request.formData()
  if (form.get('intent') !== 'accept') return null
  return simpleIntent(context, projectId, form, `/projects/client/details/${projectId}?accepted=1`)
}

export default function Compare({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['shortlist', 'projects'])
  const { project, data } = loaderData
  const notice = (actionData as { notice?: string } | undefined)?.notice
  const back = `/projects/client/details/${project.id}`
  return (
    <main id="main" className="container page">
      <h1>{t('compare.title')}</h1>
      <p className="muted">{t('compare.lead', { title: project.title })}</p>
      <p>
        <Link to={back}>{t('compare.back')}</Link>
      </p>
      {notice ? <Notice kind="error">{t(`projects:${notice}`, { defaultValue: notice })}</Notice> : null}
      {data.length ? (
        <ul className="compare-grid" data-testid="compare">
          {data.map((e) => (
            <li key={e.proposalId}>
              <Compared entry={e} acceptable={project.status === 'open' && e.proposal.status === 'pending'} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title={t('compare.none')} />
      )}
    </main>
  )
}

type Entry = ResultOf<typeof c.compare>['data'][number]
const excerpt = (text: string) => (text.length > 280 ? `${text.slice(0, 277).trimEnd()}…` : text)

/** One shortlisted proposal: the same facts in the same order on every card, so the eye compares across. */
function Compared({ entry: e, acceptable }: { entry: Entry; acceptable: boolean }) {
  const { t } = useTranslation(['shortlist', 'projects'])
  const pr = e.proposal
  const nameId = `compare-${pr.id}-name`
  const hourly = pr.weeklyHours != null
  return (
    <Card
      as="div"
      level={2}
      titleId={nameId}
      title={<Link to={`/profiles/freelancers/${pr.freelancer.id}`}>{pr.freelancer.name}</Link>}
      status={<StatusChip machine="proposal" state={pr.status} />}
      meta={pr.freelancer.title}
      data-testid="compared"
    >
      <DefinitionList
        items={[
          [hourly ? t('compare.rate') : t('projects:details.bid'), <Bid key="bid" p={pr} />],
          [t('compare.duration'), t('projects:list.days', { count: pr.durationDays })],
          [
            t('compare.installments'),
            hourly ? (
              t('compare.noInstallments')
            ) : pr.installments.length ? (
              <PlanList key="plan" items={pr.installments} currency={pr.currency} />
            ) : null,
          ],
          [
            t('compare.rating'),
            <Rating key="rating" value={pr.freelancer.rating} count={pr.freelancer.ratingCount} />,
          ],
          [
            t('compare.letter'),
            <span key="letter" className="compare-letter">
              {excerpt(pr.coverLetter)}
            </span>,
          ],
          [
            t('compare.note'),
            e.note ? (
              <span key="note" className="prewrap compare-letter" data-testid="compared-note">
                {e.note}
              </span>
            ) : (
              <span key="note" className="muted">
                {t('compare.noNote')}
              </span>
            ),
          ],
        ]}
      />
      {acceptable ? (
        <ActionButton
          intent="accept"
          fields={{ id: pr.id }}
          label={t('compare.accept')}
          variant="primary"
          describedBy={nameId}
        />
      ) : null}
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
