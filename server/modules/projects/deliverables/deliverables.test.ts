import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects, rowCount } from '../../../../tests/integration/databases.ts'
import { tinyPdf } from '../../../../tests/integration/module-api.ts'
import { contractFor, fund, usePayments } from '../../../../tests/support/modules/payments.ts'
import { nextRevisions } from './rules.ts'

// The deliverables register on both databases (issue 40 item 1, decision 318): only the two
// parties see it, only the freelancer issues and only the client answers; a revision that is not
// next and a second answer are refused and change nothing; issuing submits the installment, and
// the installment is released through its usual approval only once every deliverable is approved.

describe('revision schemes', () => {
  test('stage: P01 or C01 first, a preliminary issue may go on or to construction, construction only counts on', () => {
    expect(nextRevisions('stage', null)).toEqual(['P01', 'C01'])
    expect(nextRevisions('stage', 'P01')).toEqual(['P02', 'C01'])
    expect(nextRevisions('stage', 'P09')).toEqual(['P10', 'C01'])
    expect(nextRevisions('stage', 'C01')).toEqual(['C02'])
  })
  test('letter: A, B… Z, then AA, AB', () => {
    expect(nextRevisions('letter', null)).toEqual(['A'])
    expect(nextRevisions('letter', 'A')).toEqual(['B'])
    expect(nextRevisions('letter', 'Z')).toEqual(['AA'])
    expect(nextRevisions('letter', 'AZ')).toEqual(['BA'])
  })
})

