import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../../tests/integration/module-api.ts'
import { projectBody, publish, settle } from '../../../../tests/support/modules/alerts.ts'
import { useMarketplace } from '../../../../tests/support/modules/marketplace.ts'
import { startSmtpServer } from '../../../../tests/support/smtp.ts'
import { notificationTarget } from '../../notifications/targets.ts'
import { Role } from '../../identity/permissions.ts'

// Invitations on both databases (decision 335): only the project's client invites, only to an
// open project, only a freelancer other than themself, once; the freelancer answers once. Every
// refusal names its field or state and changes nothing. The notices reach the bell and the mail.
for (const dialect of portableDialects) {
  describe(`invitations on ${dialect}`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    beforeAll(async () => void (smtp = await startSmtpServer()))
    afterAll(async () => smtp?.close())
    const s = useModuleApi(dialect, () => ({
      name: 'invitations',
      addressBlock: 93,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://workneer.example' },
    }))
    const m = useMarketplace(s, {
      client: ['client', 'Clara', 'Client'],
      client2: ['client', 'Carl', 'Second'],
      company: ['company', 'Cora', 'Company'],
      fred: ['freelancer', 'Fred', 'Freelancer'],
      fiona: ['freelancer', 'Fiona', 'Second'],
    })

    const invitations = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('project_invitation')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const invite = (token: string, projectId: number, body: Record<string, unknown>) =>
      s.t.call('POST', `projects/${projectId}/invitations`, { token, body })

    test('only the client invites, to an open project, a freelancer other than themself, once', async () => {
      const open = await publish(s.t, m.client.token, projectBody(m.cat.sub.id, m.cat.skills))
      const draft = await publish(
        s.t,
        m.client.token,
        projectBody(m.cat.sub.id, m.cat.skills, { publish: false }),
      )
      const before = await invitations()
      const refusals: Array<[string, number, number, Record<string, unknown>, number, string?]> = [
        ['another client', open, m.client2.id, { freelancerId: m.fred.id, message: 'Hi' }, 403],
        ['a freelancer', open, m.fred.id, { freelancerId: m.fiona.id, message: 'Hi' }, 403],
        ['a draft', draft, m.client.id, { freelancerId: m.fred.id, message: 'Hi' }, 409, 'state'],
        [
          'a client invited',
          open,
          m.client.id,
          { freelancerId: m.company.id, message: 'Hi' },
          400,
          'freelancerId',
        ],
        ['oneself', open, m.client.id, { freelancerId: m.client.id, message: 'Hi' }, 400, 'freelancerId'],
        ['an unknown person', open, m.client.id, { freelancerId: 999_999, message: 'Hi' }, 404],
        [
          'a long message',
          open,
          m.client.id,
          { freelancerId: m.fred.id, message: 'x'.repeat(2001) },
          400,
          'message',
        ],
        ['no message', open, m.client.id, { freelancerId: m.fred.id, message: ' ' }, 400, 'message'],
      ]
      const tokens = new Map([
        [m.client.id, m.client.token],
        [m.client2.id, m.client2.token],
        [m.fred.id, m.fred.token],
      ])
      for (const [why, projectId, who, body, status, field] of refusals) {
        const r = await invite(tokens.get(who)!, projectId, body)
        expect(r.status, `${why}: ${r.text}`).toBe(status)
        if (field) expect(Object.keys(r.json.errors ?? {}), why).toContain(field)
      }
      expect(await invitations()).toBe(before)

      const made = await invite(m.client.token, open, {
        freelancerId: m.fred.id,
        message: 'Your bridge work fits.',
      })
      expect(made.status, made.text).toBe(200)
      expect(made.json).toMatchObject({
        status: 'pending',
        projectId: open,
        message: 'Your bridge work fits.',
      })
      const again = await invite(m.client.token, open, { freelancerId: m.fred.id, message: 'Again' })
      expect(again.status).toBe(409)
      expect(again.json.errors.freelancerId).toEqual(['This freelancer is already invited to this project.'])
      expect(await invitations()).toBe(before + 1)
    })

    test('the freelancer answers once; the client sees each state; notices reach the bell and the mail', async () => {
      const projectId = await publish(s.t, m.client.token, projectBody(m.cat.sub.id, m.cat.skills))
      const a = (await invite(m.client.token, projectId, { freelancerId: m.fred.id, message: 'Please' })).json
      const b = (await invite(m.client.token, projectId, { freelancerId: m.fiona.id, message: 'Please' }))
        .json
      const since = smtp.mails.length
      await settle(s.t)
      const bell = await s.database.db
        .selectFrom('notification')
        .select(['message_key', 'type', 'project_id'])
        .where('user_id', '=', m.fred.id)
        .where('project_id', '=', projectId)
        .execute()
      expect(bell).toEqual([
        { message_key: 'projects:notify.proposalInvitation', type: 'Invitation', project_id: projectId },
      ])
      expect(notificationTarget({ roomId: null, projectId, type: 'Invitation' }, [Role.Freelancer])).toBe(
        '/projects/invitations',
      )
      const mail = await smtp.waitFor(m.fred.email, () => true, 15_000, since)
      expect(mail.text).toContain('Clara')

      // Someone else's invitation is not found; the answer is the invited freelancer's, once.
      expect(
        (await s.t.call('POST', `projects/invitations/${a.id}/accept`, { token: m.fiona.token })).status,
      ).toBe(404)
      const accepted = await s.t.call('POST', `projects/invitations/${a.id}/accept`, { token: m.fred.token })
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.json.status).toBe('accepted')
      const twice = await s.t.call('POST', `projects/invitations/${a.id}/decline`, {
        token: m.fred.token,
        body: { reason: 'Changed my mind' },
      })
      expect(twice.status).toBe(409)
      expect(twice.json.errors.state).toEqual(['accepted'])

      for (const [reason, field] of [
        ['', 'reason'],
        ['y'.repeat(1001), 'reason'],
      ] as const) {
        const r = await s.t.call('POST', `projects/invitations/${b.id}/decline`, {
          token: m.fiona.token,
          body: { reason },
        })
        expect(r.status).toBe(400)
        expect(Object.keys(r.json.errors)).toEqual([field])
      }
      const declined = await s.t.call('POST', `projects/invitations/${b.id}/decline`, {
        token: m.fiona.token,
        body: { reason: 'Fully booked until spring' },
      })
      expect(declined.json).toMatchObject({ status: 'declined', declineReason: 'Fully booked until spring' })

      const mine = await s.t.call('GET', 'projects/invitations', { token: m.fred.token })
      expect(mine.json.data.map((i: { id: number }) => i.id)).toContain(a.id)
      expect(mine.json.data.some((i: { id: number }) => i.id === b.id)).toBe(false)
      const sent = await s.t.call('GET', `projects/${projectId}/invitations`, { token: m.client.token })
      expect(sent.json.data.map((i: { status: string }) => i.status)).toEqual(['declined', 'accepted'])
      expect(
        (await s.t.call('GET', `projects/${projectId}/invitations`, { token: m.fred.token })).status,
      ).toBe(403)

      await settle(s.t)
      const told = await s.database.db
        .selectFrom('notification')
        .select('message_key')
        .where('user_id', '=', m.client.id)
        .where('project_id', '=', projectId)
        .orderBy('id')
        .execute()
      expect(told.map((n) => n.message_key)).toEqual([
        'projects:notify.proposalInvitationAccepted',
        'projects:notify.proposalInvitationDeclined',
      ])
    })
  })
}
