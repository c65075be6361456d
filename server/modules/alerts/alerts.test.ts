import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { publish, projectBody, settle, structural } from '../../../tests/support/modules/alerts.ts'
import { headerOf, linkIn, startSmtpServer } from '../../../tests/support/smtp.ts'
import { postToPage } from '../../../tests/support/page-action.ts'
import { action as unsubscribeAction } from '../../../app/routes/alerts/unsubscribe.tsx'
import { notificationTarget } from '../notifications/targets.ts'
import { Role } from '../identity/permissions.ts'
import { NOTICE_EVERY_MS } from './notices.ts'
import { waitingMatches } from './waiting.ts'

// Job alerts on both databases (issue 41 item 1): a published project reaches the matching saved
// searches after its commit (in-app, at most once per search an hour), and a daily or weekly
// digest mails the new matches through a real SMTP server, with a link that stops it without
// signing in, once. A new freelancer's first alert follows their profile; clients are told of
// freelancers who newly match their Find Freelancers searches.
const PUBLIC_URL = 'https://workneer.example'
const HOUR = 3_600_000

for (const dialect of dialects) {
  describe(`job alerts on ${dialect}`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    beforeAll(async () => void (smtp = await startSmtpServer()))
    afterAll(async () => smtp?.close())
    const s = useModuleApi(dialect, () => ({
      name: 'job-alerts',
      addressBlock: 42,
      env: { SMTP_URL: smtp.url, PUBLIC_URL },
    }))
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U
    let cat: Awaited<ReturnType<typeof structural>>

    beforeAll(async () => {
      cat = await structural(s.database)
      client = await s.t.user('client', 'Clara', 'Client')
    }, 60_000)

    const save = async (who: U, body: Record<string, unknown>) => {
      const r = await s.t.call('POST', 'SavedSearches', { token: who.token, body })
      expect(r.status, r.text).toBe(200)
      return r.json.id as number
    }
    const notices = (userId: number) =>
      s.database.db
        .selectFrom('notification')
        .select(['message_key', 'params', 'project_id'])
        .where('user_id', '=', userId)
        .where('message_key', 'like', 'alerts:%')
        .orderBy('id')
        .execute()
    // The projects or freelancers waiting for the search's next digest, newest first.
    const matchesOf = async (searchId: number) => {
      const row = await s.database.db
        .selectFrom('saved_search')
        .selectAll()
        .where('id', '=', searchId)
        .executeTakeFirstOrThrow()
      return (await waitingMatches(s.database.db, [row], new Date().toISOString())).get(searchId) ?? []
    }
    const dueNow = (id: number) =>
      s.database.db
        .updateTable('saved_search')
        .set({ digest_due_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', id)
        .execute()

    test('a published project reaches the matching searches after its commit, once an hour per search', async () => {
      const fran = await s.t.user('freelancer', 'Fran', 'Beams')
      const beams = await save(fran, {
        name: 'Beams',
        search: 'steel',
        subcategoryId: cat.sub.id,
        remote: true,
      })
      const elsewhere = await save(fran, { name: 'Elsewhere', subcategoryId: cat.other.id })
      const hourly = await save(fran, { name: 'Hourly', skills: cat.skills, budgetType: 'hourly' })
      const off = await save(fran, { name: 'Off', subcategoryId: cat.sub.id })
      await s.t.call('PUT', `SavedSearches/${off}`, { token: fran.token, body: { active: false } })

      const first = await publish(s.t, client.token, projectBody(cat.sub.id, cat.skills))
      // Decided outside the publishing request: nothing is matched until the outbox delivers.
      expect(await matchesOf(beams)).toEqual([])
      await settle(s.t)
      expect(await matchesOf(beams)).toEqual([first])
      for (const id of [elsewhere, hourly, off]) expect(await matchesOf(id)).toEqual([])
      const told = await notices(fran.id)
      expect(told).toHaveLength(1)
      expect(told[0]).toMatchObject({ message_key: 'alerts:notify.project', project_id: first })
      expect(JSON.parse(told[0].params)).toMatchObject({ search: 'Beams' })
      const bell = await s.t.call('GET', 'notifications', { token: fran.token })
      expect(bell.json.data[0]).toMatchObject({
        title: 'New project for “Beams”',
        content: '“Steel beam calculations for a kitchen extension” matches your saved search.',
        projectId: first,
        type: 'SavedSearch',
      })
      // Read, it opens the project it found (not a contract page: there is none).
      expect(notificationTarget(bell.json.data[0], [Role.Freelancer])).toBe(`/projects/details/${first}`)

      // A second match within the hour is kept for the digest but not notified again.
      const second = await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, cat.skills, { title: 'Steel frame check' }),
      )
      await settle(s.t)
      expect(await matchesOf(beams)).toEqual([second, first])
      expect(await notices(fran.id)).toHaveLength(1)
      // A words mismatch, an on-site project: no match.
      await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, cat.skills, {
          title: 'Timber roof survey',
          description: 'A survey of an old timber roof before its renovation works.',
        }),
      )
      await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, cat.skills, { remote: false, location: 'Madrid' }),
      )
      await settle(s.t)
      expect(await matchesOf(beams)).toHaveLength(2)

      // An hour on, the next match is notified again.
      await s.database.db
        .updateTable('saved_search')
        .set({ notified_at: new Date(Date.now() - NOTICE_EVERY_MS - 1000).toISOString() })
        .where('id', '=', beams)
        .execute()
      const third = await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, cat.skills, { title: 'Steel stair design' }),
      )
      await settle(s.t)
      expect((await notices(fran.id)).map((n) => n.project_id)).toEqual([first, third])
      // Turned back on, a search waits only for what is published from then on.
      await s.t.call('PUT', `SavedSearches/${off}`, { token: fran.token, body: { active: true } })
      expect(await matchesOf(off)).toEqual([])
    })

    test('a person whose searches both match a project is told once, and both count as told for the hour', async () => {
      const olga = await s.t.user('freelancer', 'Olga', 'Twice')
      const steel = await save(olga, { name: 'Steel', search: 'steel' })
      const field = await save(olga, { name: 'My field', subcategoryId: cat.sub.id })
      const project = await publish(s.t, client.token, projectBody(cat.sub.id, cat.skills))
      await settle(s.t)
      const told = await notices(olga.id)
      expect(told.map((n) => [n.project_id, JSON.parse(n.params).search])).toEqual([[project, 'Steel']])
      for (const id of [steel, field]) expect(await matchesOf(id)).toEqual([project])
      const stamps = await s.database.db
        .selectFrom('saved_search')
        .select('notified_at')
        .where('id', 'in', [steel, field])
        .execute()
      expect(stamps.every((r) => r.notified_at !== null)).toBe(true)
    })

    test('the digest mails the new matches once, and its link stops it without signing in, once', async () => {
      const ana = await s.t.user('freelancer', 'Ana', 'Digest')
      const search = await save(ana, { name: 'Calculations', search: 'calculations', frequency: 'daily' })
      const a = await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, [], { title: 'Beam calculations A' }),
      )
      const b = await publish(
        s.t,
        client.token,
        projectBody(cat.sub.id, [], { title: 'Slab calculations B' }),
      )
      await settle(s.t)
      // Not due yet: nothing goes.
      expect(await s.t.api.services.alerts.sendDigests()).toBe(0)
      await dueNow(search)
      const since = smtp.mails.length
      // Two instances at once: one digest.
      const sent = await Promise.all([
        s.t.api.services.alerts.sendDigests(),
        s.t.api.services.alerts.sendDigests(),
      ])
      expect(sent[0] + sent[1]).toBe(1)
      await settle(s.t)
      const mail = await smtp.waitFor(ana.email, (m) => m.subject.includes('Calculations'), 15_000, since)
      expect(mail.subject).toBe('New projects for “Calculations” on Workneer')
      expect(mail.text).toContain('2 new projects match your saved search “Calculations”')
      expect(mail.text).toContain(`${PUBLIC_URL}/projects/details/${a}`)
      expect(mail.text).toContain(`${PUBLIC_URL}/projects/details/${b}`)
      expect(smtp.mails.slice(since).filter((m) => m.to.includes(ana.email))).toHaveLength(1)
      expect(await matchesOf(search)).toEqual([])
      const row = await s.database.db
        .selectFrom('saved_search')
        .selectAll()
        .where('id', '=', search)
        .executeTakeFirstOrThrow()
      expect(Date.parse(row.digest_due_at)).toBeGreaterThan(Date.now() + 23 * HOUR)

      const token = new URL(linkIn(mail, '/alerts/unsubscribe/')).pathname.split('/').pop()!
      const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA')
      const bad = await s.t.call('POST', 'SavedSearches/Unsubscribe', { body: { token: tampered } })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(['token'])
      const other = await s.t.call('POST', 'SavedSearches/Unsubscribe', {
        body: { token: token.replace(/^\d+/, String(search + 1)) },
      })
      expect(other.status).toBe(400)
      expect((await s.t.call('GET', `SavedSearches/${search}`, { token: ana.token })).json.frequency).toBe(
        'daily',
      )

      // The link is the digest's List-Unsubscribe too: a mail client's one-click POST stops it (RFC 8058).
      expect(headerOf(mail, 'List-Unsubscribe')).toBe(`<${linkIn(mail, '/alerts/unsubscribe/')}>`)
      expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
      const oneClick = (t: string) =>
        postToPage(
          { api: s.t.api.handler, publicUrl: PUBLIC_URL },
          unsubscribeAction,
          `/alerts/unsubscribe/${t}`,
          { token: t },
          {
            'List-Unsubscribe': 'One-Click',
          },
        )
      expect((await oneClick(tampered)).status).toBe(400)
      const stop = await oneClick(token)
      expect(stop).toEqual({ status: 200, value: { outcome: 'unsubscribed', name: 'Calculations' } })
      expect((await s.t.call('GET', `SavedSearches/${search}`, { token: ana.token })).json.frequency).toBe(
        'never',
      )
      // Used again after the owner switched the emails back on: spent, nothing changes.
      await s.t.call('PUT', `SavedSearches/${search}`, { token: ana.token, body: { frequency: 'weekly' } })
      const again = await s.t.call('POST', 'SavedSearches/Unsubscribe', { body: { token } })
      expect(again.json).toEqual({ outcome: 'already', name: 'Calculations' })
      expect((await s.t.call('GET', `SavedSearches/${search}`, { token: ana.token })).json.frequency).toBe(
        'weekly',
      )
    })

    test("a new freelancer starts with one alert that follows their profile's category and skills until they edit it", async () => {
      const email = `new-freelancer-${dialect}@job-alerts.test`
      const signUp = await s.t.call('POST', 'identity/register', {
        body: {
          accountType: 'freelancer',
          firstName: 'Nina',
          lastName: 'New',
          email,
          password: 'a long enough password 42',
          acceptTerms: true,
        },
      })
      expect(signUp.status, signUp.text).toBe(200)
      await settle(s.t)
      const user = await s.database.db
        .selectFrom('app_user')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
      const alert = await s.database.db
        .selectFrom('saved_search')
        .selectAll()
        .where('owner_id', '=', user.id)
        .execute()
      expect(alert).toHaveLength(1)
      expect(alert[0]).toMatchObject({
        kind: 'project',
        from_profile: 1,
        name: 'Projects in my field',
        active: 1,
      })
      // No category or skill yet: it matches nothing.
      const keys = () =>
        s.database.db
          .selectFrom('saved_search_key')
          .select('key')
          .where('saved_search_id', '=', alert[0].id)
          .execute()
      expect(await keys()).toEqual([])

      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Active', email_verified: 1 })
        .where('id', '=', user.id)
        .execute()
      const login = await s.t.call('POST', 'identity/login', {
        body: { email, password: 'a long enough password 42' },
      })
      const token = login.json.token as string
      const set = await s.t.call('PUT', 'freelancers/profile/categorization', {
        token,
        body: {
          categoryId: cat.sub.category_id,
          subcategoryIds: [cat.sub.id],
          skillIds: cat.skills.slice(0, 2),
        },
      })
      expect(set.status, set.text).toBe(200)
      await settle(s.t)
      const followed = await s.t.call('GET', `SavedSearches/${alert[0].id}`, { token })
      expect(followed.json).toMatchObject({
        fromProfile: true,
        filters: { categoryId: cat.sub.category_id, skills: cat.skills.slice(0, 2) },
      })
      expect((await keys()).map((k) => k.key)).toEqual([`c${cat.sub.category_id}`])

      // Edited by its owner, it keeps their filters; turned off, it matches nothing.
      const edited = await s.t.call('PUT', `SavedSearches/${alert[0].id}`, {
        token,
        body: { filters: { skills: [cat.skills[2]] }, active: false },
      })
      expect(edited.json).toMatchObject({
        fromProfile: false,
        active: false,
        filters: { skills: [cat.skills[2]] },
      })
      await s.t.call('PUT', 'freelancers/profile/categorization', {
        token,
        body: { categoryId: cat.other.category_id, subcategoryIds: [cat.other.id], skillIds: [] },
      })
      await settle(s.t)
      expect((await s.t.call('GET', `SavedSearches/${alert[0].id}`, { token })).json.filters).toEqual({
        skills: [cat.skills[2]],
      })
    })

    test('a client is told of a freelancer who newly matches a Find Freelancers search, once, and gets the digest', async () => {
      const carl = await s.t.user('client', 'Carl', 'Hirer')
      const search = await save(carl, {
        name: 'Structural engineers',
        kind: 'freelancer',
        categoryId: cat.sub.category_id,
        frequency: 'weekly',
      })
      const fred = await s.t.user('freelancer', 'Fred', 'Found')
      await s.t.call('PUT', 'freelancers/profile/title', {
        token: fred.token,
        body: { title: 'Bridge engineer' },
      })
      await s.t.call('PUT', 'freelancers/profile/categorization', {
        token: fred.token,
        body: { categoryId: cat.sub.category_id, subcategoryIds: [cat.sub.id], skillIds: cat.skills },
      })
      await settle(s.t)
      await s.t.call('PUT', 'freelancers/profile/title', {
        token: fred.token,
        body: { title: 'Bridge and tunnel engineer' },
      })
      await settle(s.t)
      expect(await matchesOf(search)).toEqual([fred.id])
      const told = await notices(carl.id)
      expect(told).toHaveLength(1)
      expect(told[0].message_key).toBe('alerts:notify.freelancer')
      expect(notificationTarget({ type: 'SavedSearch', roomId: null, projectId: null }, [Role.Client])).toBe(
        '/alerts',
      )

      await dueNow(search)
      const since = smtp.mails.length
      expect(await s.t.api.services.alerts.sendDigests()).toBe(1)
      await settle(s.t)
      const mail = await smtp.waitFor(carl.email, () => true, 15_000, since)
      expect(mail.subject).toBe('New freelancers for “Structural engineers” on Workneer')
      expect(mail.text).toContain(`${PUBLIC_URL}/profiles/freelancers/${fred.id}`)
    })
  })
}
