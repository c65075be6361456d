import type { ExpressionBuilder } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { switchedOff } from '../notifications/preferences.ts'
import { asLocale } from '../notifications/texts.ts'
import { digestMail, SHOWN } from './digest-mail.ts'
import { nextDigest } from './saved-searches.ts'
import { unsubscribeToken } from './unsubscribe.ts'
import { waitingMatches, type WaitingSearch } from './waiting.ts'
import { loopTurn } from '#server/jobs/turn.ts'

// The email digests (issue 41 item 1, decision 328), sent by a periodic job. Due searches are
// claimed a batch at a time by a conditional UPDATE of `digest_claimed_until`, so several instances
// share the work and none mails a digest twice; a crashed claim expires. For each claimed search
// the matches published since its last digest (waiting.ts, decision 343) become one mail (never
// one per project), written to the outbox with the next due time, in one transaction. The loop
// gives the event loop a turn after each claim, read and write, so a request waits at most one of
// those small units behind it.

const CLAIM_MS = 5 * 60_000
const BATCH = 20

type Claimed = WaitingSearch & { name: string; frequency: string; unsubscribe_seq: number }

async function claim(db: DB, now: number, batch: number): Promise<Claimed[]> {
  const at = new Date(now).toISOString()
  const free = (eb: ExpressionBuilder<Database, 'saved_search'>) =>
    eb.or([eb('digest_claimed_until', 'is', null), eb('digest_claimed_until', '<', at)])
  const due = await db
    .selectFrom('saved_search')
    .select('id')
    .where('frequency', '<>', 'never')
    .where('active', '=', 1)
    .where('digest_due_at', '<=', at)
    .where(free)
    .orderBy('digest_due_at')
    .limit(batch)
    .execute()
  if (!due.length) return []
  return db
    .updateTable('saved_search')
    .set({ digest_claimed_until: new Date(now + CLAIM_MS).toISOString() })
    .where(
      'id',
      'in',
      due.map((d) => d.id),
    )
    .where('digest_due_at', '<=', at)
    .where(free)
    .returning([
      'id',
      'owner_id',
      'name',
      'kind',
      'frequency',
      'unsubscribe_seq',
      'filters',
      'active',
      'digest_since',
      'created_at',
    ])
    .execute()
}

/** Titles of the matched projects and freelancers, by id. */
async function titles(db: DB, kind: string, ids: number[]) {
  if (!ids.length) return new Map<number, string>()
  const rows =
    kind === 'project'
      ? await db
          .selectFrom('project')
          .select(['id', 'title'])
          .where('id', 'in', ids)
          // A project made invite-only since it matched is left out (decision 335).
          .where('visibility', '!=', 'invited')
          .execute()
      : await db
          .selectFrom('freelancer_profile')
          .select(['user_id as id', 'title'])
          .where('user_id', 'in', ids)
          .execute()
  return new Map(rows.map((r) => [r.id, r.title]))
}

interface DigestDeps {
  db: DB
  publicUrl: string
  secret: () => Promise<string>
}

/** One claimed batch: the mails of the searches with new matches, and every search's next due time. */
async function sendBatch({ db, publicUrl, secret }: DigestDeps, claimed: Claimed[], now: number) {
  const at = new Date(now).toISOString()
  const ids = claimed.map((c) => c.id)
  const bySearch = await waitingMatches(db, claimed, at)
  const withNews = claimed.filter((c) => bySearch.has(c.id))
  const owners = withNews.length
    ? await db
        .selectFrom('app_user')
        .select(['id', 'email', 'language', 'status'])
        .where(
          'id',
          'in',
          withNews.map((c) => c.owner_id),
        )
        .execute()
    : []
  const ownerOf = new Map(owners.map((o) => [o.id, o]))
  const shown = (kind: string) =>
    withNews.filter((c) => c.kind === kind).flatMap((c) => bySearch.get(c.id)!.slice(0, SHOWN))
  const [projectTitles, freelancerTitles] = await Promise.all([
    titles(db, 'project', shown('project')),
    titles(db, 'freelancer', shown('freelancer')),
  ])
  const key = await secret()
  // A person who turned job alerts' mails off in their notification settings gets no digest (decision 329).
  const off = await switchedOff(db, [...ownerOf.keys()])
  const mails = withNews.flatMap((c) => {
    const owner = ownerOf.get(c.owner_id)
    if (!owner || owner.status !== 'Active' || off.has(`${owner.id}:alerts:email`)) return []
    const found = bySearch.get(c.id)!
    const kind = c.kind === 'freelancer' ? 'freelancer' : 'project'
    const names = kind === 'project' ? projectTitles : freelancerTitles
    const items = found.slice(0, SHOWN).flatMap((id) => {
      const title = names.get(id)
      const path = kind === 'project' ? `/projects/details/${id}` : `/profiles/freelancers/${id}`
      return title === undefined ? [] : [{ title, url: `${publicUrl}${path}` }]
    })
    if (!items.length) return []
    return [
      digestMail({
        to: owner.email,
        locale: asLocale(owner.language),
        kind,
        name: c.name,
        items,
        total: found.length,
        listUrl: `${publicUrl}/alerts`,
        unsubscribeUrl: `${publicUrl}/alerts/unsubscribe/${unsubscribeToken(key, c.id, c.unsubscribe_seq)}`,
      }),
    ]
  })
  // Reading and writing are two units: on SQLite each holds the server's thread while it runs.
  await loopTurn()
  await db.transaction().execute(async (trx) => {
    for (const mail of mails) await enqueue(trx, EMAIL_TOPIC, mail)
    // The matches published until now are mailed: the next digest starts after them.
    for (const frequency of ['daily', 'weekly'])
      await trx
        .updateTable('saved_search')
        .set({ digest_due_at: nextDigest(frequency, now), digest_claimed_until: null, digest_since: at })
        .where('id', 'in', ids)
        .where('frequency', '=', frequency)
        .execute()
  })
  return mails.length
}

/** Sends every digest due at `now`, a batch at a time; answers how many mails went. */
export function createDigests(deps: DigestDeps & { batch?: number }) {
  return async function sendDue(now = Date.now()) {
    let sent = 0
    for (;;) {
      const claimed = await claim(deps.db, now, deps.batch ?? BATCH)
      if (!claimed.length) return sent
      await loopTurn()
      sent += await sendBatch(deps, claimed, now)
      await loopTurn()
    }
  }
}
