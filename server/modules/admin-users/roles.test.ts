import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { PASSWORD, useModuleApi } from '../../../tests/integration/module-api.ts'
import { Role } from '../identity/permissions.ts'
import { decodeJwt } from '../identity/tokens.ts'

// Granting and taking the SuperAdmin role (decision 265) on both databases: refused to everyone
// but a SuperAdmin and changing nothing then; a reason required; never one's own roles; never the
// last SuperAdmin, even when the last two take each other's role at the same moment; audited; the
// account's sessions end, and a new SuperAdmin's next sign-in is held to setting up two-factor
// sign-in (decision 260).
for (const dialect of dialects) {
  describe(`the SuperAdmin role on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: `roles-${dialect}`, addressBlock: 67 })

    const change = (token: string | undefined, userId: number, body: unknown) =>
      s.t.call('POST', `Admin/users/${userId}/super-admin`, { token, body })
    const rolesOf = async (id: number) =>
      (
        await s.database.db
          .selectFrom('user_role')
          .select('role')
          .where('user_id', '=', id)
          .orderBy('role')
          .execute()
      ).map((r) => r.role)
    const auditOf = async (id: number) =>
      (
        await s.database.db
          .selectFrom('admin_audit')
          .select(['actor_id', 'action', 'reason'])
          .where('object_type', '=', 'user')
          .where('object_id', '=', id)
          .orderBy('id')
          .execute()
      ).map((a) => [a.actor_id, a.action, a.reason])

    test('only a SuperAdmin, with a reason, never on their own account; nothing changes on a refusal', async () => {
      const admin = await s.t.admin()
      const client = await s.t.user('client')
      const free = await s.t.user('freelancer')
      const body = { change: 'grant', reason: 'Joins the support team' }
      expect((await change(undefined, client.id, body)).status).toBe(401)
      expect((await change(free.token, client.id, body)).status).toBe(403)
      expect((await change(client.token, client.id, body)).status).toBe(403)
      const noReason = await change(admin.token, client.id, { change: 'grant' })
      expect(noReason.status).toBe(400)
      expect(noReason.json.errors.reason).toEqual(['errors.reasonRequired'])
      expect(
        (await change(admin.token, client.id, { change: 'promote', reason: 'Joins the team' })).json.errors
          .change,
      ).toEqual(['errors.change'])
      const self = await change(admin.token, admin.id, { change: 'take', reason: 'Stepping down now' })
      expect([self.status, self.json.errors]).toEqual([409, { userId: ['errors.self'] }])
      expect(await rolesOf(client.id)).toEqual([Role.Client])
      expect(await rolesOf(admin.id)).toEqual([Role.SuperAdmin])
      expect(await auditOf(client.id)).toEqual([])
    })

    test('granted: audited, signed out, and the next sign-in may only set up two-factor; taken: back to what it was', async () => {
      const admin = await s.t.admin()
      const client = await s.t.user('client', 'Nia', 'New')
      const granted = await change(admin.token, client.id, {
        change: 'grant',
        reason: 'Joins the support team',
      })
      expect(granted.status, granted.text).toBe(200)
      expect(granted.json.roles).toEqual([Role.SuperAdmin, Role.Client])
      expect(await auditOf(client.id)).toEqual([[admin.id, 'grantSuperAdmin', 'Joins the support team']])
      expect(granted.json.audit[0]).toMatchObject({
        action: 'grantSuperAdmin',
        reason: 'Joins the support team',
      })
      // Her session ended with the change; the next sign-in is held to setting up an app.
      expect((await s.t.call('GET', 'identity/profile', { token: client.token })).status).toBe(401)
      const login = await s.t.call('POST', 'identity/login', {
        body: { email: client.email, password: PASSWORD },
      })
      expect(decodeJwt(login.json.token)?.mfa).toBe('setup')
      expect((await s.t.call('GET', 'Admin/users', { token: login.json.token })).json.title).toBe(
        'Two-Factor Setup Required',
      )
      expect(
        (await change(admin.token, client.id, { change: 'grant', reason: 'Once more, please' })).json.errors,
      ).toEqual({ change: ['errors.alreadyAdmin'] })

      const taken = await change(admin.token, client.id, { change: 'take', reason: 'Left the support team' })
      expect(taken.status, taken.text).toBe(200)
      expect(await rolesOf(client.id)).toEqual([Role.Client])
      expect((await s.t.call('GET', 'identity/profile', { token: login.json.token })).status).toBe(401)
      expect((await auditOf(client.id)).map((a) => a[1])).toEqual(['grantSuperAdmin', 'takeSuperAdmin'])
      expect(
        (await change(admin.token, client.id, { change: 'take', reason: 'Left the support team' })).json
          .errors,
      ).toEqual({ change: ['errors.notAdmin'] })

      // Only an active account becomes a SuperAdmin.
      const suspended = await s.t.user('freelancer')
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Suspended' })
        .where('id', '=', suspended.id)
        .execute()
      expect(
        (await change(admin.token, suspended.id, { change: 'grant', reason: 'Joins the support team' })).json
          .errors,
      ).toEqual({ status: ['errors.notActive'] })
      expect(await rolesOf(suspended.id)).toEqual([Role.Freelancer])
    })

    test("the last two SuperAdmins taking each other's role at once: one is refused, one SuperAdmin remains", async () => {
      const [a, b] = [await s.t.admin('Ann', 'First'), await s.t.admin('Ben', 'Second')]
      // Only these two are SuperAdmins now.
      await s.database.db
        .deleteFrom('user_role')
        .where('role', '=', Role.SuperAdmin)
        .where('user_id', 'not in', [a.id, b.id])
        .execute()
      const answers = await Promise.all([
        change(a.token, b.id, { change: 'take', reason: 'Race to the top' }),
        change(b.token, a.id, { change: 'take', reason: 'Race to the top' }),
      ])
      const statuses = answers.map((r) => r.status).sort()
      expect(statuses[0], answers.map((r) => r.text).join('\n')).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const left = await s.database.db
        .selectFrom('user_role')
        .select('user_id')
        .where('role', '=', Role.SuperAdmin)
        .execute()
      expect(left).toHaveLength(1)
    })
  })
}
