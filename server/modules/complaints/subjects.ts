import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { ApiError } from '#server/api/errors.ts'
import { displayName } from '../identity/display-name.ts'
import type { ComplaintSubject } from './contract.ts'
import { parseSubject, type SubjectKind } from './rules.ts'

// What a user may complain about: the projects, contracts, installments and chat rooms they are
// part of, the people they deal with there, and the platform itself.

export type Subject = ComplaintSubject & { otherPartyId: number | null; stored: string }
type Party = { id: number; name: string }

/**
 * A subject's label: what is stored with the ticket (a title) and, for a contract, a chat or a
 * person, the other party's name as it reads now. The name is never stored: an account deleted
 * later is then named as deleted on every ticket (decision 236, 271), not by its old name.
 */
export function subjectLabel(kind: string, stored: string, otherName: string | null) {
  if (kind === 'user') return otherName ?? stored
  return (kind === 'contract' || kind === 'chat_room') && otherName ? `${stored} (${otherName})` : stored
}

const subjectOf = (kind: SubjectKind, id: number | null, stored: string, other: Party | null): Subject => ({
  kind,
  id,
  stored,
  label: subjectLabel(kind, stored, other?.name ?? null),
  otherPartyId: other?.id ?? null,
})

/** The user's contracts with both parties' names, newest first. */
const contractsOf = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('contract as c')
    .innerJoin('project as p', 'p.id', 'c.project_id')
    .innerJoin('app_user as cl', 'cl.id', 'c.client_id')
    .innerJoin('app_user as fr', 'fr.id', 'c.freelancer_id')
    .select([
      'c.id',
      'c.client_id',
      'c.freelancer_id',
      'p.id as project_id',
      'p.title',
      'cl.first_name as cf',
      'cl.last_name as cl',
      'cl.company_name as cc',
      'cl.status as cs',
      'fr.first_name as ff',
      'fr.last_name as fl',
      'fr.company_name as fc',
      'fr.status as fs',
    ])
    .where((eb) => eb.or([eb('c.client_id', '=', userId), eb('c.freelancer_id', '=', userId)]))
    .orderBy('c.id', 'desc')
    .execute()
type ContractRow = Awaited<ReturnType<typeof contractsOf>>[number]

/** The chat rooms the user is a member of, with the other member's name. */
const roomsOf = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('chat_member as m')
    .innerJoin('chat_room as r', 'r.id', 'm.room_id')
    .innerJoin('project as p', 'p.id', 'r.project_id')
    .innerJoin('chat_member as o', (j) =>
      j.onRef('o.room_id', '=', 'm.room_id').onRef('o.user_id', '<>', 'm.user_id'),
    )
    .innerJoin('app_user as u', 'u.id', 'o.user_id')
    .select([
      'r.id',
      'p.title',
      'u.id as other_id',
      'u.first_name',
      'u.last_name',
      'u.company_name',
      'u.status',
    ])
    .where('m.user_id', '=', userId)
    .orderBy('r.id', 'desc')
    .execute()

/** What the user may complain about, read from the database: projects, contracts, installments and rooms. */
async function readParts(db: Kysely<Database>, userId: number) {
  const contracts = await contractsOf(db, userId)
  const projects = await db
    .selectFrom('project')
    .select(['id', 'title'])
    .where('client_id', '=', userId)
    .where('status', '<>', 'draft')
    .orderBy('id', 'desc')
    .execute()
  const installments = contracts.length
    ? await db
        .selectFrom('installment')
        .select(['id', 'contract_id', 'title'])
        .where(
          'contract_id',
          'in',
          contracts.map((c) => c.id),
        )
        .orderBy('contract_id', 'desc')
        .orderBy('id')
        .execute()
    : []
  const rooms = await roomsOf(db, userId)
  return { contracts, projects, installments, rooms }
}

/** Everything the user may complain about: the objects they are part of, and the platform. */
export async function subjectsOf(db: Kysely<Database>, userId: number): Promise<Subject[]> {
  const { contracts, projects, installments, rooms } = await readParts(db, userId)
  const otherOf = (c: ContractRow): Party =>
    c.client_id === userId
      ? {
          id: c.freelancer_id,
          name: displayName({ first_name: c.ff, last_name: c.fl, company_name: c.fc, status: c.fs }),
        }
      : {
          id: c.client_id,
          name: displayName({ first_name: c.cf, last_name: c.cl, company_name: c.cc, status: c.cs }),
        }
  const out: Subject[] = []
  const seenProject = new Set<number>()
  for (const p of projects) {
    seenProject.add(p.id)
    out.push(subjectOf('project', p.id, p.title, null))
  }
  for (const c of contracts) {
    // A freelancer's project is the one of their contract; its other party is the client.
    if (!seenProject.has(c.project_id)) {
      seenProject.add(c.project_id)
      out.push(subjectOf('project', c.project_id, c.title, c.client_id === userId ? null : otherOf(c)))
    }
  }
  const byContract = new Map(contracts.map((c) => [c.id, c]))
  for (const c of contracts) out.push(subjectOf('contract', c.id, c.title, otherOf(c)))
  for (const i of installments) {
    const c = byContract.get(i.contract_id)!
    out.push(subjectOf('installment', i.id, `${c.title}: ${i.title}`, otherOf(c)))
  }
  for (const r of rooms)
    out.push(subjectOf('chat_room', r.id, r.title, { id: r.other_id, name: displayName(r) }))
  const people = new Map<number, string>()
  for (const c of contracts) people.set(otherOf(c).id, otherOf(c).name)
  for (const r of rooms) people.set(r.other_id, displayName(r))
  for (const [id, name] of people) out.push(subjectOf('user', id, '', { id, name }))
  out.push(subjectOf('platform', null, 'Workneer', null))
  return out
}

/** The subject named by the form, if the user is part of it; anything else is refused naming the field. */
export async function subjectFor(db: Kysely<Database>, userId: number, value: string) {
  const { kind, id } = parseSubject(value)
  const found = (await subjectsOf(db, userId)).find((s) => s.kind === kind && s.id === id)
  if (!found)
    throw new ApiError(400, 'Invalid Info', 'subject: is not something you are part of', {
      subject: ['is not something you are part of'],
    })
  return found
}
