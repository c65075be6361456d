import type { Db } from '#server/db/database.ts'
import { accounts } from './shell-server'
import type { shellApi } from './shell-api'

type ShellServerOf = () => { db: Db }

/** A project of the shell client with the shell freelancer's proposal accepted, so they share a room. */
export async function hiredRoom(
  shell: ShellServerOf,
  { call, login }: ReturnType<typeof shellApi>,
  word: string,
) {
  const [client, freelancer] = await Promise.all([
    login(accounts.client.email),
    login(accounts.freelancer.email),
  ])
  const db = shell().db.db
  const sub = await db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const fred = await db
    .selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.freelancer.email)
    .executeTakeFirstOrThrow()
  const project = await call('POST', 'projects', client, {
    title: `Balcony ${word} cantilever check`,
    description:
      'Check a two metre steel balcony cantilever fixed to an existing brick wall, with calculations and fixing details.',
    subcategoryId: sub.id,
    budgetType: 'fixed',
    budgetMinor: 70000,
    currency: 'EUR',
    durationDays: 10,
    remote: true,
    publish: true,
  })
  const proposal = await call('POST', `projects/${project.id}/proposal`, freelancer, {
    coverLetter:
      'I check steel balconies on masonry every month and can send calculations and details within a week.',
    bidMinor: 65000,
    durationDays: 7,
  })
  await call('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, client)
  const room = await call('POST', `projects/Createroom/${project.id}/${fred.id}`, client)
  return {
    projectId: project.id as number,
    title: project.title as string,
    roomId: room.roomId as number,
    client,
    freelancer,
  }
}
