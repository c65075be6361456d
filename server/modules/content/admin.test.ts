import { beforeAll, describe, expect, test } from 'vitest'
import { seedReference } from '#server/db/seed.ts'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { tinyPng, useModuleApi } from '../../../tests/integration/module-api.ts'
import { Role } from '../identity/permissions.ts'

// The admin area's content API on both databases (issue 18 item 3, decisions 240–242): refused for
// every other role with nothing changed, bad input naming the field, texts per language (an item
// shows only where it is written), the public order, blog drafts and publishing, uploaded images,
// an audit row per change, and the start's seed leaving the admin's edits alone.
const five = (text: string) => ({
  en: `${text} (en)`,
  es: `${text} (es)`,
  de: `${text} (de)`,
  it: `${text} (it)`,
  ru: `${text} (ru)`,
})

for (const dialect of portableDialects) {
  describe(`admin content on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: 'admin-content', addressBlock: 41 })
    type U = Awaited<ReturnType<typeof s.t.user>>
    let admin: U, client: U, company: U, freelancer: U

    beforeAll(async () => {
      ;[admin, client, company, freelancer] = await Promise.all([
        s.t.user('client', 'Sam', 'Support'),
        s.t.user('client'),
        s.t.user('company'),
        s.t.user('freelancer'),
      ])
      await s.database.db
        .updateTable('user_role')
        .set({ role: Role.SuperAdmin })
        .where('user_id', '=', admin.id)
        .execute()
    }, 60_000)

    const audits = async () =>
      await s.database.db
        .selectFrom('admin_audit')
        .select(['actor_id', 'action', 'object_type', 'object_id', 'from_state', 'to_state'])
        .orderBy('id')
        .execute()
    const publicFaq = async (lang: string) =>
      (await s.t.call('GET', 'Settings/faq', { headers: { 'accept-language': lang } })).json.data as Array<{
        id: number
        question: string
        answer: string
      }>

    test('every other role and a visitor are refused, and nothing changes', async () => {
      const faq = await s.t.call('GET', 'Admin/content/faq', { token: admin.token })
      expect(faq.status).toBe(200)
      const entry = faq.json.data[0]
      const before = await audits()
      const body = { question: five('Changed'), answer: five('Changed answer'), audience: 'all' }
      for (const who of [client, company, freelancer]) {
        expect((await s.t.call('GET', 'Admin/content/faq', { token: who.token })).status).toBe(403)
        expect(
          (await s.t.call('PUT', `Admin/content/faq/${entry.id}`, { token: who.token, body })).status,
        ).toBe(403)
        expect(
          (
            await s.t.call('POST', 'Admin/content/blogs', {
              token: who.token,
              body: { title: five('T'), body: five('B'), author: 'X' },
            })
          ).status,
        ).toBe(403)
        expect(
          (await s.t.call('DELETE', `Admin/content/logos/${entry.id}`, { token: who.token })).status,
        ).toBe(403)
        expect((await s.t.upload('Admin/content/images', who.token, 'a.png', tinyPng())).status).toBe(403)
      }
      expect((await s.t.call('PUT', `Admin/content/faq/${entry.id}`, { body })).status).toBe(401)
      expect((await s.t.call('GET', `Admin/content/faq/${entry.id}`, { token: admin.token })).json).toEqual(
        entry,
      )
      expect(await audits()).toEqual(before)
    })

    test('bad input is a 400 naming the field, and changes nothing', async () => {
      const before = await s.t.call('GET', 'Admin/content/faq', { token: admin.token })
      const half = await s.t.call('POST', 'Admin/content/faq', {
        token: admin.token,
        body: { question: { en: 'Only a question?' }, answer: {}, audience: 'all' },
      })
      expect(half.status).toBe(400)
      expect(Object.keys(half.json.errors)).toEqual(['answer.en'])
      const none = await s.t.call('POST', 'Admin/content/faq', {
        token: admin.token,
        body: { question: {}, answer: {}, audience: 'all' },
      })
      expect(Object.keys(none.json.errors)).toEqual(['question.en'])
      const audience = await s.t.call('POST', 'Admin/content/faq', {
        token: admin.token,
        body: { question: five('Q'), answer: five('A'), audience: 'everyone' },
      })
      expect(Object.keys(audience.json.errors)).toEqual(['audience'])
      const logo = await s.t.call('POST', 'Admin/content/logos', {
        token: admin.token,
        body: { name: '', imageUrl: 'https://evil.example/x.png', linkUrl: 'javascript:alert(1)' },
      })
      expect(logo.status).toBe(400)
      expect(Object.keys(logo.json.errors).sort()).toEqual(['imageUrl', 'linkUrl', 'name'])
      const service = await s.t.call('POST', 'Admin/content/services', {
        token: admin.token,
        body: { title: five('S'), body: five('B'), areaSlug: 'astrology' },
      })
      expect(service.status).toBe(400)
      expect(Object.keys(service.json.errors)).toEqual(['areaSlug'])
      expect((await s.t.call('GET', 'Admin/content/faq', { token: admin.token })).json).toEqual(before.json)
    })

    test('an FAQ entry is edited per language and moved; the public list shows it at once, only where it is written', async () => {
      const [first, second] = (await s.t.call('GET', 'Admin/content/faq', { token: admin.token })).json.data
      await publicFaq('de') // read before the edit, which the next read must show
      const edited = await s.t.call('PUT', `Admin/content/faq/${second.id}`, {
        token: admin.token,
        body: {
          question: { en: 'How do I pay? <b>now</b>', de: 'Wie bezahle ich?' },
          answer: { en: 'By card.', de: 'Mit Karte.' },
          audience: 'all',
        },
      })
      expect(edited.status, edited.text).toBe(200)
      expect((await publicFaq('de')).find((f) => f.id === second.id)).toMatchObject({
        question: 'Wie bezahle ich?',
        answer: 'Mit Karte.',
      })
      // Stored and answered as text: the markup is the admin's words, never HTML.
      expect((await publicFaq('en')).find((f) => f.id === second.id)?.question).toBe(
        'How do I pay? <b>now</b>',
      )
      expect((await publicFaq('ru')).some((f) => f.id === second.id)).toBe(false)

      const moved = await s.t.call('POST', `Admin/content/faq/${second.id}/move`, {
        token: admin.token,
        body: { direction: 'up' },
      })
      expect(moved.json.data.slice(0, 2).map((f: { id: number }) => f.id)).toEqual([second.id, first.id])
      expect((await publicFaq('en')).slice(0, 2).map((f) => f.id)).toEqual([second.id, first.id])
      expect(
        (
          await s.t.call('POST', `Admin/content/faq/${second.id}/move`, {
            token: admin.token,
            body: { direction: 'sideways' },
          })
        ).json.errors,
      ).toHaveProperty('direction')

      // A restart's seed keeps the texts in step with the code, but not over the admin's edit.
      await seedReference(s.database.db)
      expect((await publicFaq('de')).find((f) => f.id === second.id)?.question).toBe('Wie bezahle ich?')
      expect((await publicFaq('en')).slice(0, 2).map((f) => f.id)).toEqual([second.id, first.id])

      const rows = (await audits()).filter((a) => a.object_type === 'faq_entry' && a.object_id === second.id)
      expect(rows.map((a) => [a.actor_id, a.action])).toEqual([
        [admin.id, 'content.update'],
        [admin.id, 'content.move-up'],
      ])
      expect(rows[1]).toMatchObject({ from_state: '2', to_state: '1' })
    })

    test('a blog post is a draft in two languages, then published; with an uploaded image; then deleted', async () => {
      const bad = await s.t.upload('Admin/content/images', admin.token, 'notes.txt', Buffer.from('hello'))
      expect(bad.status).toBe(400)
      const image = await s.t.upload('Admin/content/images', admin.token, 'site.png', tinyPng())
      expect(image.status).toBe(200)
      expect(image.json.url).toBe(`/api/v1/files/${image.json.id}/download`)
      expect((await s.t.raw('GET', `files/${image.json.id}/download`)).status).toBe(200)

      const created = await s.t.call('POST', 'Admin/content/blogs', {
        token: admin.token,
        body: {
          title: { en: 'Timber roofs', it: 'Tetti in legno' },
          body: { en: 'First paragraph.\n\nSecond.', it: 'Primo paragrafo.\n\nSecondo.' },
          author: 'Sam Support',
          tags: 'timber, roofs',
          imageUrl: image.json.url,
        },
      })
      expect(created.status, created.text).toBe(200)
      const id = created.json.id
      expect(created.json).toMatchObject({
        published: false,
        tags: 'timber,roofs',
        summary: { en: 'First paragraph.', it: 'Primo paragrafo.', de: '' },
      })
      const listed = async (lang: string) =>
        (
          (await s.t.call('GET', 'Settings/blogs?pageSize=50', { headers: { 'accept-language': lang } })).json
            .data as Array<{ id: number; title: string }>
        ).find((p) => p.id === id)
      expect(await listed('en')).toBeUndefined()
      expect((await s.t.call('GET', `Settings/blog/${id}`)).status).toBe(404)

      const published = await s.t.call('POST', `Admin/content/blogs/${id}/publish`, {
        token: admin.token,
        body: { published: true },
      })
      expect(published.json.published).toBe(true)
      expect((await listed('it'))?.title).toBe('Tetti in legno')
      expect((await listed('en'))?.title).toBe('Timber roofs')
      expect(await listed('de')).toBeUndefined()
      expect(
        (await s.t.call('GET', `Settings/blog/${id}`, { headers: { 'accept-language': 'it' } })).json,
      ).toMatchObject({
        title: 'Tetti in legno',
        imageUrl: image.json.url,
        body: 'Primo paragrafo.\n\nSecondo.',
      })

      expect((await s.t.call('DELETE', `Admin/content/blogs/${id}`, { token: admin.token })).json).toEqual({
        ok: true,
      })
      expect((await s.t.call('GET', `Settings/blog/${id}`)).status).toBe(404)
      expect((await s.t.call('GET', `Admin/content/blogs/${id}`, { token: admin.token })).status).toBe(404)
      const rows = (await audits()).filter((a) => a.object_type === 'blog_post' && a.object_id === id)
      expect(rows.map((a) => [a.action, a.from_state, a.to_state])).toEqual([
        ['content.create', null, 'draft'],
        ['content.publish', 'draft', 'published'],
        ['content.delete', null, null],
      ])
    })

    test('logos, home boxes and services: added last, shown on the home page calls, deleted rows stay deleted after the seed', async () => {
      const logo = await s.t.call('POST', 'Admin/content/logos', {
        token: admin.token,
        body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg', linkUrl: 'https://acme.example' },
      })
      expect(logo.status, logo.text).toBe(200)
      const logos = (await s.t.call('GET', 'Settings/logos')).json.data
      expect(logos.at(-1)).toEqual({
        id: logo.json.id,
        name: 'Acme Bridges',
        imageUrl: '/images/logos/acme.svg',
        linkUrl: 'https://acme.example',
      })
      expect(
        (
          await s.t.call('POST', 'Admin/content/logos', {
            token: admin.token,
            body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg' },
          })
        ).json.errors,
      ).toHaveProperty('name')

      const [box] = (await s.t.call('GET', 'Admin/content/boxes', { token: admin.token })).json.data
      expect((await s.t.call('DELETE', `Admin/content/boxes/${box.id}`, { token: admin.token })).status).toBe(
        200,
      )
      await seedReference(s.database.db)
      expect(
        ((await s.t.call('GET', 'Settings/home-boxes')).json.data as Array<{ slug: string }>).some(
          (b) => b.slug === box.slug,
        ),
      ).toBe(false)

      const service = await s.t.call('POST', 'Admin/content/services', {
        token: admin.token,
        body: {
          title: { en: 'Bridge inspection', es: 'Inspección de puentes' },
          body: { en: 'Yearly checks.', es: 'Revisiones anuales.' },
          areaSlug: 'engineering',
        },
      })
      expect(service.status, service.text).toBe(200)
      const services = async (lang: string) =>
        (await s.t.call('GET', 'Settings/services', { headers: { 'accept-language': lang } })).json
          .data as Array<{ id: number; title: string }>
      expect((await services('es')).at(-1)).toMatchObject({
        id: service.json.id,
        title: 'Inspección de puentes',
      })
      expect((await services('ru')).some((s) => s.id === service.json.id)).toBe(false)
    })
  })
}
