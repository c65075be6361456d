import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects, rowCount } from '../../../../tests/integration/databases.ts'
import { contractFor, fund, usePayments } from '../../../../tests/support/modules/payments.ts'

// One transmittal per issue of an installment's deliverables (issue 40 item 1): the freelancer
// issues several deliverables at once, each at its own next revision, under one transmittal that
// lists them all; a refusal of one of them writes nothing. Each issue and answer reaches the other
// party by email too, in their language, through the outbox.

for (const dialect of portableDialects) {
  describe(`transmittals of several deliverables on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let stranger: U
    beforeAll(async () => {
      stranger = await s.t.user('freelancer', 'Sam', 'Stranger')
    })

    const count = (table: 'deliverable_issue' | 'transmittal') => rowCount(s.database, table)
    const mails = async (to: string) =>
      (await s.database.db.selectFrom('outbox').select('payload').where('topic', '=', 'email').execute())
        .map((r) => JSON.parse(r.payload) as { to: string; subject: string; text: string; language: string })
        .filter((m) => m.to === to)
    const speaks = (id: number, language: 'de' | 'en') =>
      s.database.db.updateTable('app_user').set({ language }).where('id', '=', id).execute()

    test('three deliverables of an installment: two issued under one transmittal, the third later alone; refusals write nothing', async () => {
      const { client, freelancer } = s
      await speaks(client.id, 'de')
      const { projectId, installments } = await contractFor(s.t.call, s.database, client, freelancer)
      const [first, second] = installments
      const add = async (number: string, installmentId = first.id) =>
        (
          await s.t.call('POST', `projects/${projectId}/deliverables`, {
            token: freelancer.token,
            body: { number, title: `Drawing ${number}`, discipline: 'Structures', installmentId },
          })
        ).json as { id: number }
      const [a, b, c] = [await add('S-101'), await add('S-102'), await add('S-103')]
      const other = await add('S-201', second.id)
      await fund(s.t.call, client, projectId, [first.id, second.id])
      const issue = (body: Record<string, unknown>, token = freelancer.token) =>
        s.t.call('POST', `projects/${projectId}/transmittals`, {
          token,
          body: { installmentId: first.id, status: 'for_comment', note: 'First issue', ...body },
        })

      // Refusals name the field and write nothing: a revision not next, a deliverable of another
      // installment, the same deliverable twice, none at all; the client and strangers are refused.
      const skip = await issue({
        items: [
          { deliverableId: a.id, revision: 'P01' },
          { deliverableId: b.id, revision: 'P02' },
        ],
      })
      expect(skip.status, skip.text).toBe(400)
      expect(skip.json.code).toBe('revision_not_next')
      expect(skip.json.errors['items.1.revision'][0]).toContain('S-102')
      const elsewhere = await issue({ items: [{ deliverableId: other.id, revision: 'P01' }] })
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.json.errors).toHaveProperty(['items.0.deliverableId'])
      const twice = await issue({
        items: [
          { deliverableId: a.id, revision: 'P01' },
          { deliverableId: a.id, revision: 'P01' },
        ],
      })
      expect(twice.status).toBe(400)
      expect((await issue({ items: [] })).json.errors).toHaveProperty('items')
      const items = [
        { deliverableId: a.id, revision: 'P01' },
        { deliverableId: b.id, revision: 'C01' },
      ]
      expect((await issue({ items }, client.token)).status).toBe(403)
      expect((await issue({ items }, stranger.token)).status).toBe(404)
      expect(await count('transmittal')).toBe(0)
      expect(await count('deliverable_issue')).toBe(0)

      // Two at once: one transmittal lists both, each at its own revision; the installment is submitted.
      const sent = await issue({ items })
      expect(sent.status, sent.text).toBe(200)
      expect(sent.json).toMatchObject({
        number: 'TR-0001',
        sender: { id: freelancer.id },
        recipient: { id: client.id },
        items: [
          { number: 'S-101', revision: 'P01', status: 'for_comment', note: 'First issue' },
          { number: 'S-102', revision: 'C01', status: 'for_comment' },
        ],
      })
      expect(await count('transmittal')).toBe(1)
      expect(await count('deliverable_issue')).toBe(2)
      const status = await s.database.db
        .selectFrom('installment')
        .select(['status', 'submission_note'])
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow()
      expect(status).toMatchObject({
        status: 'submitted',
        submission_note: 'S-101 P01, S-102 C01: First issue',
      })
      // Both parties read it, and its PDF lists both.
      for (const who of [client, freelancer]) {
        const t = await s.t.call('GET', `projects/transmittals/${sent.json.id}`, { token: who.token })
        expect(t.json.items).toHaveLength(2)
      }
      // The third one alone, later: its own transmittal; nothing of the first is touched.
      const alone = await s.t.call('POST', `projects/deliverables/${c.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P01', status: 'for_information', note: 'Late sheet' },
      })
      expect(alone.status, alone.text).toBe(200)
      expect(alone.json.issues[0].transmittal.number).toBe('TR-0002')
      const again = await s.t.call('GET', `projects/transmittals/${sent.json.id}`, { token: client.token })
      expect(again.json.items.map((i: { number: string }) => i.number)).toEqual(['S-101', 'S-102'])
      const feed = await s.database.db
        .selectFrom('project_activity')
        .select(['action', 'note'])
        .where('project_id', '=', projectId)
        .where('entity', '=', 'deliverable')
        .where('action', '=', 'issue')
        .orderBy('id')
        .execute()
      expect(feed.map((f) => f.note)).toEqual(['S-101 P01', 'S-102 C01', 'S-103 P01'])

      // The client hears of each transmittal by bell and by email in German; the freelancer of the answer in English.
      const issueId = (await s.t.call('GET', `projects/deliverables/${a.id}`, { token: client.token })).json
        .issues[0].id as number
      const answered = await s.t.call('POST', `projects/deliverable-issues/${issueId}/answer`, {
        token: client.token,
        body: { outcome: 'revise_and_resubmit', comment: 'Check the bracing' },
      })
      expect(answered.status, answered.text).toBe(200)
      await s.t.api.jobs.outbox.drain()
      const toClient = await mails(client.email)
      expect(toClient.map((m) => m.subject)).toEqual(
        expect.arrayContaining([
          'Leistungen zu „Steel frame checks for a warehouse“ übermittelt (TR-0001)',
          'S-103 P01 zu „Steel frame checks for a warehouse“ übermittelt (TR-0002)',
        ]),
      )
      expect(toClient.find((m) => m.subject.includes('TR-0001'))!.text).toContain('S-101 P01, S-102 C01')
      expect(toClient.find((m) => m.subject.includes('TR-0001'))!.text).toContain(
        `/projects/transmittal/${sent.json.id}`,
      )
      const toFreelancer = await mails(freelancer.email)
      expect(toFreelancer.map((m) => m.subject)).toContain(
        'Revise and resubmit S-101 P01 on “Steel frame checks for a warehouse”',
      )
      expect(toFreelancer.find((m) => m.subject.startsWith('Revise'))!.text).toContain('Check the bracing')
      const bell = JSON.stringify((await s.t.call('GET', 'notifications', { token: client.token })).json)
      expect(bell).toContain('S-101 P01, S-102 C01')
    })
  })
}
