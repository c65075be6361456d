import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { PASSWORD, tinyPng, useModuleApi } from '../../../tests/integration/module-api.ts'
import { contractFor, fund } from '../../../tests/support/modules/payments.ts'
import { Role } from '../identity/permissions.ts'
import { SESSIONS_ENDED_TOPIC } from '../identity/service.ts'
import { permissionForPath } from '../identity/permissions.ts'
import { deletedEmail } from './erase.ts'

test('the admin user and audit pages need admin.area, which only a SuperAdmin has', () => {
  for (const path of ['/admin/users', '/admin/users/12', '/admin/audit'])
    expect(permissionForPath(path)).toBe('admin.area')
})

// The admin's users on both databases (issue 18 item 3, decisions 235–237): every Admin/users call
// refused to the other roles (changing nothing), the search's filters, suspension ending sessions
// (and asking the hubs to drop the user), reactivation, the lock-out guards, a deletion that
// erases personal data while the ledger and invoices stay as they were, the reset mail, and the
// audit rows each writes, listed and filtered by Admin/audit.
for (const dialect of dialects) {
  describe(`admin users on ${dialect}`, () => {
    const s = useModuleApi(dialect, {
      name: 'adminusers',
      addressBlock: 41,
      freelancerTitle: 'Geotechnical engineer',
    })
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, company: U, admin: U

    beforeAll(async () => {
      s.t.api.jobs.outbox.start()
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'Engineer')
      company = await s.t.user('company', 'Cora', 'Company')
      admin = await s.t.admin('Sam', 'Support')
    }, 60_000)

    const audits = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('admin_audit')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const statusOf = async (id: number) =>
      (
        await s.database.db
          .selectFrom('app_user')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status
    const ids = (r: { json: { data: Array<{ id: number }> } }) => r.json.data.map((u) => u.id)

    test('every Admin/users call is refused to visitors (401) and to clients, companies and freelancers (403), and changes nothing', async () => {
      const before = await audits()
      const calls: Array<[string, string, unknown?]> = [
        ['GET', 'Admin/users'],
        ['GET', `Admin/users/${free.id}`],
        ['POST', `Admin/users/${free.id}/suspend`, { reason: 'Trying my luck' }],
        ['POST', `Admin/users/${free.id}/unsuspend`, {}],
        ['POST', `Admin/users/${free.id}/delete`, { reason: 'Trying my luck' }],
        ['POST', `Admin/users/${free.id}/reset-password`, {}],
      ]
      for (const [method, path, body] of calls) {
        expect((await s.t.call(method, path, { body })).status, path).toBe(401)
        for (const u of [client, company, free])
          expect((await s.t.call(method, path, { token: u.token, body })).status, path).toBe(403)
      }
      expect(await audits()).toBe(before)
      expect(await statusOf(free.id)).toBe('Active')
      expect((await s.t.call('GET', 'identity/profile', { token: free.token })).status).toBe(200)
    })

    test('search by words of a name or email, role and status, paginated; bad filters are 400 naming the field', async () => {
      const byName = await s.t.call('GET', 'Admin/users?q=fran%20eng', { token: admin.token })
      expect(byName.status).toBe(200)
      expect(ids(byName)).toEqual([free.id])
      expect(byName.json.data[0]).toMatchObject({
        name: 'Fran Engineer',
        email: free.email,
        roles: [Role.Freelancer],
        status: 'Active',
      })
      expect(byName.json.data[0].lastActiveAt).toBeTruthy()
      expect(
        ids(
          await s.t.call('GET', `Admin/users?q=${encodeURIComponent(company.email.toUpperCase())}`, {
            token: admin.token,
          }),
        ),
      ).toEqual([company.id])
      // LIKE's wildcards are only themselves.
      expect((await s.t.call('GET', 'Admin/users?q=%25', { token: admin.token })).json.total).toBe(0)
      expect(ids(await s.t.call('GET', `Admin/users?role=${Role.Company}`, { token: admin.token }))).toEqual([
        company.id,
      ])
      expect(
        ids(
          await s.t.call('GET', `Admin/users?role=${Role.SuperAdmin}&status=Active`, { token: admin.token }),
        ),
      ).toEqual([admin.id])
      expect((await s.t.call('GET', 'Admin/users?status=Suspended', { token: admin.token })).json.total).toBe(
        0,
      )
      const all = await s.t.call('GET', 'Admin/users', { token: admin.token })
      expect(all.json).toMatchObject({ page: 1, pageSize: 25, total: 4 })
      expect(ids(all)).toEqual([admin.id, company.id, free.id, client.id]) // newest first
      const bad = await s.t.call('GET', 'Admin/users?role=9&status=Gone&page=0', { token: admin.token })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual(['page', 'role', 'status'])
    })

    test('suspension needs a reason, ends every session at once and asks the hubs to drop the user; reactivation lets them sign in again; both audited', async () => {
      const second = (
        await s.t.call('POST', 'identity/login', { body: { email: company.email, password: PASSWORD } })
      ).json.token as string
      const before = await audits()
      const noReason = await s.t.call('POST', `Admin/users/${company.id}/suspend`, {
        token: admin.token,
        body: { reason: ' ' },
      })
      expect(noReason.status).toBe(400)
      expect(Object.keys(noReason.json.errors)).toEqual(['reason'])
      expect(await statusOf(company.id)).toBe('Active')

      const suspended = await s.t.call('POST', `Admin/users/${company.id}/suspend`, {
        token: admin.token,
        body: { reason: 'Fake invoices reported by two clients' },
      })
      expect(suspended.status).toBe(200)
      expect(suspended.json).toMatchObject({
        status: 'Suspended',
        audit: [
          {
            action: 'suspend',
            fromState: 'Active',
            toState: 'Suspended',
            reason: 'Fake invoices reported by two clients',
            actor: { id: admin.id, name: 'Sam Support' },
          },
        ],
      })
      for (const token of [company.token, second])
        expect((await s.t.call('GET', 'identity/profile', { token })).status).toBe(401)
      const hubs = await s.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', SESSIONS_ENDED_TOPIC)
        .execute()
      expect(hubs.map((r) => JSON.parse(r.payload).userId)).toContain(company.id)
      // Twice is a conflict, not a second row.
      expect(
        (
          await s.t.call('POST', `Admin/users/${company.id}/suspend`, {
            token: admin.token,
            body: { reason: 'Again and again' },
          })
        ).status,
      ).toBe(409)

      const back = await s.t.call('POST', `Admin/users/${company.id}/unsuspend`, {
        token: admin.token,
        body: {},
      })
      expect(back.status).toBe(200)
      expect(back.json.status).toBe('Active')
      expect(back.json.audit.map((a: { action: string }) => a.action)).toEqual(['unsuspend', 'suspend'])
      expect(await audits()).toBe(before + 2)
      const search = await s.t.call('GET', 'Admin/users?status=Active', { token: admin.token })
      expect(ids(search)).toContain(company.id)
    })

    test('an admin cannot suspend or delete themselves, nor leave no active SuperAdmin when two act at once', async () => {
      const before = await audits()
      expect((await s.t.call('GET', `Admin/users/${admin.id}`, { token: admin.token })).json.lockout).toBe(
        'self',
      )
      for (const action of ['suspend', 'delete']) {
        const self = await s.t.call('POST', `Admin/users/${admin.id}/${action}`, {
          token: admin.token,
          body: { reason: 'Testing the guard' },
        })
        expect(self.status).toBe(409)
        expect(self.json.errors).toEqual({ userId: ['errors.self'] })
      }
      const other = await s.t.admin('Olga', 'Operator')
      expect(
        (await s.t.call('GET', `Admin/users/${admin.id}`, { token: other.token })).json.lockout,
      ).toBeNull()

      // The two suspend each other at the same moment: one wins, the other is refused (409 as the
      // last active SuperAdmin, or 401 when its own session had already ended); one stays active.
      const [a, b] = await Promise.all([
        s.t.call('POST', `Admin/users/${other.id}/suspend`, {
          token: admin.token,
          body: { reason: 'Race one' },
        }),
        s.t.call('POST', `Admin/users/${admin.id}/suspend`, {
          token: other.token,
          body: { reason: 'Race two' },
        }),
      ])
      expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1)
      expect(
        [a.status, b.status].filter((s) => s !== 200).every((s) => s === 409 || s === 401),
        JSON.stringify([a.json, b.json]),
      ).toBe(true)
      const active = await s.database.db
        .selectFrom('app_user')
        .select('id')
        .where('id', 'in', [admin.id, other.id])
        .where('status', '=', 'Active')
        .execute()
      expect(active).toHaveLength(1)
      expect(await audits()).toBe(before + 1)

      // The same rule, deterministically: a caller whose own account was suspended meanwhile cannot
      // suspend the only active SuperAdmin left.
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Active' })
        .where('id', '=', admin.id)
        .execute()
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Suspended' })
        .where('id', '=', other.id)
        .execute()
      admin.token = await s.t.signIn(admin.email)
      const refused = await s.t.api.services.adminUsers
        .suspend({ userId: other.id, roles: [Role.SuperAdmin] } as never, admin.id, 'Locking everyone out')
        .catch((e: unknown) => e)
      expect(refused).toMatchObject({ status: 409, errors: { userId: ['errors.lastAdmin'] } })
      expect(await statusOf(admin.id)).toBe('Active')
      expect(await audits()).toBe(before + 1)
      // A suspended SuperAdmin does not count, and may be deleted.
      expect(
        (await s.t.call('GET', `Admin/users/${other.id}`, { token: admin.token })).json.lockout,
      ).toBeNull()
    })

    test('deletion erases personal data and ends sessions, keeps the ledger, balances and invoices as they were; audited', async () => {
      // Fran has worked for Clara: a funded, released installment, so a ledger and invoices exist;
      // the invoices were issued with the billing address Fran entered (decision 311).
      const billing = { addressLine1: 'Via Roma 1', postcode: '40121', city: 'Bologna', country: 'Italy' }
      expect(
        (await s.t.call('PUT', 'Payment/invoice-details', { token: free.token, body: billing })).status,
      ).toBe(200)
      const c = await contractFor(s.t.call, s.database, client, free, [60000])
      const i = c.installments[0]
      await fund(s.t.call, client, c.projectId, [i.id])
      expect(
        (
          await s.t.call('POST', `projects/installments/${i.id}/submit`, {
            token: free.token,
            body: { note: 'Done.' },
          })
        ).status,
      ).toBe(200)
      expect(
        (await s.t.call('POST', `projects/installments/${i.id}/approve`, { token: client.token, body: {} }))
          .status,
      ).toBe(200)
      const image = await s.t.upload('freelancers/profile/image', free.token, 'me.png', tinyPng())
      expect(image.status).toBe(200)
      await s.database.db
        .updateTable('app_user')
        .set({ phone_number: '+39 333 123 4567' })
        .where('id', '=', free.id)
        .execute()
      await s.database.db
        .updateTable('freelancer_profile')
        .set({ overview: 'I design foundations on clay soils.', city: 'Bologna' })
        .where('user_id', '=', free.id)
        .execute()
      await s.database.db
        .insertInto('payment_method')
        .values({
          user_id: free.id,
          kind: 'bank',
          holder_name: 'Fran Engineer',
          iban: 'IT60X0542811101000000123456',
          bic: 'BPMOIT22',
          bank_name: 'Banca',
          email: null,
          stripe_account: null,
          is_default: 1,
          status: 'active',
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute()
      const money = async () => ({
        balances: await s.database.db
          .selectFrom('ledger_account')
          .select(['id', 'balance_minor'])
          .orderBy('id')
          .execute(),
        entries: (
          await s.database.db
            .selectFrom('ledger_entry')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
        invoices: await s.database.db.selectFrom('invoice').selectAll().orderBy('id').execute(),
      })
      const before = await money()
      expect(
        before.invoices.some((v) => v.issuer_user_id === free.id && v.issuer_name === 'Fran Engineer'),
      ).toBe(true)
      const invoicesSeen = (await s.t.call('GET', 'Payment/invoices', { token: client.token })).json.data
      expect(
        invoicesSeen.find(
          (v: { kind: string; projectId: number }) => v.kind === 'service' && v.projectId === c.projectId,
        ).issuer.address,
      ).toEqual(['Via Roma 1', '40121 Bologna', 'Italy'])

      const noReason = await s.t.call('POST', `Admin/users/${free.id}/delete`, {
        token: admin.token,
        body: {},
      })
      expect(noReason.status).toBe(400)
      expect(Object.keys(noReason.json.errors)).toEqual(['reason'])
      const deleted = await s.t.call('POST', `Admin/users/${free.id}/delete`, {
        token: admin.token,
        body: { reason: 'Asked to be forgotten (ticket #12)' },
      })
      expect(deleted.status, JSON.stringify(deleted.json)).toBe(200)
      expect(deleted.json).toMatchObject({
        status: 'Deleted',
        name: 'Deleted user',
        email: deletedEmail(free.id),
        phoneNumber: null,
        profilePath: null,
        counts: { contracts: 1 },
      })
      expect(deleted.json.audit[0]).toMatchObject({
        action: 'delete',
        fromState: 'Active',
        toState: 'Deleted',
        reason: 'Asked to be forgotten (ticket #12)',
      })

      const row = await s.database.db
        .selectFrom('app_user')
        .selectAll()
        .where('id', '=', free.id)
        .executeTakeFirstOrThrow()
      expect(row).toMatchObject({
        first_name: '',
        last_name: '',
        email: deletedEmail(free.id),
        password_hash: null,
        phone_number: null,
        image_file_id: null,
        company_name: null,
      })
      expect(
        await s.database.db
          .selectFrom('stored_file')
          .select('id')
          .where('owner_id', '=', free.id)
          .where('purpose', '=', 'profile-image')
          .executeTakeFirst(),
      ).toBeUndefined()
      expect(
        await s.database.db
          .selectFrom('user_session')
          .select('id')
          .where('user_id', '=', free.id)
          .executeTakeFirst(),
      ).toBeUndefined()
      expect(
        await s.database.db
          .selectFrom('freelancer_profile')
          .select(['overview', 'city', 'listed'])
          .where('user_id', '=', free.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ overview: '', city: null, listed: 0 })
      expect(
        await s.database.db
          .selectFrom('payment_method')
          .select(['holder_name', 'iban', 'bic', 'status'])
          .where('user_id', '=', free.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ holder_name: '', iban: null, bic: null, status: 'inactive' })
      expect(
        await s.database.db
          .selectFrom('invoice_details')
          .select('user_id')
          .where('user_id', '=', free.id)
          .execute(),
      ).toEqual([])
      expect((await s.t.call('GET', 'identity/profile', { token: free.token })).status).toBe(401)
      expect(
        (await s.t.call('POST', 'identity/login', { body: { email: free.email, password: PASSWORD } }))
          .status,
      ).not.toBe(200)
      // Nobody finds the old name any more.
      expect((await s.t.call('GET', 'Admin/users?q=fran', { token: admin.token })).json.total).toBe(0)

      // Money records as they were, and the client's invoices read the same (with the address they were issued with).
      expect(await money()).toEqual(before)
      expect((await s.t.call('GET', 'Payment/invoices', { token: client.token })).json.data).toEqual(
        invoicesSeen,
      )
      // Deleting twice, suspending or mailing a deleted account is a conflict.
      expect(
        (
          await s.t.call('POST', `Admin/users/${free.id}/delete`, {
            token: admin.token,
            body: { reason: 'Once more' },
          })
        ).status,
      ).toBe(409)
      expect(
        (await s.t.call('POST', `Admin/users/${free.id}/reset-password`, { token: admin.token, body: {} }))
          .status,
      ).toBe(409)
    })

    test('a reset mail goes to the user, their password still works until they use it; audited', async () => {
      const sent = await s.t.call('POST', `Admin/users/${client.id}/reset-password`, {
        token: admin.token,
        body: { reason: 'Asked by phone' },
      })
      expect(sent.status).toBe(200)
      expect(sent.json.audit[0]).toMatchObject({
        action: 'resetPassword',
        reason: 'Asked by phone',
        fromState: null,
        toState: null,
      })
      const mails = (
        await s.database.db.selectFrom('outbox').select('payload').where('topic', '=', 'email').execute()
      ).map((r) => JSON.parse(r.payload) as { to: string; text: string })
      expect(mails.some((m) => m.to === client.email && m.text.includes('/auth/reset-password?token='))).toBe(
        true,
      )
      expect((await s.t.call('GET', 'identity/profile', { token: client.token })).status).toBe(200)
      expect((await s.t.call('GET', 'Admin/users/999999', { token: admin.token })).status).toBe(404)
    })

    test('Admin/audit lists every admin action newest first, filtered by actor, object type, action and days, with its facets', async () => {
      const all = await s.t.call('GET', 'Admin/audit', { token: admin.token })
      expect(all.status).toBe(200)
      expect(all.json.total).toBe(all.json.data.length)
      const at = all.json.data.map((a: { id: number }) => a.id)
      expect(at).toEqual([...at].sort((x: number, y: number) => y - x))
      expect(all.json.facets.objectTypes).toEqual(['user'])
      expect(all.json.facets.actions).toEqual(['delete', 'resetPassword', 'suspend', 'unsuspend'])
      expect(all.json.facets.actors.map((a: { id: number }) => a.id)).toContain(admin.id)
      const suspends = await s.t.call(
        'GET',
        `Admin/audit?action=suspend&objectType=user&actorId=${admin.id}`,
        { token: admin.token },
      )
      expect(suspends.json.data.map((a: { objectId: number }) => a.objectId)).toContain(company.id)
      expect(
        suspends.json.data.every(
          (a: { action: string; actor: { id: number } }) => a.action === 'suspend' && a.actor.id === admin.id,
        ),
      ).toBe(true)
      const today = new Date().toISOString().slice(0, 10)
      expect(
        (await s.t.call('GET', `Admin/audit?from=${today}&to=${today}`, { token: admin.token })).json.total,
      ).toBe(all.json.total)
      expect((await s.t.call('GET', 'Admin/audit?to=2000-01-01', { token: admin.token })).json.total).toBe(0)
      // An empty GET-form field means any.
      expect(
        (await s.t.call('GET', 'Admin/audit?action=&from=&actorId=', { token: admin.token })).json.total,
      ).toBe(all.json.total)
      const bad = await s.t.call('GET', 'Admin/audit?from=2026-13-45&to=yesterday', { token: admin.token })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual(['from', 'to'])
      const backwards = await s.t.call('GET', 'Admin/audit?from=2026-02-02&to=2026-01-01', {
        token: admin.token,
      })
      expect(Object.keys(backwards.json.errors)).toEqual(['to'])
    })
  })
}
