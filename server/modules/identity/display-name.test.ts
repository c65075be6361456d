import { beforeAll, describe, expect, test } from 'vitest'
import { migrateToLatest } from '#server/db/database.ts'
import { migrations } from '#server/db/migrations/index.ts'
import { createTestDatabase, dialects } from '../../../tests/integration/databases.ts'
import { contractFor, usePayments } from '../../../tests/support/modules/payments.ts'
import { asReader, deletedName, displayName, personName, supportName } from './display-name.ts'

// One display name (decision 271): a company's name when it has one, else first and last name; a
// deleted account's and support's name in the reader's language. Then the screens' data, on both
// databases: the other party of a deleted account sees it so in their language on the contract,
// the project, the chat and the complaint subjects; a company is named alike everywhere; support
// answers in the reader's language; accounts deleted before this change read the same.

const deleted = {
  en: 'Deleted user',
  es: 'Usuario eliminado',
  de: 'Gelöschtes Konto',
  it: 'Utente eliminato',
  ru: 'Удалённый пользователь',
}
const person = { first_name: 'Fran', last_name: 'Engineer', company_name: null, status: 'Active' }

describe('displayName', () => {
  test('a person by first and last name, a company by its name, the person behind it where asked', () => {
    expect(displayName(person)).toBe('Fran Engineer')
    expect(displayName({ ...person, company_name: 'Engineer Studio' })).toBe('Engineer Studio')
    expect(displayName({ ...person, company_name: '  ' })).toBe('Fran Engineer')
    expect(personName({ ...person, company_name: 'Engineer Studio' })).toBe('Fran Engineer')
  })

  test('a deleted account in the reader’s language, whatever its rows still hold', () => {
    for (const [locale, words] of Object.entries(deleted)) {
      for (const u of [
        { ...person, status: 'Deleted' },
        { first_name: '', last_name: '', company_name: null, status: 'Deleted' },
      ]) {
        expect(asReader(locale as 'en', () => displayName(u))).toBe(words)
        expect(displayName(u, locale as 'en')).toBe(words)
      }
    }
    // Outside an API call (an outbox job), English unless told.
    expect(displayName({ ...person, status: 'Deleted' })).toBe('Deleted user')
    // The language told beats the reader's.
    expect(asReader('ru', () => deletedName('it'))).toBe('Utente eliminato')
    expect(asReader('de', () => supportName())).toBe('Workneer-Support')
  })
})

const languages = (lang: string) => ({ headers: { 'accept-language': lang } })

