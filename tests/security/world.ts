import { useTestDatabase, type TestDialect } from '../integration/databases.ts'
import type { Db } from '#server/db/database.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { moduleTestApi, tinyPdf } from '../integration/module-api.ts'
import { card, contractFor } from '../support/modules/payments.ts'
import { hourlyContractFor, mondayWeeksAgo } from '../support/modules/timesheets.ts'
import { askVerification } from '../support/modules/verification.ts'
import { watchChanges } from './changes.ts'

// A small marketplace for the security tests: two clients, a company, two freelancers and a
// SuperAdmin, with a contract funded, worked, released and paid out, a refund request, an open
// project with both freelancers' proposals, a draft, a chat, a complaint, files and notices.
// Every private field holds a unique marker, registered with who may read it: an answer to
// anyone else that contains it is a leak.
/** A browser's push subscription keys: the right shapes (a P-256 point, a 16-byte secret), no real browser. */
export const samplePushKeys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) }
export const WORLD_PUSH_ENDPOINT = 'https://push.example/world-client'

export type Who = 'client' | 'client2' | 'company' | 'freelancer' | 'freelancer2' | 'admin' | 'bystander'
export const people: Who[] = ['client', 'client2', 'company', 'freelancer', 'freelancer2', 'admin']

/** `dataDir`: where the world's files go (a server started on the world afterwards reads them there). */
export async function buildWorld(database: Db, name = 'secmatrix', addressBlock = 61, dataDir?: string) {
  const t = moduleTestApi(database, { name, addressBlock, dataDir, freelancerTitle: 'Structural engineer' })
  const users = {
    client: await t.user('client', 'Clara', 'Client'),
    client2: await t.user('client', 'Carl', 'Second'),
    company: await t.user('company', 'Cora', 'Company'),
    freelancer: await t.user('freelancer', 'Fred', 'Freelancer'),
    freelancer2: await t.user('freelancer', 'Fiona', 'Second'),
    admin: await t.user('client', 'Sam', 'Support'),
    /** Someone with nothing in the world: the SuperAdmin's password reset ends their sessions. */
    bystander: await t.user('client', 'Bea', 'Bystander'),
  }
  await database.db
    .updateTable('user_role')
    .set({ role: Role.SuperAdmin })
    .where('user_id', '=', users.admin.id)
    .execute()

  const markers = new Map<string, Set<Who>>()
  let n = 0
  /** A fresh marker readable by `audience` only. */
  const marker = (label: string, ...audience: Who[]) => {
    const m = `MK${++n}${label}Q`
    markers.set(m, new Set(audience))
    return m
  }
  const ok = async (answer: Promise<{ status: number; text: string; json: any }>) => {
    const a = await answer
    if (a.status !== 200) throw new Error(`world: ${a.status} ${a.text}`)
    return a.json
  }
  const { client, client2, freelancer, freelancer2 } = users

  // Private fields of each person: a phone number (support sees it on the admin's user page).
  for (const who of people)
    await database.db
      .updateTable('app_user')
      .set({ phone_number: marker(`phone${who}`, who, 'admin') })
      .where('id', '=', users[who].id)
      .execute()

  // The contract: funded, the first installment submitted with a private note, approved (released,
  // an invoice), the second funded and asked back (a refund request with a private reason).
  const contract = await contractFor(t.call, database, client, freelancer, [100000, 50000])
  const [i1, i2] = contract.installments
  const pay = await ok(
    t.call('POST', 'Payment/PayProjectInstallments', {
      token: client.token,
      body: { projectId: contract.projectId, installmentIds: [i1.id, i2.id] },
    }),
  )
  await ok(t.call('POST', `Payment/sandbox/${pay.token}/pay`, { body: card() }))
  await ok(
    t.call('POST', `projects/installments/${i1.id}/submit`, {
      token: freelancer.token,
      body: { note: marker('note', 'client', 'freelancer') },
    }),
  )
  await ok(t.call('POST', `projects/installments/${i1.id}/approve`, { token: client.token, body: {} }))
  const refund = await ok(
    t.call('POST', `RefundRequest/${contract.projectId}/${i2.id}/10000`, {
      token: client.token,
      body: { reason: marker('refund', 'client', 'freelancer', 'admin') },
    }),
  )
  // A change order the freelancer proposed, pending: the client decides, the freelancer may withdraw.
  const change = await ok(
    t.call('POST', `projects/${contract.projectId}/change-orders`, {
      token: freelancer.token,
      body: {
        description: marker('change', 'client', 'freelancer'),
        reason: 'A second storey',
        effects: [{ kind: 'add', title: 'Second storey', amountMinor: 10000 }],
      },
    }),
  )
  const method = await ok(
    t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      token: freelancer.token,
      body: { holderName: marker('holder', 'freelancer'), kind: 'bank', iban: 'DE89 3704 0044 0532 0130 00' },
    }),
  )
  const payout = await ok(
    t.call('POST', 'Payment/payouts', {
      token: freelancer.token,
      body: { amountMinor: 20000, currency: 'EUR', paymentMethodId: method.id },
    }),
  )
  // The freelancer's payout account at the sandbox, opened and not finished (decision 333); its id is its page's capability.
  const onboarding = await ok(t.call('POST', 'Payment/payout-account', { token: freelancer.token }))
  const invoice = await database.db.selectFrom('invoice').select('id').orderBy('id').executeTakeFirstOrThrow()

  // The chat of the contract, with a private message; a project file of the client.
  const room = await database.db.selectFrom('chat_room').select('id').orderBy('id').executeTakeFirstOrThrow()
  await ok(
    t.call('POST', `chat/${room.id}`, {
      token: client.token,
      body: { clientMessageId: 'world-message-1', text: marker('chat', 'client', 'freelancer') },
    }),
  )

  // An open project with a proposal of each freelancer (private to the client and its author), and a draft.
  const sub = await database.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const projectInput = (title: string, publish: boolean) => projectBody(sub.id, title, publish)
  const open = await ok(
    t.call('POST', 'projects', {
      token: client.token,
      body: projectInput('Foundation review for an extension', true),
    }),
  )
  const proposal = await ok(
    t.call('POST', `projects/${open.id}/proposal`, {
      token: freelancer.token,
      body: {
        coverLetter: `I review foundations weekly. ${marker('cover', 'client', 'freelancer')}`,
        bidMinor: 75000,
        durationDays: 7,
      },
    }),
  )
  await ok(
    t.call('POST', `projects/${open.id}/proposal`, {
      token: freelancer2.token,
      body: {
        coverLetter: `Foundations are my trade. ${marker('cover', 'client', 'freelancer2')}`,
        bidMinor: 70000,
        durationDays: 9,
      },
    }),
  )
  // The client's shortlist of the open project: the freelancer's proposal with a private note, and
  // the freelancer saved (decision 336). Neither is ever told.
  await ok(
    t.call('PUT', `projects/proposals/${proposal.id}/shortlist`, {
      token: client.token,
      body: { note: marker('shortlist', 'client') },
    }),
  )
  await ok(t.call('PUT', `freelancers/${freelancer.id}/favourite`, { token: client.token }))
  // The client's browser with push on (decision 337): only they may turn it off there.
  await ok(
    t.call('POST', 'notifications/push-subscriptions', {
      token: client.token,
      body: { endpoint: WORLD_PUSH_ENDPOINT, keys: samplePushKeys },
    }),
  )
  // Hiring help (decision 338): the client's request (read, taken and proposed to by support), the
  // company's two (one to close as done, one to cancel) and the second client's (support closes it).
  const hiring = (token: string, need: string) =>
    ok(t.call('POST', 'hiring/requests', { token, body: hiringBody(need) }))
  const hiringRequest = await hiring(client.token, `Roof check ${marker('hiring', 'client', 'admin')}`)
  const hiringDone = await hiring(users.company.token, 'A surveyor for a small retaining wall, please.')
  const hiringCancel = await hiring(users.company.token, 'A geotechnical engineer for two boreholes.')
  const hiringClose = await hiring(client2.token, 'An engineer to sign off a steel beam swap.')
  const draft = await ok(
    t.call('POST', 'projects', {
      token: client.token,
      body: projectInput(`Draft ${marker('draft', 'client')}`, false),
    }),
  )
  const file = await t.upload(
    `projects/${open.id}/uploadProjectFiles`,
    client.token,
    'loads.pdf',
    Buffer.from('%PDF-1.4\n%%EOF\n'),
  )
  if (file.status !== 200) throw new Error(`world: upload ${file.status} ${JSON.stringify(file.json)}`)
  const fileId = await database.db
    .selectFrom('stored_file')
    .select('id')
    .where('owner_id', '=', client.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()

  // The freelancer's education (a public part of the profile; its id is an owned object).
  const education = await ok(
    t.call('POST', 'freelancers/profile/educations', {
      token: freelancer.token,
      body: {
        school: 'TU Delft',
        degree: 'MSc',
        fieldOfStudy: 'Structures',
        startYear: 2010,
        endYear: 2012,
        description: 'Thesis on timber connections.',
      },
    }),
  )
  const profileItems: Record<string, number> = {}
  for (const [item, body] of Object.entries({
    'employment-history': { company: 'Arup', role: 'Engineer', startMonth: '2015-01' },
    certifications: { name: 'Chartered engineer', issuer: 'ICE' },
    portfolios: { title: 'Footbridge in Leeds' },
  })) {
    const made = await ok(t.call('POST', `freelancers/profile/${item}`, { token: freelancer.token, body }))
    const list = made[
      {
        'employment-history': 'employmentHistory',
        certifications: 'certifications',
        portfolios: 'portfolios',
      }[item]!
    ] as Array<{ id: number }>
    profileItems[item] = list.at(-1)!.id
  }
  const spare = await ok(
    t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
      token: freelancer.token,
      body: { holderName: 'Fred Freelancer', kind: 'paypal', email: 'fred.pay@example.test' },
    }),
  )
  // A complaint of the client about the contract: private to them, the contract's other party
  // (decision 232) and support.
  const complaint = await ok(
    t.call('POST', 'complaints', {
      token: client.token,
      body: {
        subject: `contract:${contract.contractId}`,
        title: 'Late drawings',
        description: marker('complaint', 'client', 'freelancer', 'admin'),
      },
    }),
  )

  // The contract's deliverables register: a deliverable of the released installment, issued and
  // approved (rows as the register writes them; the API's own flow is in deliverables.test.ts).
  const register = await deliverableRows(
    database,
    contract.contractId,
    i1.id,
    freelancer.id,
    client.id,
    marker,
  )

  // An hourly contract of the same two people with a week of time logged (a private description)
  // and submitted, waiting for the client's answer (decision 324).
  const hourly = await hourlyContractFor(t.call, database, client, freelancer)
  const logged = await ok(
    t.call('POST', `projects/${hourly.projectId}/timesheets/entries`, {
      token: freelancer.token,
      body: { date: mondayWeeksAgo(1), hours: 2, description: marker('timesheet', 'client', 'freelancer') },
    }),
  )
  await ok(
    t.call('POST', `projects/${hourly.projectId}/timesheets/weeks/${logged.week.id}/submit`, {
      token: freelancer.token,
    }),
  )
  // The freelancer's saved search (issue 41 item 1): theirs alone, its name a marker.
  const savedSearch = await ok(
    t.call('POST', 'SavedSearches', {
      token: freelancer.token,
      body: { name: marker('saved-search', 'freelancer'), search: 'footbridge' },
    }),
  )

  // The client's export of their data (decision 331), ready: its link's token comes from the mail.
  await ok(t.call('POST', 'identity/data-export', { token: client.token }))
  // An invite-only project (decision 335): its client, the invited freelancer and admins see it;
  // its title and the invitation's message are theirs.
  const invited = await ok(
    t.call('POST', 'projects', {
      token: client.token,
      body: {
        ...projectInput(`Private ${marker('private', 'client', 'freelancer', 'admin')}`, true),
        visibility: 'invited',
      },
    }),
  )
  const invitation = await ok(
    t.call('POST', `projects/${invited.id}/invitations`, {
      token: client.token,
      body: { freelancerId: freelancer.id, message: marker('invitation', 'client', 'freelancer') },
    }),
  )
  // Direct offers (decision 342) to the freelancer, pending: one to accept, one to decline, one to
  // withdraw. The work's title is the two parties' (and admins', who see invite-only projects).
  const offer = (label: string) =>
    ok(
      t.call('POST', 'offers', {
        token: client.token,
        body: offerBody(marker(label, 'client', 'freelancer', 'admin'), sub.id, freelancer.id),
      }),
    )
  const offers = { accept: await offer('offer-accept'), decline: await offer('offer-decline') }
  const withdrawn = await offer('offer-withdraw')
  // The second freelancer's pending verification (decision 332): its document is for SuperAdmins only.
  const document = Buffer.concat([tinyPdf(), Buffer.from(`% ${marker('identity-document', 'admin')}\n`)])
  await askVerification(t.raw, freelancer2.token, { name: 'passport.pdf', bytes: document })
  const { id: verificationId } = await database.db
    .selectFrom('identity_verification')
    .select('id')
    .where('user_id', '=', freelancer2.id)
    .executeTakeFirstOrThrow()

  await t.api.jobs.outbox.drain()
  const exportMail = await readyExportMail(t, database)
  const notification = await database.db
    .selectFrom('notification')
    .select('id')
    .where('user_id', '=', client.id)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const second = await client2Objects()

  async function client2Objects() {
    // The second client's own project, so "another client" has something of their own too.
    return {
      project: await ok(
        t.call('POST', 'projects', {
          token: client2.token,
          body: projectInput('Retaining wall check', true),
        }),
      ),
    }
  }

  const ids = {
    subcategoryId: sub.id,
    projectId: contract.projectId,
    contractId: contract.contractId,
    installmentId: i1.id,
    heldInstallmentId: i2.id,
    roomId: room.id,
    openProjectId: open.id as number,
    draftProjectId: draft.id as number,
    proposalId: proposal.id as number,
    refundId: refund.id as number,
    paymentMethodId: method.id as number,
    payoutId: payout.id as number,
    invoiceId: invoice.id,
    fileId: fileId.id,
    educationId: education.educations?.[0]?.id ?? education.id,
    profileItems,
    spareMethodId: spare.id as number,
    complaintId: complaint.id as number,
    notificationId: notification.id,
    paymentToken: pay.token as string,
    payoutAccount: String(onboarding.url).split('/').pop() as string,
    client2ProjectId: second.project.id as number,
    changeOrderId: change.id as number,
    timesheetProjectId: hourly.projectId,
    weekId: logged.week.id as number,
    entryId: logged.week.entries[0].id as number,
    savedSearchId: savedSearch.id as number,
    hiringRequestId: hiringRequest.id as number,
    hiringDoneId: hiringDone.id as number,
    hiringCancelId: hiringCancel.id as number,
    hiringCloseId: hiringClose.id as number,
    dataExportToken: /[?&]token=([\w-]+)/.exec(exportMail?.text ?? '')![1],
    invitedProjectId: invited.id as number,
    invitationId: invitation.id as number,
    offerId: offers.accept.id as number,
    offerDeclineId: offers.decline.id as number,
    offerWithdrawId: withdrawn.id as number,
    verificationId,
    ...register,
  }
  return { t, users, ids, markers }
}

