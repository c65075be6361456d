import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { headerOf, linkIn, startSmtpServer, type ReceivedMail } from '../../../tests/support/smtp.ts'
import { postToPage } from '../../../tests/support/page-action.ts'
import { projectWithProposal } from '../../../tests/support/modules/projects.ts'
import { action as stopAction } from '../../../app/routes/emails-stop.tsx'

// One-click unsubscription (RFC 8058, issue 42 item 1, decision 340) on both databases: a notice
// mail read from a real SMTP server names its stop link in List-Unsubscribe with
// List-Unsubscribe-Post; a mail client's POST of `List-Unsubscribe=One-Click` to that address turns
// the kind's mails off (the next notice mails nothing); a tampered address answers 400 and changes
// nothing; a security mail carries neither header.
const PUBLIC_URL = 'https://workneer.example'
const ONE_CLICK = { 'List-Unsubscribe': 'One-Click' }

for (const dialect of portableDialects) {
  describe(`one-click unsubscription on ${dialect}`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    beforeAll(async () => void (smtp = await startSmtpServer()))
    afterAll(async () => smtp?.close())
    const s = useModuleApi(dialect, () => ({
      name: 'one-click',
      addressBlock: 43,
      freelancerTitle: 'Structural engineer',
      env: { SMTP_URL: smtp.url, PUBLIC_URL },
    }))
    type U = Awaited<ReturnType<typeof s.t.user>>

    const drain = async () => {
      await s.t.api.jobs.outbox.drain()
      await s.t.api.jobs.outbox.drain()
    }
    const proposalMails = (u: U) =>
      smtp.mails.filter((m) => m.to.includes(u.email) && m.subject === 'New proposal')

    async function proposalFor(client: U, free: U, title: string) {
      await projectWithProposal(s.t, s.database, client, free, title)
      await drain()
    }

    const post = (mail: ReceivedMail, path = new URL(listUnsubscribe(mail)).pathname) => {
      const [, , , userId = '', kind = '', token = ''] = path.split('/')
      return postToPage(
        { api: s.t.api.handler, publicUrl: PUBLIC_URL },
        stopAction,
        path,
        { userId, kind, token },
        ONE_CLICK,
      )
    }
    const listUnsubscribe = (mail: ReceivedMail) =>
      /^<(.+)>$/.exec(headerOf(mail, 'List-Unsubscribe') ?? '')?.[1] ?? ''

    test("a notice mail's List-Unsubscribe takes one POST to stop its kind; a tampered one changes nothing", async () => {
      const client = await s.t.user('client', 'Clara', 'Client')
      const free = await s.t.user('freelancer', 'Fran', 'One')
      await proposalFor(client, free, 'Roof calculations, first')
      const [mail] = proposalMails(client)
      expect(mail, 'the notice mail').toBeDefined()
      expect(listUnsubscribe(mail!)).toBe(linkIn(mail!, '/emails/stop/'))
      expect(listUnsubscribe(mail!)).toMatch(
        /^https:\/\/workneer\.example\/emails\/stop\/\d+\/proposals\/[\w-]{43}$/,
      )
      expect(headerOf(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')

      const path = new URL(listUnsubscribe(mail!)).pathname
      const token = path.split('/').pop()!
      const tampered = `${path.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
      for (const bad of [
        tampered,
        path.replace('/proposals/', '/money/'),
        path.replace('/proposals/', '/weather/'),
      ])
        expect((await post(mail!, bad)).status, bad).toBe(400)
      const settings = async () =>
        (await s.t.call('GET', 'notifications/preferences', { token: client.token })).json.preferences
      expect((await settings())[0]).toMatchObject({ kind: 'proposals', email: true })

      expect(await post(mail!)).toEqual({ status: 200, value: { done: true } })
      expect((await settings())[0]).toMatchObject({ kind: 'proposals', site: true, email: false })
      await proposalFor(client, free, 'Roof calculations, second')
      expect(proposalMails(client)).toHaveLength(1)
    })

    test('security mails carry no List-Unsubscribe', async () => {
      const u = await s.t.user('client', 'Sam', 'Secure')
      const since = smtp.mails.length
      await s.t.call('POST', 'identity/forget-password', { body: { email: u.email } })
      await drain()
      const mail = await smtp.waitFor(u.email, () => true, 15_000, since)
      expect(headerOf(mail, 'List-Unsubscribe')).toBeUndefined()
      expect(headerOf(mail, 'List-Unsubscribe-Post')).toBeUndefined()
    })
  })
}
