import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '../../db/database.ts'
import { seedReference } from '../../db/seed.ts'
import { createTestDatabase, dialects, type TestDatabase } from '../../../tests/integration/databases.ts'
import { moduleTestApi, tinyPng } from '../../../tests/integration/module-api.ts'
import { Role } from '../identity/permissions.ts'

// The admin area's content API on both databases (issue 18 item 3, decisions 240–242): refused for
// every other role with nothing changed, bad input naming the field, texts per language (an item
// shows only where it is written), the public order, blog drafts and publishing, uploaded images,
// an audit row per change, and the start's seed leaving the admin's edits alone.
const five = (text: string) => ({ en: `${text} (en)`, es: `${text} (es)`, de: `${text} (de)`, it: `${text} (it)`, ru: `${text} (ru)` })

for (const dialect of dialects) {
  describe(`admin content on ${dialect}`, () => {
    let testDb: TestDatabase
    let database: Db
    let t: ReturnType<typeof moduleTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let admin: U, client: U, company: U, freelancer: U

    beforeAll(async () => {
      testDb = await createTestDatabase(dialect)
      database = await testDb.open()
      t = moduleTestApi(database, { name: 'admin-content', addressBlock: 41 })
      ;[admin, client, company, freelancer] = await Promise.all([t.user('client', 'Sam', 'Support'), t.user('client'), t.user('company'), t.user('freelancer')])
      await database.db.updateTable('user_role').set({ role: Role.SuperAdmin }).where('user_id', '=', admin.id).execute()
    }, 60_000)
    afterAll(async () => {
      await t?.close()
      await database?.close()
      await testDb?.drop()
    })

    const audits = async () => (await database.db.selectFrom('admin_audit').select(['actor_id', 'action', 'object_type', 'object_id', 'from_state', 'to_state']).orderBy('id').execute())
    const publicFaq = async (lang: string) => (await t.call('GET', 'Settings/faq', { headers: { 'accept-language': lang } })).json.data as Array<{ id: number; question: string; answer: string }>

    test('every other role and a visitor are refused, and nothing changes', async () => {
      const faq = await t.call('GET', 'Admin/content/faq', { token: admin.token })
      expect(faq.status).toBe(200)
      const entry = faq.json.data[0]
      const before = await audits()
      const body = { question: five('Changed'), answer: five('Changed answer'), audience: 'all' }
      for (const who of [client, company, freelancer]) {
        expect((await t.call('GET', 'Admin/content/faq', { token: who.token })).status).toBe(403)
        expect((await t.call('PUT', `Admin/content/faq/${entry.id}`, { token: who.token, body })).status).toBe(403)
        expect((await t.call('POST', 'Admin/content/blogs', { token: who.token, body: { title: five('T'), body: five('B'), author: 'X' } })).status).toBe(403)
        expect((await t.call('DELETE', `Admin/content/logos/${entry.id}`, { token: who.token })).status).toBe(403)
        expect((await t.upload('Admin/content/images', who.token, 'a.png', tinyPng())).status).toBe(403)
      }
      expect((await t.call('PUT', `Admin/content/faq/${entry.id}`, { body })).status).toBe(401)
      expect((await t.call('GET', `Admin/content/faq/${entry.id}`, { token: admin.token })).json).toEqual(entry)
      expect(await audits()).toEqual(before)
    })

    test('bad input is a 400 naming the field, and changes nothing', async () => {
      const before = await t.call('GET', 'Admin/content/faq', { token: admin.token })
      const half = await t.call('POST', 'Admin/content/faq', { token: admin.token, body: { question: { en: 'Only a question?' }, answer: {}, audience: 'all' } })
      expect(half.status).toBe(400)
      expect(Object.keys(half.json.errors)).toEqual(['answer.en'])
      const none = await t.call('POST', 'Admin/content/faq', { token: admin.token, body: { question: {}, answer: {}, audience: 'all' } })
      expect(Object.keys(none.json.errors)).toEqual(['question.en'])
      const audience = await t.call('POST', 'Admin/content/faq', { token: admin.token, body: { question: five('Q'), answer: five('A'), audience: 'everyone' } })
      expect(Object.keys(audience.json.errors)).toEqual(['audience'])
      const logo = await t.call('POST', 'Admin/content/logos', { token: admin.token, body: { name: '', imageUrl: 'https://evil.example/x.png', linkUrl: 'javascript:alert(1)' } })
      expect(logo.status).toBe(400)
      expect(Object.keys(logo.json.errors).sort()).toEqual(['imageUrl', 'linkUrl', 'name'])
      const service = await t.call('POST', 'Admin/content/services', { token: admin.token, body: { title: five('S'), body: five('B'), areaSlug: 'astrology' } })
      expect(service.status).toBe(400)
      expect(Object.keys(service.json.errors)).toEqual(['areaSlug'])
      expect((await t.call('GET', 'Admin/content/faq', { token: admin.token })).json).toEqual(before.json)
    })

    test('an FAQ entry is edited per language and moved; the public list shows it at once, only where it is written', async () => {
      const [first, second] = (await t.call('GET', 'Admin/content/faq', { token: admin.token })).json.data
      await publicFaq('de') // fills the content cache, which the edit must clear
      const edited = await t.call('PUT', `Admin/content/faq/${second.id}`, { token: admin.token, body: { question: { en: 'How do I pay? <b>now</b>', de: 'Wie bezahle ich?' }, answer: { en: 'By card.', de: 'Mit Karte.' }, audience: 'all' } })
      expect(edited.status, edited.text).toBe(200)
      expect((await publicFaq('de')).find((f) => f.id === second.id)).toMatchObject({ question: 'Wie bezahle ich?', answer: 'Mit Karte.' })
      // Stored and answered as text: the markup is the admin's words, never HTML.
      expect((await publicFaq('en')).find((f) => f.id === second.id)?.question).toBe('How do I pay? <b>now</b>')
      expect((await publicFaq('ru')).some((f) => f.id === second.id)).toBe(false)

      const moved = await t.call('POST', `Admin/content/faq/${second.id}/move`, { token: admin.token, body: { direction: 'up' } })
      expect(moved.json.data.slice(0, 2).map((f: { id: number }) => f.id)).toEqual([second.id, first.id])
      expect((await publicFaq('en')).slice(0, 2).map((f) => f.id)).toEqual([second.id, first.id])
      expect((await t.call('POST', `Admin/content/faq/${second.id}/move`, { token: admin.token, body: { direction: 'sideways' } })).json.errors).toHaveProperty('direction')

      // A restart's seed keeps the texts in step with the code, but not over the admin's edit.
      await seedReference(database.db)
      expect((await publicFaq('de')).find((f) => f.id === second.id)?.question).toBe('Wie bezahle ich?')
      expect((await publicFaq('en')).slice(0, 2).map((f) => f.id)).toEqual([second.id, first.id])

      const rows = (await audits()).filter((a) => a.object_type === 'faq_entry' && a.object_id === second.id)
      expect(rows.map((a) => [a.actor_id, a.action])).toEqual([[admin.id, 'content.update'], [admin.id, 'content.move-up']])
      expect(rows[1]).toMatchObject({ from_state: '2', to_state: '1' })
    })

    test('a blog post is a draft in two languages, then published; with an uploaded image; then deleted', async () => {
      const bad = await t.upload('Admin/content/images', admin.token, 'notes.txt', Buffer.from('hello'))
      expect(bad.status).toBe(400)
      const image = await t.upload('Admin/content/images', admin.token, 'site.png', tinyPng())
      expect(image.status).toBe(200)
      expect(image.json.url).toBe(`/api/v1/files/${image.json.id}/download`)
      expect((await t.raw('GET', `files/${image.json.id}/download`)).status).toBe(200)

      const created = await t.call('POST', 'Admin/content/blogs', {
        token: admin.token,
        body: { title: { en: 'Timber roofs', it: 'Tetti in legno' }, body: { en: 'First paragraph.\n\nSecond.', it: 'Primo paragrafo.\n\nSecondo.' }, author: 'Sam Support', tags: 'timber, roofs', imageUrl: image.json.url },
      })
      expect(created.status, created.text).toBe(200)
      const id = created.json.id
      expect(created.json).toMatchObject({ published: false, tags: 'timber,roofs', summary: { en: 'First paragraph.', it: 'Primo paragrafo.', de: '' } })
      const listed = async (lang: string) => ((await t.call('GET', 'Settings/blogs?pageSize=50', { headers: { 'accept-language': lang } })).json.data as Array<{ id: number; title: string }>).find((p) => p.id === id)
      expect(await listed('en')).toBeUndefined()
      expect((await t.call('GET', `Settings/blog/${id}`)).status).toBe(404)

      const published = await t.call('POST', `Admin/content/blogs/${id}/publish`, { token: admin.token, body: { published: true } })
      expect(published.json.published).toBe(true)
      expect((await listed('it'))?.title).toBe('Tetti in legno')
      expect((await listed('en'))?.title).toBe('Timber roofs')
      expect(await listed('de')).toBeUndefined()
      expect((await t.call('GET', `Settings/blog/${id}`, { headers: { 'accept-language': 'it' } })).json).toMatchObject({ title: 'Tetti in legno', imageUrl: image.json.url, body: 'Primo paragrafo.\n\nSecondo.' })

      expect((await t.call('DELETE', `Admin/content/blogs/${id}`, { token: admin.token })).json).toEqual({ ok: true })
      expect((await t.call('GET', `Settings/blog/${id}`)).status).toBe(404)
      expect((await t.call('GET', `Admin/content/blogs/${id}`, { token: admin.token })).status).toBe(404)
      const rows = (await audits()).filter((a) => a.object_type === 'blog_post' && a.object_id === id)
      expect(rows.map((a) => [a.action, a.from_state, a.to_state])).toEqual([['content.create', null, 'draft'], ['content.publish', 'draft', 'published'], ['content.delete', null, null]])
    })

    test('logos, home boxes and services: added last, shown on the home page calls, deleted rows stay deleted after the seed', async () => {
      const logo = await t.call('POST', 'Admin/content/logos', { token: admin.token, body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg', linkUrl: 'https://acme.example' } })
      expect(logo.status, logo.text).toBe(200)
      const logos = (await t.call('GET', 'Settings/logos')).json.data
      expect(logos.at(-1)).toEqual({ id: logo.json.id, name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg', linkUrl: 'https://acme.example' })
      expect((await t.call('POST', 'Admin/content/logos', { token: admin.token, body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg' } })).json.errors).toHaveProperty('name')

      const [box] = (await t.call('GET', 'Admin/content/boxes', { token: admin.token })).json.data
      expect((await t.call('DELETE', `Admin/content/boxes/${box.id}`, { token: admin.token })).status).toBe(200)
      await seedReference(database.db)
      expect(((await t.call('GET', 'Settings/home-boxes')).json.data as Array<{ slug: string }>).some((b) => b.slug === box.slug)).toBe(false)

      const service = await t.call('POST', 'Admin/content/services', { token: admin.token, body: { title: { en: 'Bridge inspection', es: 'Inspección de puentes' }, body: { en: 'Yearly checks.', es: 'Revisiones anuales.' }, areaSlug: 'engineering' } })
      expect(service.status, service.text).toBe(200)
      const services = async (lang: string) => (await t.call('GET', 'Settings/services', { headers: { 'accept-language': lang } })).json.data as Array<{ id: number; title: string }>
      expect((await services('es')).at(-1)).toMatchObject({ id: service.json.id, title: 'Inspección de puentes' })
      expect((await services('ru')).some((s) => s.id === service.json.id)).toBe(false)
    })
  })
}
