import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi, type Api } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { portableDialects, useTestDatabase } from '../../../tests/integration/databases.ts'
import { linkIn, startSmtpServer, type ReceivedMail } from '../../../tests/support/smtp.ts'
import { sha256 } from '../identity/tokens.ts'

// Newsletter double opt-in (issue 14, item 8) on both databases, with mail delivered to a real SMTP
// server: asking subscribes nobody; the mailed link does, once; the answer never tells the states apart.
const PUBLIC_URL = 'https://workneer.example'

describe.each(portableDialects)('newsletter double opt-in on %s', (dialect) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-newsletter-'))
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const s = useTestDatabase(dialect)
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let api: Api
  let ipCounter = 0

  beforeAll(async () => {
    smtp = await startSmtpServer()
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      DATA_DIR: dataDir,
    })
    api = createApi({ database: s.database, log: createLogger('silent'), config })
    // Mails go out as the server sends them: the outbox worker, started, wakes on each commit.
    api.jobs.outbox.start()
  })
  afterAll(async () => {
    await api?.jobs.close()
    await smtp?.close()
  })

  async function post(apiPath: string, init: { ip?: string; language?: string } = {}) {
    const headers = new Headers({ 'accept-language': init.language ?? 'en' })
    const response = await api.handler(
      new Request(`http://127.0.0.1/api/v1/${apiPath}`, { method: 'POST', headers }),
      { ip: init.ip ?? `10.8.0.${++ipCounter % 250}` },
    )
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) }
  }
  const subscribe = (address: string, init?: { ip?: string; language?: string }) =>
    post(`subscribe/${encodeURIComponent(address)}`, init)
  const subscriber = (email: string) =>
    s.database.db
      .selectFrom('newsletter_subscriber')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst()
  const mailTo = (email: string, match: (m: ReceivedMail) => boolean, since = 0) =>
    smtp.waitFor(email, match, 15_000, since)
  const confirmLink = async (email: string, since = 0) =>
    linkIn(await mailTo(email, (m) => m.text.includes('/newsletter/confirm/'), since), '/newsletter/confirm/')
  const tokenOf = (link: string) => new URL(link).pathname.split('/').pop()!

  it('subscribes nobody until the owner confirms the mailed link, in their language; the link works once', async () => {
    const email = `reader@${dialect}.example`
    const asked = await subscribe('Reader@' + `${dialect}.example`, { language: 'de' })
    expect(asked.status).toBe(200)
    expect(asked.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(asked.text).toBe('Subscribed Successfully!')
    expect(await subscriber(email)).toBeUndefined()

    const mail = await mailTo(email, (m) => m.text.includes('/newsletter/confirm/'))
    expect(mail.subject).toBe('Bestätigen Sie Ihr Abonnement des Workneer-Newsletters')
    const link = linkIn(mail, '/newsletter/confirm/')
    expect(link.startsWith(`${PUBLIC_URL}/newsletter/confirm/`)).toBe(true)
    // Hashed at rest: the table holds the token's SHA-256, never the token.
    const token = tokenOf(link)
    const rows = await s.database.db
      .selectFrom('newsletter_confirmation')
      .selectAll()
      .where('email', '=', email)
      .execute()
    expect(rows.map((r) => r.token_hash)).toEqual([sha256(token)])
    expect(JSON.stringify(rows)).not.toContain(token)

    const confirmed = await post(`subscribe/confirm/${token}`)
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.text).toBe('Subscription Confirmed.')
    expect(await subscriber(email)).toMatchObject({ language: 'de', unsubscribed_at: null })
    const welcome = await mailTo(email, (m) => m.text.includes('/newsletter/unsubscribe/'))
    expect(welcome.subject).toBe('Sie haben den Workneer-Newsletter abonniert')
    expect(linkIn(welcome, '/newsletter/unsubscribe/')).toBe(
      `${PUBLIC_URL}/newsletter/unsubscribe/${(await subscriber(email))!.token}`,
    )

    // Single use, and nothing else passes either.
    for (const bad of [token, 'x'.repeat(43), token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')]) {
      const again = await post(`subscribe/confirm/${bad}`)
      expect(again.status, bad).toBe(400)
      expect(again.json().errors).toEqual({ token: ['is invalid or expired'] })
    }
    expect((await post('subscribe/confirm/short')).status).toBe(400)
  })

  it('refuses an expired link, and a link that an earlier confirmation or an unsubscription voided', async () => {
    const late = `late@${dialect}.example`
    await subscribe(late)
    const lateToken = tokenOf(await confirmLink(late))
    await s.database.db
      .updateTable('newsletter_confirmation')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', late)
      .execute()
    expect((await post(`subscribe/confirm/${lateToken}`)).status).toBe(400)
    expect(await subscriber(late)).toBeUndefined()

    // Two requests, two links: the first confirmation voids the second.
    const twice = `twice@${dialect}.example`
    await subscribe(twice)
    const first = tokenOf(await confirmLink(twice))
    const since = smtp.mails.length
    await subscribe(twice)
    const second = tokenOf(await confirmLink(twice, since))
    expect(second).not.toBe(first)
    expect((await post(`subscribe/confirm/${second}`)).status).toBe(200)
    expect((await post(`subscribe/confirm/${first}`)).status).toBe(400)

    // Leaving, then a link asked for before leaving: it cannot bring the address back.
    const leaver = `leaver@${dialect}.example`
    await subscribe(leaver)
    const joined = tokenOf(await confirmLink(leaver))
    await s.database.db
      .insertInto('newsletter_confirmation')
      .values({
        email: leaver,
        language: 'en',
        token_hash: sha256('a-link-still-in-the-inbox-000'),
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        used_at: null,
      })
      .execute()
    expect((await post(`subscribe/confirm/${joined}`)).status).toBe(200)
    await s.database.db
      .insertInto('newsletter_confirmation')
      .values({
        email: leaver,
        language: 'en',
        token_hash: sha256('another-link-in-the-inbox-111'),
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        used_at: null,
      })
      .execute()
    expect((await post(`subscribe/unsubscribe/${(await subscriber(leaver))!.token}`)).text).toBe(
      'Unsubscribed Successfully.',
    )
    expect((await post('subscribe/confirm/a-link-still-in-the-inbox-000')).status).toBe(400)
    expect((await post('subscribe/confirm/another-link-in-the-inbox-111')).status).toBe(400)
    expect((await subscriber(leaver))!.unsubscribed_at).toBeTruthy()
  })

  it('answers byte for byte the same for a new, pending, subscribed, unsubscribed and over-limit address', async () => {
    const [fresh, pending, subscribed, unsubscribed, busy] = [
      'fresh',
      'pending',
      'subscribed',
      'unsubscribed',
      'busy',
    ].map((n) => `${n}.same@${dialect}.example`)
    await subscribe(pending)
    for (const email of [subscribed, unsubscribed]) {
      await subscribe(email)
      expect((await post(`subscribe/confirm/${tokenOf(await confirmLink(email))}`)).status).toBe(200)
    }
    expect((await post(`subscribe/unsubscribe/${(await subscriber(unsubscribed))!.token}`)).status).toBe(200)
    for (let i = 0; i < 3; i++) await subscribe(busy) // the address's mails for the day
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes(busy)).length, { timeout: 15_000 }).toBe(3)

    const since = smtp.mails.length
    const answers = []
    for (const email of [fresh, pending, subscribed, unsubscribed, busy]) {
      const r = await subscribe(email, { ip: '10.8.9.9' })
      const headers = [...r.headers].filter(([name]) => !['x-request-id', 'date'].includes(name))
      answers.push({ status: r.status, headers, body: r.text })
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0])
    expect(answers[0]).toMatchObject({ status: 200, body: 'Subscribed Successfully!' })

    // What each owner gets: a link for the new, pending and unsubscribed; a harmless note for the
    // subscribed one; nothing more for the address past its daily mails. Nobody new is subscribed.
    for (const email of [fresh, pending, unsubscribed]) await confirmLink(email, since)
    const note = await mailTo(subscribed, () => true, since)
    expect(note.subject).toBe('You are already subscribed to the Workneer newsletter')
    expect(note.text).not.toContain('/newsletter/confirm/')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.mails.slice(since).filter((m) => m.to.includes(busy))).toEqual([])
    expect(await subscriber(fresh)).toBeUndefined()
    expect(await subscriber(pending)).toBeUndefined()
    expect((await subscriber(unsubscribed))!.unsubscribed_at).toBeTruthy()

    // Limited per client address as before: past it, 429 with Retry-After, whatever the address.
    const statuses = []
    for (let i = 0; i < 16; i++)
      statuses.push((await subscribe(`many${i}@${dialect}.example`, { ip: '10.8.9.9' })).status)
    expect(statuses).toEqual([...Array(15).fill(200), 429])
    const limited = await subscribe(subscribed, { ip: '10.8.9.9' })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
