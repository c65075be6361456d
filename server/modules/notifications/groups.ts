import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { GroupCheck, HubName } from '#server/hubs.ts'

/** A kind of hub group a module lets browsers join (JoinGroup), with the check that guards it. */
export interface HubGroupRule {
  hub: HubName
  kind: string
  check: GroupCheck
}

// `project:{id}` on the notifications hub: the project's client and every freelancer who proposed
// on it may listen. The projects outbox handler sends `projectChanged` there after each notified
// transition, so an open project page can reload its data (useHubGroup + useHubEvent); the page's
// loader still applies the API's own scoping, so the group only ever says "something changed".
export function notificationGroups(db: Kysely<Database>): HubGroupRule[] {
  const isParty: GroupCheck = async (user, id) => {
    if (!/^[1-9]\d{0,9}$/.test(id)) return false
    const projectId = Number(id)
    const owner = await db
      .selectFrom('project')
      .select('id')
      .where('id', '=', projectId)
      .where('client_id', '=', user.userId)
      .executeTakeFirst()
    if (owner) return true
    const proposer = await db
      .selectFrom('proposal')
      .select('id')
      .where('project_id', '=', projectId)
      .where('freelancer_id', '=', user.userId)
      .limit(1)
      .executeTakeFirst()
    return !!proposer
  }
  return [{ hub: 'notifications', kind: 'project', check: isParty }]
}
