import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { contractFor, fund, submitAndApprove, usePayments } from '../../../tests/support/modules/payments.ts'
import { PASSWORD } from '../../../tests/integration/module-api.ts'
import { eraseClosedAccounts } from '../admin-users/closing-sweep.ts'
import { CLOSING_GRACE_DAYS } from './close-account.ts'

// A person closes their own account (issue 42 item 3, decision 330), on both databases: with their
// password; refused with a reason while a contract is active or money is held or owed, changing
// nothing; every session ends and a mail says until when; signing in within the grace period keeps
// the account; after it, the sweep erases it as an admin's deletion does.
const DAY = 86_400_000

for (const dialect of dialects) {
  describe(`closing one's own account on ${dialect}`, () => {
    const s = usePayments(dialect)
    const close = (token: string, body: Record<string, unknown>) =>
      s.t.call('POST', 'identity/close-account', { token, body })
    const account = (id: number) =>
      s.database.db
        .selectFrom('app_user')
        .select(['status', 'closing_at', 'email', 'first_name'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    const signIn = (email: string) =>
      s.t.call('POST', 'identity/login', { body: { email, password: PASSWORD } })
    const sweep = (now: number) =>
      eraseClosedAccounts(
        { db: s.database.db, dialect: s.database.dialect, identity: s.t.api.services.identity },
        now,
      )

    test('refused with its reason while a contract is active or money is held or owed; a wrong password changes nothing', async () => {
      const client = await s.t.user('client', 'Cleo', 'Closing')
      const free = await s.t.user('freelancer', 'Finn', 'Closing')
      const wrong = await close(client.token, { password: 'not my password at all' })
      expect(wrong.status, wrong.text).toBe(400)
      expect(wrong.json.errors).toHaveProperty('password')

      const { projectId, installments } = await contractFor(s.t.call, s.database, client, free, [40000])
      const active = await close(free.token, { password: PASSWORD })
      expect([active.status, active.json.code]).toEqual([409, 'active_contract'])
      await fund(s.t.call, client, projectId, [installments[0]!.id])
      await submitAndApprove(s.t.call, client, free, installments[0]!.id)
      const done = await s.t.call('PUT', `projects/${projectId}/updatestate/completed`, {
        token: client.token,
      })
      expect(done.status, done.text).toBe(200)
      const owed = await close(free.token, { password: PASSWORD })
      expect([owed.status, owed.json.code]).toEqual([409, 'money_owed'])
      expect((await account(free.id)).closing_at).toBeNull()
      expect((await account(client.id)).closing_at).toBeNull()
      expect((await s.t.call('GET', 'identity/profile', { token: free.token })).status).toBe(200)
    })

    test('closing ends every session and mails the date; signing in within the grace period keeps the account', async () => {
      const u = await s.t.user('client', 'Kim', 'Keeps')
      const closed = await close(u.token, { password: PASSWORD })
      expect(closed.status, closed.text).toBe(200)
      expect(Date.parse(closed.json.erasedAt) - Date.parse(closed.json.closingAt)).toBe(
        CLOSING_GRACE_DAYS * DAY,
      )
      expect((await s.t.call('GET', 'identity/profile', { token: u.token })).status).toBe(401)
      const mails = await s.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', 'email')
        .execute()
      const mail = mails
        .map((m) => (typeof m.payload === 'string' ? JSON.parse(m.payload) : m.payload))
        .find((m: { to: string; kind: string }) => m.to === u.email && m.kind === 'accountClosing')
      expect(mail?.subject).toMatch(/will be erased on/)
      expect((await account(u.id)).closing_at).not.toBeNull()

      const back = await signIn(u.email)
      expect(back.status, back.text).toBe(200)
      expect((await account(u.id)).closing_at).toBeNull()
      expect(await sweep(Date.now() + (CLOSING_GRACE_DAYS + 1) * DAY)).toBe(0)
      expect((await account(u.id)).status).toBe('Active')
    })

    test('after the grace period the sweep erases the account once, as an admin deletion does', async () => {
      const u = await s.t.user('freelancer', 'Gale', 'Gone')
      expect((await close(u.token, { password: PASSWORD })).status).toBe(200)
      expect(await sweep(Date.now() + (CLOSING_GRACE_DAYS - 1) * DAY)).toBe(0)
      expect((await account(u.id)).status).toBe('Active')
      const later = Date.now() + (CLOSING_GRACE_DAYS + 1) * DAY
      expect(await Promise.all([sweep(later), sweep(later)]).then((n) => n[0]! + n[1]!)).toBe(1)
      const erased = await account(u.id)
      expect(erased).toMatchObject({
        status: 'Deleted',
        email: `deleted-${u.id}@deleted.invalid`,
        first_name: '',
      })
      expect((await signIn(u.email)).status).toBe(401)
    })
  })
}
