import { sql, type RawBuilder } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { roleNames } from '../identity/permissions.ts'
import type { Dashboard } from './contract.ts'

// The dashboard's figures (decision 251): counts now, and per week of the period (weeks start on
// Monday, UTC) what was created and how money was held and released. The database groups by day
// (one row per day and key, whatever the volume), the weeks are summed here: the day's text is the
// one expression that differs between SQLite and PostgreSQL.
const DAY = 86_400_000

/** The Mondays (UTC) of the last `weeks` weeks, this one last. */
export function weekStartsEnding(now: Date, weeks: number) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY
  return Array.from({ length: weeks }, (_, n) =>
    new Date(monday - (weeks - 1 - n) * 7 * DAY).toISOString().slice(0, 10),
  )
}

/** Which week of `starts` a day (YYYY-MM-DD) falls in, or -1 before the first. */
const weekOf = (starts: string[], day: string) => {
  for (let n = starts.length - 1; n >= 0; n--) if (day >= starts[n]) return n
  return -1
}

/** The database's day (YYYY-MM-DD, UTC) of a timestamp column: the one expression that differs between SQLite and PostgreSQL. */
const dayOf = (dialect: Dialect, column: string): RawBuilder<string> =>
  dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`

type Counted = 'app_user' | 'project' | 'contract'

/** New rows per week of `starts` in a table with a created_at column. */
async function perWeek(db: DB, dialect: Dialect, table: Counted, starts: string[], since: string) {
  const day = dayOf(dialect, 'created_at')
  const rows = await db
    .selectFrom(table)
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy(dayOf(dialect, 'created_at'))
    .execute()
  const out = starts.map(() => 0)
  for (const r of rows) {
    const w = weekOf(starts, r.day)
    if (w >= 0) out[w] += Number(r.n)
  }
  return out
}

async function byStatus(db: DB, table: 'project' | 'contract') {
  const rows = await db
    .selectFrom(table)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .orderBy('status')
    .execute()
  return rows.map((r) => ({ key: r.status, count: Number(r.n) }))
}

async function usersByRole(db: DB) {
  const rows = await db
    .selectFrom('user_role')
    .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('role')
    .orderBy('role')
    .execute()
  return rows.map((r) => ({ key: roleNames[r.role] ?? String(r.role), count: Number(r.n) }))
}

async function total(db: DB, table: Counted) {
  return Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
}

/** The ledger's entries on held accounts: their sum per currency before the period, and per day, kind and currency in it. */
async function heldEntries(db: DB, dialect: Dialect, since: string) {
  const before = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select(['e.currency', (eb) => eb.fn.sum<number>('e.amount_minor').as('sum')])
    .where('a.kind', '=', 'client_held')
    .where('t.created_at', '<', since)
    .groupBy('e.currency')
    .execute()
  const days = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select([
      'e.currency',
      't.kind',
      dayOf(dialect, 't.created_at').as('day'),
      (eb) => eb.fn.sum<number>('e.amount_minor').as('sum'),
    ])
    .where('a.kind', '=', 'client_held')
    .where('t.created_at', '>=', since)
    .groupBy(['e.currency', 't.kind', dayOf(dialect, 't.created_at')])
    .execute()
  return { before, days }
}

/**
 * Per currency: the clients' held money at the end of each week (what was held before the
 * period plus each day's change) and what was released in each week, from the ledger's entries
 * on held accounts (a release leaves held money, so its entries there are the amount released).
 */
async function money(db: DB, dialect: Dialect, starts: string[], since: string) {
  const { before, days } = await heldEntries(db, dialect, since)
  const currencies = new Map<string, { start: number; change: number[]; released: number[] }>()
  const of = (c: string) => {
    let m = currencies.get(c)
    if (!m) currencies.set(c, (m = { start: 0, change: starts.map(() => 0), released: starts.map(() => 0) }))
    return m
  }
  // Held accounts are credit-normal: money held is minus the entries' sum.
  for (const b of before) of(b.currency).start = -Number(b.sum)
  for (const d of days) {
    const w = weekOf(starts, d.day)
    if (w < 0) continue
    const m = of(d.currency)
    m.change[w] -= Number(d.sum)
    if (d.kind === 'release') m.released[w] += Number(d.sum)
  }
  return [...currencies.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, m]) => {
      let running = m.start
      const heldPerWeek = m.change.map((c) => (running += c))
      return {
        currency,
        heldMinor: heldPerWeek.at(-1) ?? m.start,
        heldPerWeek,
        releasedPerWeek: m.released,
      }
    })
}

/** The dashboard's figures for the last `weeks` weeks. */
export async function dashboard(
  db: DB,
  dialect: Dialect,
  weeks: number,
  now = new Date(),
): Promise<Dashboard> {
  const weekStarts = weekStartsEnding(now, weeks)
  const since = `${weekStarts[0]}T00:00:00.000Z`
  const [
    users,
    usersBy,
    usersNew,
    projects,
    projectsBy,
    projectsNew,
    contracts,
    contractsBy,
    contractsNew,
    cash,
  ] = await Promise.all([
    total(db, 'app_user'),
    usersByRole(db),
    perWeek(db, dialect, 'app_user', weekStarts, since),
    total(db, 'project'),
    byStatus(db, 'project'),
    perWeek(db, dialect, 'project', weekStarts, since),
    total(db, 'contract'),
    byStatus(db, 'contract'),
    perWeek(db, dialect, 'contract', weekStarts, since),
    money(db, dialect, weekStarts, since),
  ])
  return {
    weeks,
    weekStarts,
    users: { total: users, by: usersBy, newPerWeek: usersNew },
    projects: { total: projects, by: projectsBy, newPerWeek: projectsNew },
    contracts: { total: contracts, by: contractsBy, newPerWeek: contractsNew },
    money: cash,
  }
}

export function createFigures(db: DB, dialect: Dialect) {
  return { dashboard: (weeks: number, now?: Date) => dashboard(db, dialect, weeks, now) }
}
