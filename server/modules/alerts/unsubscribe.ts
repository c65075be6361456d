import { createHmac, timingSafeEqual } from 'node:crypto'
import type { DB } from '#server/db/database.ts'
import { ApiError } from '#server/api/errors.ts'

// The digest's unsubscribe link works without signing in: its token names the saved search and
// the search's unsubscribe counter, signed with the server's secret (HMAC-SHA256 under a key of
// its own). A token whose signature fails is refused (400 naming `token`); a token signed for an
// older counter was used already, so it changes nothing and answers `already`.

const PURPOSE = 'workneer:alerts:unsubscribe'
const keyOf = (secret: string) => createHmac('sha256', secret).update(PURPOSE).digest()
const sign = (secret: string, body: string) =>
  createHmac('sha256', keyOf(secret)).update(body).digest('base64url')

export function unsubscribeToken(secret: string, searchId: number, seq: number) {
  const body = `${searchId}.${seq}`
  return `${body}.${sign(secret, body)}`
}

const invalid = () =>
  new ApiError(400, 'Invalid', 'token: this link is not valid', { token: ['alerts:errors.linkInvalid'] })

function read(secret: string, token: string) {
  const m = /^(\d{1,10})\.(\d{1,10})\.([\w-]{43})$/.exec(token)
  if (!m) throw invalid()
  const expected = Buffer.from(sign(secret, `${m[1]}.${m[2]}`))
  const given = Buffer.from(m[3])
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid()
  return { searchId: Number(m[1]), seq: Number(m[2]) }
}

/** Stops the search's digest once; a spent or stale link changes nothing and says so. */
export async function unsubscribe(db: DB, secret: string, token: string) {
  const { searchId, seq } = read(secret, token)
  const row = await db
    .selectFrom('saved_search')
    .select(['name', 'unsubscribe_seq', 'frequency'])
    .where('id', '=', searchId)
    .executeTakeFirst()
  // A signed link to a search deleted since then: nothing is left to stop.
  if (!row) return { outcome: 'already' as const, name: '' }
  const done = await db
    .updateTable('saved_search')
    .set({ frequency: 'never', unsubscribe_seq: seq + 1, updated_at: new Date().toISOString() })
    .where('id', '=', searchId)
    .where('unsubscribe_seq', '=', seq)
    .executeTakeFirst()
  const changed = Number(done.numUpdatedRows) === 1 && row.frequency !== 'never'
  return { outcome: changed ? ('unsubscribed' as const) : ('already' as const), name: row.name }
}