for (const dialect of dialects) {
  describe(`names shown on ${dialect}`, () => {
    // A client (Clara Client) and a freelancer (Fran Engineer), who works for her and is then deleted.
    const s = usePayments(dialect)
    let company: typeof s.client, other: typeof s.client, admin: typeof s.client
    let work: Awaited<ReturnType<typeof contractFor>>
    /** Tickets the client filed about the contract and about the freelancer before the erasure. */
    const tickets: number[] = []

    beforeAll(async () => {
      const { t, database, client, freelancer } = s
      company = await t.user('company', 'Cora', 'Builders')
      other = await t.user('freelancer', 'Otto', 'Planner')
      admin = await t.admin('Sam', 'Support')
      work = await contractFor(t.call, database, client, freelancer)
      await contractFor(t.call, database, company, other)
      for (const subject of [`contract:${work.contractId}`, `user:${freelancer.id}`]) {
        const filed = await t.call('POST', 'complaints', {
          token: client.token,
          body: {
            subject,
            title: 'Late drawings',
            description: 'The drawings of the first stage came two weeks late.',
          },
        })
        if (filed.status !== 200) throw new Error(filed.text)
        tickets.push(filed.json.id)
      }
      const erased = await t.call('POST', `Admin/users/${freelancer.id}/delete`, {
        token: admin.token,
        body: { reason: 'Asked to be forgotten' },
      })
      if (erased.status !== 200) throw new Error(erased.text)
    }, 60_000)

    test('erasure stores no words, only blanks', async () => {
      expect(
        await s.database.db
          .selectFrom('app_user')
          .select(['first_name', 'last_name', 'status'])
          .where('id', '=', s.freelancer.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ first_name: '', last_name: '', status: 'Deleted' })
    })

    test('the client of a deleted freelancer sees "Deleted user" in their language on the contract, the project and the chat', async () => {
      for (const [lang, words] of Object.entries(deleted)) {
        const contracts = await s.t.call('GET', 'projects/freelancer/contracts', {
          token: s.client.token,
          ...languages(lang),
        })
        expect(
          contracts.json.data.find((c: { id: number }) => c.id === work.contractId).freelancer.name,
          lang,
        ).toBe(words)
        const project = await s.t.call('GET', `projects/${work.projectId}/details-for-client`, {
          token: s.client.token,
          ...languages(lang),
        })
        expect(project.json.contract.freelancer.name, lang).toBe(words)
        expect(
          project.json.proposals.map((p: { freelancer: { name: string } }) => p.freelancer.name),
          lang,
        ).toEqual([words])
        const rooms = await s.t.call('GET', 'chat/rooms/1', { token: s.client.token, ...languages(lang) })
        expect(
          rooms.json.data.map((r: { other: { name: string } }) => r.other.name),
          lang,
        ).toEqual([words])
      }
      // ?lang= names the language as for every other worded answer.
      expect(
        (await s.t.call('GET', 'chat/rooms/1?lang=de', { token: s.client.token, ...languages('es') })).json
          .data[0].other.name,
      ).toBe(deleted.de)
      expect(
        (
          await s.t.call('GET', 'complaints/subjects', { token: s.client.token, ...languages('de') })
        ).json.data.find((s: { kind: string }) => s.kind === 'user').label,
      ).toBe(deleted.de)
    })

    test('a ticket filed before the erasure names the person as deleted, and its row holds no name', async () => {
      const { title } = await s.database.db
        .selectFrom('project')
        .select('title')
        .where('id', '=', work.projectId)
        .executeTakeFirstOrThrow()
      for (const [lang, words] of Object.entries(deleted)) {
        const labels = await Promise.all(
          tickets.map(
            async (id) =>
              (await s.t.call('GET', `complaints/${id}`, { token: s.client.token, ...languages(lang) })).json
                .subject.label,
          ),
        )
        expect(labels, lang).toEqual([`${title} (${words})`, words])
      }
      const stored = await s.database.db
        .selectFrom('complaint')
        .select('subject_label')
        .where('id', 'in', tickets)
        .orderBy('id')
        .execute()
      expect(stored.map((r) => r.subject_label)).toEqual([title, ''])
    })

    test('a company is named by its company name on every screen of the other party', async () => {
      const byName = 'Builders Engineering'
      const contract = (await s.t.call('GET', 'projects/freelancer/contracts', { token: other.token })).json
        .data[0]
      expect(contract.client.name).toBe(byName)
      expect((await s.t.call('GET', 'chat/rooms/1', { token: other.token })).json.data[0].other.name).toBe(
        byName,
      )
      const subjects = (await s.t.call('GET', 'complaints/subjects', { token: other.token })).json
        .data as Array<{ kind: string; label: string }>
      expect(subjects.find((s) => s.kind === 'user')!.label).toBe(byName)
      expect(subjects.find((s) => s.kind === 'contract')!.label).toContain(`(${byName})`)
    })

    test('support answers under its name in the reader’s language; support itself sees the agent', async () => {
      const filed = await s.t.call('POST', 'complaints', {
        token: s.client.token,
        body: {
          subject: 'platform',
          title: 'Invoice question',
          description: 'Which invoice covers the first stage of my contract?',
        },
      })
      expect(filed.status, filed.text).toBe(200)
      expect(
        (
          await s.t.call('POST', `Admin/complaints/${filed.json.id}/reply`, {
            token: admin.token,
            body: { body: 'The first one of this month.' },
          })
        ).status,
      ).toBe(200)
      const support = {
        en: 'Workneer support',
        es: 'Soporte de Workneer',
        de: 'Workneer-Support',
        it: 'Supporto Workneer',
        ru: 'Поддержка Workneer',
      }
      for (const [lang, words] of Object.entries(support)) {
        const seen = await s.t.call('GET', `complaints/${filed.json.id}`, {
          token: s.client.token,
          ...languages(lang),
        })
        expect(
          seen.json.messages.map((m: { authorName: string }) => m.authorName),
          lang,
        ).toEqual(['Clara Client', words])
      }
      expect(
        (
          await s.t.call('GET', `Admin/complaints/${filed.json.id}`, {
            token: admin.token,
            ...languages('de'),
          })
        ).json.messages[1].authorName,
      ).toBe('Sam Support')
    })

    test('an account deleted before this change (its rows holding the English words) reads the same after the upgrade', async () => {
      const oldDb = await createTestDatabase(dialect)
      const old = await oldDb.open({ migrate: false, seed: false })
      try {
        const names = Object.keys(migrations)
        await migrateToLatest(
          old,
          Object.fromEntries(
            names.slice(0, names.indexOf('0035-deleted-names')).map((n) => [n, migrations[n]]),
          ),
        )
        const now = new Date().toISOString()
        const row = (email: string, first: string, last: string, status: string) => ({
          email,
          email_verified: 0,
          password_hash: null,
          first_name: first,
          last_name: last,
          company_name: null,
          phone_number: null,
          language: 'en',
          account_type: 'freelancer',
          status,
          image_file_id: null,
          provider: 'local',
          terms_accepted_at: now,
          created_at: now,
          updated_at: now,
        })
        const gone = await old.db
          .insertInto('app_user')
          .values(row('deleted-1@deleted.invalid', 'Deleted', 'user', 'Deleted') as never)
          .returning('id')
          .executeTakeFirstOrThrow()
        // A living person who happens to be called so keeps the name.
        const alive = await old.db
          .insertInto('app_user')
          .values(row('deleted.user@example.test', 'Deleted', 'user', 'Active') as never)
          .returning('id')
          .executeTakeFirstOrThrow()
        await old.db
          .insertInto('payment_method')
          .values({
            user_id: gone.id,
            kind: 'bank',
            holder_name: 'Deleted user',
            iban: null,
            bic: null,
            bank_name: null,
            email: null,
            stripe_account: null,
            is_default: 0,
            status: 'inactive',
            created_at: now,
            updated_at: now,
          } as never)
          .execute()
        // Tickets filed before stored the other party's name in their subject's label.
        const ticket = (subject_kind: string, subject_label: string) => ({
          author_id: alive.id,
          email: 'deleted.user@example.test',
          name: 'Deleted user',
          language: 'en',
          source: 'app',
          contact_message_id: null,
          subject_kind,
          subject_id: 999,
          subject_label,
          other_party_id: gone.id,
          title: 'Old ticket',
          status: 'open',
          assignee_id: null,
          created_at: now,
          updated_at: now,
        })
        await old.db
          .insertInto('complaint')
          .values([ticket('user', 'Fran Engineer'), ticket('project', 'Barn conversion')] as never)
          .execute()
        await migrateToLatest(old)
        expect(
          (await old.db.selectFrom('complaint').select('subject_label').orderBy('id').execute()).map(
            (r) => r.subject_label,
          ),
        ).toEqual(['', 'Barn conversion'])
        const users = await old.db
          .selectFrom('app_user')
          .select(['id', 'first_name', 'last_name', 'company_name', 'status'])
          .where('id', 'in', [gone.id, alive.id])
          .orderBy('id')
          .execute()
        expect(users.map((u) => [u.first_name, u.last_name])).toEqual([
          ['', ''],
          ['Deleted', 'user'],
        ])
        expect(users.map((u) => displayName(u, 'es'))).toEqual([deleted.es, 'Deleted user'])
        expect(
          (
            await old.db
              .selectFrom('payment_method')
              .select('holder_name')
              .where('user_id', '=', gone.id)
              .executeTakeFirstOrThrow()
          ).holder_name,
        ).toBe('')
      } finally {
        await old.close()
        await oldDb.drop()
      }
    })
  })
}
