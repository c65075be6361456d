import { data, redirect, Form, Link } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/payments'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { useWords, wordsFor, type Wording } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip, StatusChip } from '~/components/ui/status-chip'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Toolbar } from '~/components/ui/toolbar'
import { TextField, type FieldReply } from '~/components/ui/field'
import {
  adminMoneyContract as c,
  reconcileBody,
  type HealthProblem,
} from '#server/modules/admin-money/contract.ts'

// /admin/payments (SuperAdmin only, decisions 252–253): payouts waiting, refund requests and
// disputes (linked to their complaint), the ledger's health checks, and money stuck in flight
// with "reconcile now". The reconcile form is a plain POST answered by a redirect carrying the
// result in the address, so it works without JavaScript and a reload does not repeat it.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const reconciled = /^(\d+)\.(\d+)\.(\d+)$/.exec(url.searchParams.get('reconciled') ?? '')
  try {
    const overview = await apiFor(context).call(c.payments, {})
    const words = wordsFor(getLocale(context))
    wordOverview(words, overview)
    return {
      overview,
      words: words.words,
      reconciled: reconciled
        ? { payouts: Number(reconciled[1]), refunds: Number(reconciled[2]), left: Number(reconciled[3]) }
        : null,
      title: getInstance(context).t('adminMoney:payments.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const form = await request.formData()
  // "Run the checks now" (the page otherwise shows their last run, decision 264).
  if (form.get('intent') === 'check-health') {
    try {
      await apiFor(context).call(c.checkHealth, {})
      return redirect('/admin/payments#health')
    } catch (error) {
      throwApiError(error)
    }
  }
  const submission = parseWithZod(form, { schema: reconcileBody })
  if (submission.status !== 'success')
    return data({ reply: submission.reply() as FieldReply }, { status: 400 })
  try {
    const done = await apiFor(context).call(c.reconcile, { body: submission.value })
    return redirect(`/admin/payments?reconciled=${done.payoutsSettled}.${done.refundsSettled}.${done.left}`)
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Overview = Route.ComponentProps['loaderData']['overview']

/** Words each amount and time the page shows, as its tables show them. */
function wordOverview(words: Wording, o: Overview) {
  words.date(o.checkedAt, 'dateTime')
  for (const p of o.health.flatMap((h) => h.problems))
    for (const minor of [p.amountMinor, p.expectedMinor]) words.money(minor, p.currency)
  for (const p of [...o.payouts, ...o.refunds, ...o.stuckRefunds]) words.money(p.amountMinor, p.currency)
  for (const at of [...o.payouts.map((p) => p.createdAt), ...o.stuckRefunds.map((r) => r.updatedAt)])
    words.date(at, 'dateTime')
  for (const r of o.refunds) words.date(r.respondBy)
}

export default function AdminPayments({
  loaderData: { overview, reconciled },
  actionData,
}: Route.ComponentProps) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  return (
    <main id="main" className="container page">
      <h1>{t('payments.title')}</h1>
      <p className="lead">{t('payments.lead')}</p>
      {reconciled ? (
        <Notice kind={reconciled.left ? 'warning' : 'success'} data-testid="reconciled">
          {t('payments.reconciled', {
            payouts: reconciled.payouts,
            refunds: reconciled.refunds,
            left: reconciled.left,
          })}
        </Notice>
      ) : null}

      <HealthSection overview={overview} />

      {/* Not a labelled region: the table inside is the region of that name. */}
      <section className="ui-section">
        <h2 id="payouts">{t('payments.payouts')}</h2>
        {overview.payouts.length ? (
          <PayoutsTable payouts={overview.payouts} />
        ) : (
          <EmptyState title={t('payments.noPayouts')} />
        )}
      </section>

      <section className="ui-section">
        <h2 id="refunds">{t('payments.refunds')}</h2>
        {overview.refunds.length ? (
          <RefundsTable refunds={overview.refunds} />
        ) : (
          <EmptyState title={t('payments.noRefunds')} />
        )}
      </section>

      <ReconcileSection overview={overview} reply={actionData?.reply} />
    </main>
  )
}

/** The ledger's health checks: when they last ran, "run them now", and what each found. */
function HealthSection({ overview }: { overview: Overview }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const words = useWords()
  const money = words.money
  const problemText = (p: HealthProblem) =>
    t('payments.problem', {
      subject: p.subject,
      found: money(p.amountMinor, p.currency),
      expected: money(p.expectedMinor, p.currency),
    })
  return (
    <section className="ui-section" aria-labelledby="health">
      <h2 id="health">{t('payments.health')}</h2>
      <Form method="post" action="/admin/payments" data-testid="health-form">
        <Toolbar label={t('payments.health')}>
          <p className="muted small" data-testid="health-checked-at" data-checked-at={overview.checkedAt}>
            {t('payments.checkedAt', { at: words.date(overview.checkedAt, 'dateTime') })}{' '}
            {t('payments.checkSchedule')}
          </p>
          <Button name="intent" value="check-health">
            {t('payments.checkNow')}
          </Button>
        </Toolbar>
      </Form>
      <ul className="ui-list">
        {overview.health.map((h) => (
          <Card
            as="li"
            key={h.check}
            data-testid={`check-${h.check}`}
            title={t(`payments.checks.${h.check}`)}
            titleId={`check-${h.check}`}
            status={
              <Chip tone={h.ok ? 'success' : 'danger'}>
                {h.ok ? t('payments.ok') : t('payments.problemCount', { count: h.problems.length })}
              </Chip>
            }
          >
            {h.ok ? null : (
              <ul>
                {h.problems.map((p, n) => (
                  <li key={n}>{problemText(p)}</li>
                ))}
              </ul>
            )}
          </Card>
        ))}
      </ul>
    </section>
  )
}

function PayoutsTable({ payouts }: { payouts: Overview['payouts'] }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const words = useWords()
  const money = words.money
  return (
    <DataTable
      caption={t('payments.payouts')}
      captionHidden
      columns={[
        { label: t('payments.freelancer') },
        { label: t('payments.destination') },
        { label: t('payments.asked') },
        { label: t('payments.state') },
        { label: t('payments.amount'), numeric: true },
      ]}
      rows={payouts.map((p) => ({
        key: p.id,
        testId: 'pending-payout',
        cells: [
          p.freelancer.name,
          p.destination,
          words.date(p.createdAt, 'dateTime'),
          p.stuck ? (
            <Chip tone="danger">{t('payments.stuck')}</Chip>
          ) : (
            <StatusChip machine="payout" state="requested" />
          ),
          money(p.amountMinor, p.currency),
        ],
      }))}
    />
  )
}

/** Refund requests and disputes, each linked to its complaint. */
function RefundsTable({ refunds }: { refunds: Overview['refunds'] }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const words = useWords()
  const money = words.money
  return (
    <DataTable
      caption={t('payments.refunds')}
      captionHidden
      columns={[
        { label: t('payments.project') },
        { label: t('payments.parties') },
        { label: t('payments.reason') },
        { label: t('payments.state') },
        { label: t('payments.complaint') },
        { label: t('payments.amount'), numeric: true },
      ]}
      rows={refunds.map((r) => ({
        key: r.id,
        testId: 'refund-request',
        cells: [
          <>
            {r.project}
            <br />
            <span className="muted small">{r.installment}</span>
          </>,
          t('payments.partiesText', { client: r.client.name, freelancer: r.freelancer.name }),
          <span className="prewrap">{r.reason}</span>,
          <>
            <StatusChip machine="refund" state={r.status} />
            {r.overdue ? (
              <span className="muted small">{` ${t('payments.overdue', { date: words.date(r.respondBy) })}`}</span>
            ) : null}
          </>,
          r.complaintId ? (
            <Link to={`/admin/complaints/${r.complaintId}`}>
              {t('payments.openComplaint', { id: r.complaintId })}
            </Link>
          ) : (
            t('payments.noComplaint')
          ),
          money(r.amountMinor, r.currency),
        ],
      }))}
    />
  )
}

/** Money stuck in flight, and the form that reconciles it now. */
function ReconcileSection({ overview, reply }: { overview: Overview; reply: FieldReply | undefined }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const words = useWords()
  const money = words.money
  const inFlight = overview.payouts.filter((p) => p.stuck).length + overview.stuckRefunds.length
  return (
    <section className="ui-section" aria-labelledby="reconcile">
      <h2 id="reconcile">{t('payments.inFlight')}</h2>
      <p data-testid="in-flight">
        {inFlight ? t('payments.inFlightCount', { count: inFlight }) : t('payments.nothingInFlight')}
      </p>
      {overview.stuckRefunds.length ? (
        <DataTable
          caption={t('payments.stuckRefunds')}
          columns={[
            { label: t('payments.refund') },
            { label: t('payments.since') },
            { label: t('payments.amount'), numeric: true },
          ]}
          rows={overview.stuckRefunds.map((r) => ({
            key: r.id,
            cells: [`#${r.id}`, words.date(r.updatedAt, 'dateTime'), money(r.amountMinor, r.currency)],
          }))}
        />
      ) : null}
      <Form method="post" className="ui-card form-stack" data-testid="reconcile-form">
        <p className="muted small">{t('payments.reconcileHelp')}</p>
        <TextField
          name="reason"
          label={t('payments.reconcileReason')}
          ns="adminMoney"
          reply={reply}
          required
          maxLength={500}
        />
        <div>
          <Button variant="primary">{t('payments.reconcileNow')}</Button>
        </div>
      </Form>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
