import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { projectWithProposal, useProjects } from '../../../tests/support/modules/projects.ts'

// Notification settings on both databases (issue 42 item 1, decision 329): each kind of notice on
// in the site and by email until the person turns it off; a notice mailed once, in the reader's
// language, with a signed link that stops that kind's mails without signing in; bad input a 400
// that names the field and changes nothing.
for (const dialect of portableDialects) {
  describe(`notification settings on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, other: U

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'One')
      other = await s.t.user('freelancer', 'Otto', 'Other')
    }, 60_000)

    const settingsOf = async (u: U) =>
      (await s.t.call('GET', 'notifications/preferences', { token: u.token })).json.preferences
    const put = (u: U, preferences: unknown) =>
      s.t.call('PUT', 'notifications/preferences', { token: u.token, body: { preferences } })
    const mailsTo = async (u: U) =>
      (await s.database.db.selectFrom('outbox').select('payload').where('topic', '=', 'email').execute())
        .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
        .filter((m: { to: string; kind?: string }) => m.to === u.email && m.kind === 'notice')
    const bell = async (u: U) =>
      (await s.t.call('GET', 'notifications', { token: u.token })).json.data.map(
        (n: { title: string }) => n.title,
      )

    /** The client's open project and a proposal of `u`'s for it, its notices delivered. */
    async function proposalFrom(u: U, title: string) {
      const { projectId } = await projectWithProposal(s.t, s.database, client, u, title)
      await s.t.api.jobs.outbox.drain()
      return projectId
    }

    test('every kind is on in the site and by email until changed; bad input names its field and changes nothing', async () => {
      const all = await settingsOf(client)
      expect(all.map((p: { kind: string }) => p.kind)).toEqual([
        'proposals',
        'contracts',
        'money',
        'chat',
        'complaints',
        'alerts',
        'newsletter',
      ])
      expect(all.pop()).toEqual({ kind: 'newsletter', site: false, email: false, push: false })
      expect(all.every((p: { site: boolean; email: boolean }) => p.site && p.email)).toBe(true)
      all.push({ kind: 'newsletter', site: false, email: false, push: false })
      for (const [body, field] of [
        [[{ kind: 'weather', site: true, email: true }], 'preferences.0.kind'],
        [[{ kind: 'money', email: true }], 'preferences.0.site'],
        [[{ kind: 'money', site: 'maybe', email: true }], 'preferences.0.site'],
        [[{ kind: 'newsletter', site: true, email: true }], 'preferences.0.site'],
        [
          [
            { kind: 'alerts', site: true, email: true },
            { kind: 'newsletter', site: false, email: true, push: true },
          ],
          'preferences.1.push',
        ],
        [
          [
            { kind: 'money', site: true, email: false },
            { kind: 'money', site: true, email: true },
          ],
          'preferences',
        ],
      ] as const) {
        const bad = await put(client, body)
        expect(bad.status, bad.text).toBe(400)
        expect(bad.json.errors).toHaveProperty([field])
      }
      expect(await settingsOf(client)).toEqual(all)
      expect((await s.t.call('GET', 'notifications/preferences')).status).toBe(401)
    })

    test("a notice is mailed once, in the reader's words, and not at all where they turned its kind off", async () => {
      await proposalFrom(free, 'Roof calculations, first')
      const mails = await mailsTo(client)
      expect(mails).toHaveLength(1)
      expect(mails[0].subject).toBe('New proposal')
      expect(mails[0].text).toContain('/projects/client/details/')
      expect(mails[0].text).toMatch(/\/emails\/stop\/\d+\/proposals\/[\w-]{43}/)
      expect(mails[0].text).toContain('/notifications/settings')
      // The delivery retried: nothing is mailed twice.
      const row = await s.database.db
        .selectFrom('notification')
        .select('source')
        .where('user_id', '=', client.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      await s.t.api.services.notifications.record(s.database.db, [
        {
          userId: client.id,
          source: row.source,
          messageKey: 'projects:notify.proposalReceivedFrom',
          params: { title: 'Roof calculations, first' },
          type: 'Proposal',
        },
      ])
      expect(await mailsTo(client)).toHaveLength(1)

      const changed = await put(client, [{ kind: 'proposals', site: 'true', email: false }])
      expect(changed.status, changed.text).toBe(200)
      expect(changed.json.preferences[0]).toEqual({
        kind: 'proposals',
        site: true,
        email: false,
        push: false,
      })
      const bellBefore = (await bell(client)).length
      await proposalFrom(other, 'Roof calculations, second')
      expect(await mailsTo(client)).toHaveLength(1)
      expect((await bell(client)).length).toBe(bellBefore + 1)

      await put(client, [{ kind: 'proposals', site: false, email: false }])
      await proposalFrom(other, 'Roof calculations, third')
      expect((await bell(client)).length).toBe(bellBefore + 1)
      expect(await mailsTo(client)).toHaveLength(1)
      await put(client, [{ kind: 'proposals', site: true, email: true }])
    })

    test("the mail's link stops that kind's mails without signing in; a tampered or borrowed link changes nothing", async () => {
      await proposalFrom(free, 'Bridge bearings check')
      const [mail] = (await mailsTo(client)).slice(-1)
      const link = mail.text.match(/\/emails\/stop\/(\d+)\/(\w+)\/([\w-]{43})/)!
      const [, userId, kind, token] = link
      expect([Number(userId), kind]).toEqual([client.id, 'proposals'])
      const tampered = `${token!.slice(0, -1)}${token!.endsWith('A') ? 'B' : 'A'}`
      for (const path of [
        `notifications/email-off/${userId}/proposals/${tampered}`,
        `notifications/email-off/${free.id}/proposals/${token}`,
        `notifications/email-off/${userId}/money/${token}`,
      ]) {
        const refused = await s.t.call('POST', path)
        expect(refused.status, path).toBe(400)
        expect(refused.json.errors).toHaveProperty('token')
      }
      expect((await s.t.call('POST', `notifications/email-off/${userId}/weather/${token}`)).status).toBe(400)
      expect((await settingsOf(client))[0]).toEqual({
        kind: 'proposals',
        site: true,
        email: true,
        push: false,
      })
      expect((await settingsOf(free))[0]).toEqual({ kind: 'proposals', site: true, email: true, push: false })
      const stopped = await s.t.call('POST', `notifications/email-off/${userId}/${kind}/${token}`)
      expect(stopped.status, stopped.text).toBe(200)
      expect((await settingsOf(client))[0]).toEqual({
        kind: 'proposals',
        site: true,
        email: false,
        push: false,
      })
      const before = (await mailsTo(client)).length
      await proposalFrom(free, 'Bridge bearings, second check')
      expect(await mailsTo(client)).toHaveLength(before)
    })

    test("the newsletter is a kind: by email only, the subscription of the account's verified address, one truth", async () => {
      const subscriber = () =>
        s.database.db
          .selectFrom('newsletter_subscriber')
          .select(['token', 'unsubscribed_at'])
          .where('email', '=', other.email.toLowerCase())
          .executeTakeFirst()
      const letter = async (u: U) =>
        (await settingsOf(u)).find((p: { kind: string }) => p.kind === 'newsletter')
      // An address its owner has not confirmed yet is not subscribed: 409, nothing changed.
      await s.database.db
        .updateTable('app_user')
        .set({ email_verified: 0 })
        .where('id', '=', other.id)
        .execute()
      const unverified = await put(other, [
        { kind: 'money', site: false, email: false },
        { kind: 'newsletter', site: false, email: true },
      ])
      expect(unverified.status, unverified.text).toBe(409)
      expect(await subscriber()).toBeUndefined()
      expect((await settingsOf(other))[2]).toMatchObject({ kind: 'money', site: true, email: true })
      await s.database.db
        .updateTable('app_user')
        .set({ email_verified: 1 })
        .where('id', '=', other.id)
        .execute()

      const on = await put(other, [{ kind: 'newsletter', site: false, email: true }])
      expect(on.status, on.text).toBe(200)
      expect(on.json.preferences.at(-1)).toEqual({
        kind: 'newsletter',
        site: false,
        email: true,
        push: false,
      })
      const row = await subscriber()
      expect(row?.unsubscribed_at).toBeNull()
      // The newsletter's own link ends the same subscription: the settings say so at once.
      expect((await s.t.call('POST', `subscribe/unsubscribe/${row!.token}`)).status).toBe(200)
      expect(await letter(other)).toMatchObject({ email: false })
      await put(other, [{ kind: 'newsletter', site: false, email: true }])
      expect(await letter(other)).toMatchObject({ email: true })
      const off = await put(other, [{ kind: 'newsletter', site: false, email: false }])
      expect(off.json.preferences.at(-1)).toMatchObject({ kind: 'newsletter', email: false })
      expect((await subscriber())?.unsubscribed_at).not.toBeNull()
      expect(await letter(free)).toMatchObject({ email: false })
    })
  })
}
