import { describe, expect, it } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useTestApi } from '../../../tests/integration/api-client.ts'
import { blogPosts, faq, homeBoxes, partnerLogos, services } from '#server/db/seed-data/content.ts'
import { seedReference } from '#server/db/seed.ts'
import { createContentService } from './service.ts'

describe.each(portableDialects)('content API on %s', (dialect) => {
  const t = useTestApi(dialect)

  it("answers the FAQ in the caller's language, paths matched without regard to case", async () => {
    const en = await t.api.get('Settings/faq')
    expect(en.status).toBe(200)
    expect(en.json.data).toHaveLength(faq.length)
    expect(en.json.data[0]).toMatchObject({
      slug: faq[0].slug,
      question: faq[0].question.en,
      answer: faq[0].answer.en,
    })
    const ru = await t.api.get('settings/FAQ', { 'accept-language': 'ru' })
    expect(ru.json.data[0].question).toBe(faq[0].question.ru)
  })

  it('pages the blog newest first and answers one post, 404 for an unknown one', async () => {
    const first = await t.api.get('Settings/blogs?page=1&pageSize=2')
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({
      page: 1,
      pageSize: 2,
      total: blogPosts.length,
      totalPages: Math.ceil(blogPosts.length / 2),
    })
    const newest = [...blogPosts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))[0]
    expect(first.json.data[0].slug).toBe(newest.slug)
    expect(first.json.data[0].body).toBeUndefined()
    const second = await t.api.get('Settings/blogs?page=2&pageSize=2')
    expect(second.json.data[0].id).not.toBe(first.json.data[0].id)
    const one = await t.api.get(`Settings/blog/${first.json.data[0].id}`, { 'accept-language': 'de' })
    expect(one.status).toBe(200)
    expect(one.json.title).toBe(newest.title.de)
    expect(one.json.body).toBe(newest.body.de)
    expect((await t.api.get('Settings/blog/999999')).status).toBe(404)
    const bad = await t.api.get('Settings/blogs?pageSize=500')
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.json.errors)).toEqual(['pageSize'])
  })

  it('answers home boxes, services, logos and the static pages', async () => {
    expect((await t.api.get('Settings/home-boxes')).json.data.map((b: any) => b.slug)).toEqual(
      homeBoxes.map((b) => b.slug),
    )
    expect((await t.api.get('Settings/services')).json.data).toHaveLength(services.length)
    const logos = (await t.api.get('Settings/logos')).json.data
    expect(logos.map((l: any) => l.imageUrl)).toEqual(partnerLogos.map((l) => l.image))
    expect(logos.every((l: any) => l.imageUrl.startsWith('/images/logos/'))).toBe(true)
    for (const slug of ['about-us', 'why-workneer', 'terms']) {
      const page = await t.api.get(`Settings/pages/${slug}`, { 'accept-language': 'it' })
      expect(page.status, slug).toBe(200)
      expect(page.json.body.length, slug).toBeGreaterThan(100)
    }
    expect((await t.api.get('Settings/pages/nope')).status).toBe(400)
  })

  it('reads what everyone sees from the tables, so a write shows on the next read', async () => {
    const content = createContentService({ db: t.database.db, publicUrl: 'http://localhost:3000' })
    const box = (await content.homeBoxes('en'))[0]
    const original = (
      await t.database.db
        .selectFrom('home_box')
        .select('title_en')
        .where('id', '=', box.id)
        .executeTakeFirstOrThrow()
    ).title_en
    try {
      await t.database.db
        .updateTable('home_box')
        .set({ title_en: 'Edited behind the service' })
        .where('id', '=', box.id)
        .execute()
      expect((await content.homeBoxes('en'))[0].title).toBe('Edited behind the service')
      expect((await content.homeBoxes('de'))[0].title).not.toBe('Edited behind the service')
      await expect(content.page('en', 'no-such-page')).rejects.toMatchObject({ status: 404 })
    } finally {
      await t.database.db
        .updateTable('home_box')
        .set({ title_en: original })
        .where('id', '=', box.id)
        .execute()
    }
  })

  it('reseeding keeps one row per item', async () => {
    await seedReference(t.database.db)
    expect((await t.api.get('Settings/faq')).json.data).toHaveLength(faq.length)
    expect((await t.api.get('Settings/blogs')).json.total).toBe(blogPosts.length)
  })

  it('refuses an address that is not text@text.text with a 400 naming it, and stores nothing', async () => {
    for (const bad of ['nope', 'a%40b', '%40b.c', 'a%20b%40c.d']) {
      const r = await t.api.request('POST', `subscribe/${bad}`)
      expect(r.status, bad).toBe(400)
      expect(Object.keys(r.json.errors), bad).toEqual(['address'])
    }
    expect(
      await t.database.db
        .selectFrom('newsletter_subscriber')
        .selectAll()
        .where('email', 'not like', '%example.com')
        .execute(),
    ).toEqual([])
  })

  it('stores a contact message and mails it to the support inbox; bad input names the field', async () => {
    const body = {
      name: 'Ada Client',
      email: 'Ada@Example.com',
      subject: 'Invoice question',
      message: 'Where do I find my invoices for May?',
    }
    const r = await t.api.request('POST', 'support/contact-us', { body })
    expect(r.status).toBe(200)
    const row = await t.database.db
      .selectFrom('contact_message')
      .selectAll()
      .where('id', '=', r.json.id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ name: 'Ada Client', email: 'ada@example.com', subject: 'Invoice question' })
    const mail = await t.database.db
      .selectFrom('outbox')
      .select('payload')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(mail.payload)).toMatchObject({ to: 'support@workneer.local', kind: 'contact-us' })
    const before = (await t.database.db.selectFrom('contact_message').selectAll().execute()).length
    const bad = await t.api.request('POST', 'support/contact-us', {
      body: { ...body, email: 'not-an-email', message: 'short' },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.json.errors).sort()).toEqual(['email', 'message'])
    expect((await t.database.db.selectFrom('contact_message').selectAll().execute()).length).toBe(before)
  })
})
