import { useShellData } from '~/components/shell/use-shell-data'
import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { ProfileCompleteness } from '~/components/profile-completeness'
import { titled } from '~/lib/meta'
import { agesById } from '~/components/shell/bells.server'
import { dashboardContract, type Dashboard as DashboardData } from '#server/modules/dashboard/contract.ts'
import { paymentsContract } from '#server/modules/payments/contract.ts'
import { MoneyCard, wordMoneyCard, type Balances } from './dashboard-money'
import { Money } from './projects/ui'
import { wordsFor } from '~/lib/words'
import { Bid } from './projects/terms-ui'
import { ButtonLink } from '~/components/ui/button'
import { ConversationList } from '~/components/ui/conversation'
import { StatusChip } from '~/components/ui/status-chip'
import { RoomItem } from '~/components/chat/room-item'
import { HourlyCardStep, HourlyCardTerms, wordHourlyCard } from './dashboard-hourly'
import styles from './dashboard.css?inline'

// /dashboard (docs/product.md §2, login required; where signing in lands): what waits on the user, each item
// one click from the page where it is acted on. One API call (GET dashboard) gives it all; the
// page only lays it out.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  try {
    const api = apiFor(context)
    const [dashboard, money] = await Promise.all([
      api.call(dashboardContract.mine),
      api.call(paymentsContract.balances),
    ])
    return {
      dashboard,
      money: money.data,
      firstName: user.firstName || user.name,
      // Worded by the server, so the browser builds no Intl.RelativeTimeFormat while it hydrates (decision 358).
      ago: agesById(context, dashboard.notifications.latest, (n) => n.createdDate),
      words: wordsOf(getLocale(context), money.data, dashboard),
      title: getInstance(context).t('dashboard:title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

/** The amounts and weeks the page shows, worded by the server (decisions 362, 365). */
function wordsOf(lng: string, money: Balances, dashboard: DashboardData) {
  const words = wordsFor(lng)
  wordMoneyCard(words, money)
  for (const c of dashboard.contracts.items) {
    if (c.next) words.money(c.next.amountMinor, c.next.currency)
    if (c.hourly) wordHourlyCard(words, c.hourly)
  }
  for (const p of dashboard.proposals?.items ?? []) words.money(p.bidMinor, p.currency)
  return words.words
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Contract = DashboardData['contracts']['items'][number]

/** The page where each side acts on a contract. */
const contractHref = (c: Contract) =>
  c.role === 'client'
    ? `/projects/client/details/${c.projectId}`
    : `/projects/freelancer/contract/${c.projectId}`

/** Where the move is made: funding opens the pay page of that installment (its confirmation step), the others the contract's page. */
const moveHref = (c: Contract, move: string) =>
  move === 'fund' && c.role === 'client' && c.next
    ? `/projects/client/pay/${c.projectId}?installment=${c.next.id}`
    : `${contractHref(c)}${c.role === 'client' ? '#contract' : '#installments'}`

/** The move a contract waits for, named by the next installment's state (none left: completion). */
function moveOf(c: Contract) {
  switch (c.next?.status) {
    case 'pending':
      return 'fund'
    case 'funded':
      return 'submit'
    case 'changes_requested':
      return 'changes'
    case 'submitted':
      return 'review'
    default:
      return 'complete'
  }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(['dashboard', 'projects', 'profile'])
  const { dashboard: d } = loaderData
  return (
    <main id="main" className="container page dashboard">
      {/* Its own rules (0.5 KB gzip) come with the page, as the shell's do (decision 346): a stylesheet
          file held the first paint back for one more request, while the scripts raced it (decision 362). */}
      <style dangerouslySetInnerHTML={{ __html: styles }} />
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead', { name: loaderData.firstName })}</p>
      <div className="dashboard-grid">
        <div className="dashboard-work">
          {d.projects ? <ProjectsToDecide projects={d.projects} /> : null}
          {d.proposals ? <MyProposals proposals={d.proposals} /> : null}
          {d.projects || d.proposals ? <Contracts contracts={d.contracts} client={!!d.projects} /> : null}
        </div>
        <div className="dashboard-side">
          <Notifications notifications={d.notifications} ago={loaderData.ago} />
          {d.projects || d.proposals ? (
            <MoneyCard money={loaderData.money} freelancer={!!d.proposals} />
          ) : null}
          <Messages />
          {d.projects || d.proposals ? (
            <section className="card dashboard-card" aria-labelledby="dash-reviews">
              <h2 id="dash-reviews">{t('reviews.title')}</h2>
              <p>
                {d.reviewsToWrite ? t('reviews.toWrite', { count: d.reviewsToWrite }) : t('reviews.none')}
              </p>
              <p>
                <Link to="/reviews">{d.reviewsToWrite ? t('reviews.write') : t('reviews.link')}</Link>
              </p>
            </section>
          ) : null}
          {d.profile ? (
            <ProfileCompleteness
              percent={d.profile.percent}
              missing={d.profile.missing}
              title={t('profile.title')}
              id="dash-profile"
            />
          ) : null}
        </div>
      </div>
    </main>
  )
}

function ProjectsToDecide({ projects }: { projects: NonNullable<DashboardData['projects']> }) {
  const { t } = useTranslation(['dashboard', 'projects'])
  return (
    <section className="card dashboard-card" aria-labelledby="dash-projects">
      <h2 id="dash-projects">{t('projects.title')}</h2>
      {projects.items.length ? (
        <ul className="dashboard-list">
          {projects.items.map((p) => (
            <li key={p.id} data-testid="dash-project">
              <Link to={`/projects/client/details/${p.id}`}>{p.title}</Link>
              <span className="muted">{t('projects.pending', { count: p.pendingProposals })}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('projects.empty')}</p>
      )}
      <p className="dashboard-more">
        {projects.total > projects.items.length ? (
          <span>{t('projects.more', { count: projects.total })} </span>
        ) : null}
        <Link to="/projects/client">{t('projects.all')}</Link> ·{' '}
        <Link to="/projects/create">{t('projects.post')}</Link> ·{' '}
        <Link to="/freelancers/saved">{t('projects.savedFreelancers')}</Link> ·{' '}
        <Link to="/hiring">{t('projects.hiringHelp')}</Link>
      </p>
    </section>
  )
}

function MyProposals({ proposals }: { proposals: NonNullable<DashboardData['proposals']> }) {
  const { t } = useTranslation(['dashboard', 'projects'])
  const states = ['pending', 'accepted', 'rejected', 'withdrawn'] as const
  return (
    <section className="card dashboard-card" aria-labelledby="dash-proposals">
      <h2 id="dash-proposals">{t('proposals.title')}</h2>
      <dl className="dashboard-counts" aria-label={t('proposals.byState')}>
        {states.map((s) => (
          <div key={s}>
            <dt>{t(`projects:status.${s}`)}</dt>
            <dd>{proposals.byState[s]}</dd>
          </div>
        ))}
      </dl>
      {proposals.items.length ? (
        <ul className="dashboard-list">
          {proposals.items.map((p) => (
            <li key={p.id} data-testid="dash-proposal">
              <Link to={`/projects/details/${p.projectId}`}>{p.projectTitle}</Link>
              <span>
                <StatusChip machine="proposal" state={p.status} />{' '}
                <span className="muted">
                  {t('proposals.bid')} <Bid p={p} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('proposals.empty')}</p>
      )}
      <p className="dashboard-more">
        <Link to="/projects/freelancer/porposals">{t('proposals.all')}</Link> ·{' '}
        <Link to="/projects/invitations">{t('proposals.invitations')}</Link> ·{' '}
        <Link to="/projects/getprojects?search=all">{t('proposals.find')}</Link>
      </p>
    </section>
  )
}

function Contracts({ contracts, client }: { contracts: DashboardData['contracts']; client: boolean }) {
  const { t } = useTranslation(['dashboard', 'projects'])
  return (
    <section className="card dashboard-card" aria-labelledby="dash-contracts">
      <h2 id="dash-contracts">{t('contracts.title')}</h2>
      {contracts.items.length ? (
        <ul className="dashboard-list">
          {contracts.items.map((c) => {
            const move = moveOf(c)
            const step = { name: c.other.name, position: c.next?.position ?? 0, title: c.next?.title ?? '' }
            return (
              <li
                key={c.contractId}
                data-testid="dash-contract"
                className={c.yourTurn ? 'your-turn' : undefined}
              >
                <Link to={contractHref(c)}>{c.projectTitle}</Link>
                <span className="muted">{t('contracts.with', { name: c.other.name })}</span>
                {c.hourly && !c.next ? (
                  <HourlyCardStep c={c} hourly={c.hourly} />
                ) : (
                  <>
                    <p className="dashboard-step">
                      {c.yourTurn ? (
                        <strong>{t(`contracts.you.${move}`, step)}</strong>
                      ) : (
                        t(`contracts.wait.${move}`, step)
                      )}
                      {c.next && move === 'fund' ? (
                        <>
                          {' '}
                          (<Money minor={c.next.amountMinor} currency={c.next.currency} />)
                        </>
                      ) : null}
                    </p>
                    {c.yourTurn ? (
                      <ButtonLink variant="primary" to={moveHref(c, move)}>
                        {t(`contracts.do.${move}`, step)}
                      </ButtonLink>
                    ) : null}
                  </>
                )}
                {c.hourly ? (
                  <HourlyCardTerms hourly={c.hourly} />
                ) : c.installmentsTotal ? (
                  <span className="muted small">
                    {t('contracts.progress', { done: c.installmentsDone, total: c.installmentsTotal })}
                  </span>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="muted">{t('contracts.empty')}</p>
      )}
      <p className="dashboard-more">
        {contracts.total > contracts.items.length ? (
          <span>{t('contracts.more', { count: contracts.total })} </span>
        ) : null}
        <Link to={client ? '/projects/client?status=in_progress' : '/projects/freelancer'}>
          {t('contracts.all')}
        </Link>
      </p>
    </section>
  )
}

function Notifications({
  notifications,
  ago,
}: {
  notifications: DashboardData['notifications']
  ago: Record<number, string>
}) {
  const { t } = useTranslation(['dashboard', 'notifications'])
  return (
    <section className="card dashboard-card" aria-labelledby="dash-notifications">
      <h2 id="dash-notifications">{t('notifications.title')}</h2>
      <p>
        {notifications.unread
          ? t('notifications.unread', { count: notifications.unread })
          : t('notifications.empty')}
      </p>
      {notifications.latest.length ? (
        <ul className="dashboard-list">
          {notifications.latest.map((n) => (
            <li key={n.id} data-testid="dash-notification">
              {/* As in the bell: a form that marks it read and goes where it leads (works without JavaScript). */}
              <Form method="post" action={`/notifications/${n.id}/read`}>
                <button type="submit" className="link-button">
                  {n.title}
                </button>
              </Form>
              <span className="muted small">
                {n.content} · <time dateTime={n.createdDate}>{ago[n.id]}</time>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        <Link to="/notifications">{t('notifications:seeAll')}</Link>
      </p>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}

/** The latest chats, from the top bar's messages data (the layout loader), with a link to all of them. */
function Messages() {
  const { t } = useTranslation(['dashboard', 'chat', 'shell'])
  const messages = useShellData()?.messages
  const rooms = messages?.rooms.slice(0, 3) ?? []
  return (
    <section className="card dashboard-card" aria-labelledby="dash-messages">
      <h2 id="dash-messages">{t('messages.title')}</h2>
      {rooms.length ? (
        <>
          <p>{t('list.unreadRooms', { ns: 'chat', count: messages?.unread ?? 0 })}</p>
          <ConversationList label={t('list.rooms', { ns: 'chat' })}>
            {rooms.map((room) => (
              <RoomItem key={room.id} room={room} compact />
            ))}
          </ConversationList>
        </>
      ) : (
        <p className="muted">{t('list.empty', { ns: 'chat' })}</p>
      )}
      <p>
        <Link to="/chats">{t('messages.all', { ns: 'shell' })}</Link>
      </p>
    </section>
  )
}