/** A valid project of the security tests' world (a client's POST projects and PUT projects/{id} body). */
/** A valid direct offer (decision 342): a fixed price in two installments. */
export const offerBody = (title: string, subcategoryId: number, freelancerId: number) => ({
  freelancerId,
  title,
  description: 'Survey the arch barrel and the parapets, and report on the repairs the bridge needs.',
  subcategoryId,
  budgetType: 'fixed',
  budgetMinor: 80000,
  currency: 'EUR',
  durationDays: 10,
  installments: [
    { title: 'Survey', amountMinor: 50000 },
    { title: 'Report', amountMinor: 30000 },
  ],
  message: 'Your masonry reports are the clearest I have read.',
})

/** A valid hiring request (decision 338): its deadline a month from the day it runs. */
export const hiringBody = (need: string) => ({
  need,
  budgetMinMinor: 50000,
  currency: 'EUR',
  deadline: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
})

export const projectBody = (subcategoryId: number, title: string, publish: boolean) => ({
  title,
  description: 'Check the foundations of a small house extension and write a short report with drawings.',
  subcategoryId,
  budgetType: 'fixed',
  budgetMinor: 80000,
  currency: 'EUR',
  durationDays: 10,
  remote: true,
  publish,
})

/** A deliverable issued once (a transmittal) and approved, its note and answer private to the contract's parties. */
async function deliverableRows(
  database: Db,
  contractId: number,
  installmentId: number,
  freelancerId: number,
  clientId: number,
  marker: (label: string, ...audience: Who[]) => string,
) {
  const db = database.db
  const now = new Date().toISOString()
  await db
    .insertInto('deliverable_register')
    .values({ contract_id: contractId, scheme: 'stage', created_at: now })
    .execute()
  const deliverable = await db
    .insertInto('deliverable')
    .values({
      contract_id: contractId,
      installment_id: installmentId,
      number: 'S-101',
      title: 'General arrangement',
      discipline: 'Structures',
      position: 1,
      created_by: freelancerId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const transmittal = await db
    .insertInto('transmittal')
    .values({
      contract_id: contractId,
      number: 1,
      sender_id: freelancerId,
      recipient_id: clientId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const issue = await db
    .insertInto('deliverable_issue')
    .values({
      deliverable_id: deliverable.id,
      contract_id: contractId,
      transmittal_id: transmittal.id,
      sequence: 1,
      revision: 'P01',
      status: 'for_approval',
      note: marker('issue', 'client', 'freelancer'),
      issued_by: freelancerId,
      issued_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('deliverable_response')
    .values({
      issue_id: issue.id,
      contract_id: contractId,
      outcome: 'approved',
      comment: marker('answer', 'client', 'freelancer'),
      responded_by: clientId,
      responded_at: now,
    })
    .execute()
  return { deliverableId: deliverable.id, issueId: issue.id, transmittalId: transmittal.id }
}

export type World = Awaited<ReturnType<typeof buildWorld>>

/** A describe block's world on a fresh database of `dialect`: built before its tests, dropped after. */
export function useWorld(dialect: TestDialect, name: string, addressBlock: number) {
  const s = useTestDatabase(
    dialect,
    async (database) => {
      const world = await buildWorld(database, name, addressBlock)
      return { world, changes: await watchChanges(database), close: () => world.t.close() }
    },
    { timeout: 90_000 },
  )
  return {
    get database() {
      return s.database
    },
    get world() {
      return s.t.world
    },
    get changes() {
      return s.t.changes
    },
  }
}

/** Markers in `text` that `who` may not read (a visitor may read none). */
/**
 * Where a reader may see a marker beyond its audience, on purpose: support reads the chat of the
 * contract a complaint is about from the complaint's room page, each reading audited (decisions
 * 233, 313). Everywhere else the audience is the whole truth.
 */
const widerReaders = [
  { where: /complaints\/(\{complaintId\}|\d+)\/room$/, label: 'chat', who: 'admin' },
] as const

export function leaks(world: World, who: Who | 'visitor', text: string, where = '') {
  if (!text.includes('MK')) return []
  const wider = (m: string) =>
    widerReaders.some(
      (r) => r.who === who && r.where.test(where) && new RegExp(`^MK\\d+${r.label}Q$`).test(m),
    )
  return [...world.markers]
    .filter(([m, audience]) => text.includes(m) && !(who !== 'visitor' && audience.has(who)) && !wider(m))
    .map(([m]) => m)
}

/**
 * The mail saying the client's export is ready. On a live server its own outbox worker may have
 * claimed the export's job, so the mail comes when that worker is done: drained and read again.
 */
async function readyExportMail(t: ReturnType<typeof moduleTestApi>, database: Db) {
  for (let tries = 0; ; tries++) {
    const mail = (
      await database.db.selectFrom('outbox').select('payload').where('topic', '=', 'email').execute()
    )
      .map((m) => JSON.parse(m.payload) as { kind?: string; text: string })
      .find((m) => m.kind === 'dataExportReady')
    if (mail || tries >= 100) return mail
    await new Promise((r) => setTimeout(r, 200))
    await t.api.jobs.outbox.drain()
  }
}
