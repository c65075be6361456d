import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'

// Which notices a person gets, per kind and channel (issue 42 item 1, decision 329). Every kind is
// on in the site and by email until they turn it off; only their changes are stored. Push (decision
// 337) is the other way round: off until they turn it on, since it reaches the devices they chose.
// Security and account mails (verification, password, sign-in) are not notices and always go out.

export const noticeKinds = ['proposals', 'contracts', 'money', 'chat', 'complaints', 'alerts'] as const
export type NoticeKind = (typeof noticeKinds)[number]
export const noticeChannels = ['site', 'email', 'push'] as const
export type NoticeChannel = (typeof noticeChannels)[number]
/**
 * The kinds of the settings: the notices', and the newsletter (decision 340), which is mailed only
 * and is the subscription of the account's address (content/account-newsletter.ts), not a row here.
 */
export const preferenceKinds = [...noticeKinds, 'newsletter'] as const
export type PreferenceKind = (typeof preferenceKinds)[number]
/** The channels a kind of the settings has: the newsletter is an email. */
export const channelsOf = (kind: PreferenceKind): readonly NoticeChannel[] =>
  kind === 'newsletter' ? ['email'] : noticeChannels

type Executor = Kysely<Database> | Transaction<Database>

/** The kind a module's namespace gives its notices; `projects` notices are sorted by their step below. */
const kindOfNamespace: Record<string, NoticeKind> = {
  'chat-events': 'chat',
  alerts: 'alerts',
  complaints: 'complaints',
  disputes: 'complaints',
  payouts: 'money',
  refunds: 'money',
  changeOrders: 'contracts',
  deliverables: 'contracts',
  timesheets: 'contracts',
  // Support's proposals for a hiring request (decision 338); the shortlist itself tells no one.
  shortlist: 'proposals',
}
const projectsMoney = new Set(['installmentFunded', 'installmentReleased'])
const projectsProposals = /^(proposal|projectTaken|newComment)/

/** The kind of a stored notice, from its message key (`projects:notify.proposalAccepted`). */
export function noticeKindOf(messageKey: string): NoticeKind {
  const [ns = '', path = ''] = messageKey.split(':', 2)
  const step = path.split('.')[1] ?? ''
  if (ns !== 'projects') return kindOfNamespace[ns] ?? 'contracts'
  if (projectsMoney.has(step)) return 'money'
  return projectsProposals.test(step) ? 'proposals' : 'contracts'
}

/** The notices whose module writes a mail of its own (richer than the notice's words): they ask `wantsMail` themselves. */
export const ownMailNamespaces = new Set([
  'alerts',
  'chat-events',
  'complaints',
  'disputes',
  'changeOrders',
  'deliverables',
  'timesheets',
  // An identity check's decision is an account mail: it always goes out (decision 332).
  'verification',
])

/** `${userId}:${kind}:${channel}` of every notice these people turned off. */
export async function switchedOff(executor: Executor, userIds: number[]) {
  if (!userIds.length) return new Set<string>()
  const rows = await executor
    .selectFrom('notification_preference')
    .select(['user_id', 'kind', 'channel'])
    .where('user_id', 'in', [...new Set(userIds)])
    .where('enabled', '=', 0)
    .execute()
  return new Set(rows.map((r) => `${r.user_id}:${r.kind}:${r.channel}`))
}

/** Whether this person wants mails of this kind (a module's own mail asks before it writes one). */
export async function wantsMail(executor: Executor, userId: number, kind: NoticeKind) {
  return !(await switchedOff(executor, [userId])).has(`${userId}:${kind}:email`)
}

/** `${userId}:${kind}` of every kind these people turned push on for (push is off until they do). */
export async function pushWanted(executor: Executor, userIds: number[]) {
  if (!userIds.length) return new Set<string>()
  const rows = await executor
    .selectFrom('notification_preference')
    .select(['user_id', 'kind'])
    .where('user_id', 'in', [...new Set(userIds)])
    .where('channel', '=', 'push')
    .where('enabled', '=', 1)
    .execute()
  return new Set(rows.map((r) => `${r.user_id}:${r.kind}`))
}

export interface NoticePreference {
  kind: NoticeKind
  site: boolean
  email: boolean
  /** Left out, the kind's push setting stays as it is (clients from before push send none). */
  push?: boolean
}

/** A person's settings, every kind in its order: site and email on, push off, where nothing was stored. */
export async function preferencesOf(executor: Executor, userId: number) {
  const off = await switchedOff(executor, [userId])
  const push = await pushWanted(executor, [userId])
  return noticeKinds.map((kind) => ({
    kind,
    site: !off.has(`${userId}:${kind}:site`),
    email: !off.has(`${userId}:${kind}:email`),
    push: push.has(`${userId}:${kind}`),
  }))
}

/** Stores the settings given (other kinds keep theirs); answers them all as they are now. */
export async function setPreferences(db: Kysely<Database>, userId: number, given: NoticePreference[]) {
  const now = new Date().toISOString()
  const rows = given.flatMap((p) =>
    noticeChannels
      .filter((channel) => p[channel] !== undefined)
      .map((channel) => ({
        user_id: userId,
        kind: p.kind,
        channel,
        enabled: p[channel] ? 1 : 0,
        updated_at: now,
      })),
  )
  if (rows.length)
    await db
      .insertInto('notification_preference')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['user_id', 'kind', 'channel']).doUpdateSet((eb) => ({
          enabled: eb.ref('excluded.enabled'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute()
  return preferencesOf(db, userId)
}

/** Turns one kind's mails off (the link in a notice mail). */
export const stopMails = (db: Kysely<Database>, userId: number, kind: NoticeKind) =>
  db
    .insertInto('notification_preference')
    .values({ user_id: userId, kind, channel: 'email', enabled: 0, updated_at: new Date().toISOString() })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'kind', 'channel'])
        .doUpdateSet({ enabled: 0, updated_at: new Date().toISOString() }),
    )
    .execute()