for (const dialect of portableDialects) {
  describe(`deliverables register on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let stranger: U
    beforeAll(async () => {
      stranger = await s.t.user('freelancer', 'Sam', 'Stranger')
    })

    /** A multipart issue with one PDF, as the issue form sends it. */
    async function issueWithFile(deliverableId: number, token: string, fields: Record<string, string>) {
      const boundary = '----workneer-deliverables-test'
      const parts = Object.entries(fields).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      )
      const body = Buffer.concat([
        Buffer.from(parts.join('')),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="S-101.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        tinyPdf(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const r = await s.t.raw('POST', `projects/deliverables/${deliverableId}/issues`, {
        token,
        body,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      })
      const text = await r.text()
      return { status: r.status, json: text ? JSON.parse(text) : undefined, text }
    }

    const count = (table: 'deliverable' | 'deliverable_issue' | 'deliverable_response' | 'transmittal') =>
      rowCount(s.database, table)
    const installmentStatus = async (id: number) =>
      (
        await s.database.db
          .selectFrom('installment')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status

    test('two revisions of a deliverable, then approval releases its installment; the other installment keeps its plain flow', async () => {
      const { client, freelancer } = s
      const { projectId, installments } = await contractFor(s.t.call, s.database, client, freelancer)
      const [first, second] = installments
      const add = (body: Record<string, unknown>, token = freelancer.token) =>
        s.t.call('POST', `projects/${projectId}/deliverables`, { token, body })

      // Bad input names its fields and adds nothing.
      const bad = await add({
        number: '',
        title: 'x'.repeat(300),
        discipline: 'Structures',
        installmentId: first.id,
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(expect.arrayContaining(['number', 'title']))
      expect(
        (await add({ number: 'S-1', title: 'A', discipline: 'S', installmentId: 999999 })).json.errors,
      ).toHaveProperty('installmentId')
      expect(await count('deliverable')).toBe(0)
      // Only the freelancer adds; strangers do not find the register.
      expect(
        (
          await add(
            { number: 'S-101', title: 'GA', discipline: 'Structures', installmentId: first.id },
            client.token,
          )
        ).status,
      ).toBe(403)
      expect(
        (
          await add(
            { number: 'S-101', title: 'GA', discipline: 'Structures', installmentId: first.id },
            stranger.token,
          )
        ).status,
      ).toBe(404)

      const added = await add({
        number: 'S-101',
        title: 'General arrangement',
        discipline: 'Structures',
        installmentId: first.id,
        scheme: 'stage',
      })
      expect(added.status, added.text).toBe(200)
      const d = added.json as { id: number; nextRevisions: string[] }
      expect(d.nextRevisions).toEqual(['P01', 'C01'])
      const dup = await add({
        number: 'S-101',
        title: 'Again',
        discipline: 'Structures',
        installmentId: first.id,
      })
      expect(dup.status).toBe(409)
      expect(dup.json.errors.number).toBeDefined()
      const scheme = await add({
        number: 'S-102',
        title: 'B',
        discipline: 'S',
        installmentId: first.id,
        scheme: 'letter',
      })
      expect(scheme.status).toBe(409)
      expect(scheme.json.errors.scheme).toBeDefined()

      // Not funded yet: nothing is issued.
      const early = await s.t.call('POST', `projects/deliverables/${d.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P01', status: 'for_comment', note: 'First issue' },
      })
      expect(early.status).toBe(409)
      await fund(s.t.call, client, projectId, [first.id, second.id])
      expect(await installmentStatus(first.id)).toBe('funded')

      // The plain submit of an installment with deliverables is refused: issuing them is its submission.
      const plain = await s.t.call('POST', `projects/installments/${first.id}/submit`, {
        token: freelancer.token,
        body: { note: 'Done' },
      })
      expect(plain.status).toBe(409)

      // A revision that is not next: 400 naming the field, nothing written.
      const skip = await s.t.call('POST', `projects/deliverables/${d.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P02', status: 'for_comment', note: 'Skipping' },
      })
      expect(skip.status).toBe(400)
      expect(skip.json.code).toBe('revision_not_next')
      expect(skip.json.errors.revision[0]).toContain('P01 or C01')
      expect(await count('deliverable_issue')).toBe(0)
      expect(await count('transmittal')).toBe(0)
      // Only the freelancer issues.
      const byClient = await s.t.call('POST', `projects/deliverables/${d.id}/issues`, {
        token: client.token,
        body: { revision: 'P01', status: 'for_comment', note: 'x' },
      })
      expect(byClient.status).toBe(403)

      const p01 = await issueWithFile(d.id, freelancer.token, {
        revision: 'p01',
        status: 'for_comment',
        note: 'For your comments',
      })
      expect(p01.status, p01.text).toBe(200)
      expect(p01.json.issues[0]).toMatchObject({
        revision: 'P01',
        status: 'for_comment',
        transmittal: { number: 'TR-0001' },
      })
      expect(p01.json.issues[0].files).toHaveLength(1)
      expect(await installmentStatus(first.id)).toBe('submitted')
      const fileId = p01.json.issues[0].files[0].id as number
      const issueId = p01.json.issues[0].id as number
      const transmittalId = p01.json.issues[0].transmittal.id as number

      // Strangers see nothing: the register, the deliverable, the transmittal, the file.
      for (const path of [
        `projects/${projectId}/deliverables`,
        `projects/deliverables/${d.id}`,
        `projects/transmittals/${transmittalId}`,
        `files/${fileId}/download`,
      ]) {
        expect((await s.t.call('GET', path, { token: stranger.token })).status, path).toBe(404)
        expect((await s.t.call('GET', path, { token: client.token })).status, path).toBe(200)
        expect((await s.t.call('GET', path, { token: freelancer.token })).status, path).toBe(200)
      }
      const t = await s.t.call('GET', `projects/transmittals/${transmittalId}`, { token: client.token })
      expect(t.json).toMatchObject({
        number: 'TR-0001',
        sender: { id: freelancer.id },
        recipient: { id: client.id },
        items: [{ number: 'S-101', revision: 'P01', status: 'for_comment' }],
      })

      // Only the client answers; the approval of the installment waits for its deliverables.
      const answer = (body: Record<string, unknown>, id = issueId, token = client.token) =>
        s.t.call('POST', `projects/deliverable-issues/${id}/answer`, { token, body })
      expect((await answer({ outcome: 'approved' }, issueId, freelancer.token)).status).toBe(403)
      expect((await answer({ outcome: 'approved' }, issueId, stranger.token)).status).toBe(404)
      const wordless = await answer({ outcome: 'revise_and_resubmit' })
      expect(wordless.status).toBe(400)
      expect(wordless.json.errors.comment).toBeDefined()
      const tooSoon = await s.t.call('POST', `projects/installments/${first.id}/approve`, {
        token: client.token,
        body: {},
      })
      expect(tooSoon.status).toBe(409)
      expect(tooSoon.json.detail).toContain('S-101')

      const revise = await answer({ outcome: 'revise_and_resubmit', comment: 'Check the bracing' })
      expect(revise.status, revise.text).toBe(200)
      expect(revise.json.issues[0].answer).toMatchObject({
        outcome: 'revise_and_resubmit',
        comment: 'Check the bracing',
      })
      expect(await installmentStatus(first.id)).toBe('changes_requested')
      const again = await answer({ outcome: 'approved' })
      expect(again.status).toBe(409)
      expect(again.json.code).toBe('already_answered')
      expect(await count('deliverable_response')).toBe(1)

      const p02 = await s.t.call('POST', `projects/deliverables/${d.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P02', status: 'for_approval', note: 'Bracing added' },
      })
      expect(p02.status, p02.text).toBe(200)
      expect(p02.json.issues.map((i: { revision: string }) => i.revision)).toEqual(['P02', 'P01'])
      expect(p02.json.issues[0].transmittal.number).toBe('TR-0002')
      expect(await installmentStatus(first.id)).toBe('submitted')
      // The superseded issue is no longer answered.
      expect((await answer({ outcome: 'approved' })).status).toBe(409)
      const ok = await answer(
        { outcome: 'approved_with_comments', comment: 'Fine; mind the note' },
        p02.json.issues[0].id,
      )
      expect(ok.status, ok.text).toBe(200)

      // Now the usual approval (the contract page's confirmation step) releases the installment.
      const approved = await s.t.call('POST', `projects/installments/${first.id}/approve`, {
        token: client.token,
        body: {},
      })
      expect(approved.status, approved.text).toBe(200)
      expect(await installmentStatus(first.id)).toBe('released')
      // Its deliverables cannot be added to any more.
      expect(
        (await add({ number: 'S-103', title: 'Late', discipline: 'S', installmentId: first.id })).status,
      ).toBe(409)

      // An installment without deliverables keeps today's flow.
      const submit = await s.t.call('POST', `projects/installments/${second.id}/submit`, {
        token: freelancer.token,
        body: { note: 'Drawings attached' },
      })
      expect(submit.status, submit.text).toBe(200)

      // Each issue and answer reached the other party as a notification, in words.
      await s.t.api.jobs.outbox.drain()
      const heard = async (token: string) =>
        JSON.stringify((await s.t.call('GET', 'notifications', { token })).json)
      expect(await heard(client.token)).toContain(
        'S-101 P02 of “Steel frame checks for a warehouse” was issued to you (TR-0002).',
      )
      expect(await heard(freelancer.token)).toContain('The client asks you to revise and resubmit S-101 P01')

      // The register reads a page at a time, in its order.
      await add({ number: 'S-201', title: 'Site photos', discipline: 'Structures', installmentId: second.id })
      const paged = await s.t.call('GET', `projects/${projectId}/deliverables?page=2&pageSize=1`, {
        token: client.token,
      })
      expect(paged.json).toMatchObject({
        page: 2,
        pageSize: 1,
        total: 2,
        data: [{ number: 'S-201', issues: [] }],
      })
      const register = await s.t.call('GET', `projects/${projectId}/deliverables?pageSize=1`, {
        token: client.token,
      })
      expect(register.json).toMatchObject({ role: 'client', scheme: 'stage', data: [{ number: 'S-101' }] })
      expect(register.json.data[0].issues).toHaveLength(2)
      const feed = await s.database.db
        .selectFrom('project_activity')
        .select('action')
        .where('project_id', '=', projectId)
        .where('entity', '=', 'deliverable')
        .orderBy('id')
        .execute()
      expect(feed.map((a) => a.action)).toEqual([
        'add',
        'issue',
        'revise_and_resubmit',
        'issue',
        'approved_with_comments',
        'add',
      ])
    })
  })
}
