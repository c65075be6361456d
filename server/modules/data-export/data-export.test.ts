import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, useModuleApi } from '../../../tests/integration/module-api.ts'
import { contractFor } from '../../../tests/support/modules/payments.ts'
import { sweepDataExports } from './build.ts'

// A person's export of their data (issue 42 item 2, decision 331), on both databases: one request
// at a time (409) and one a day (429); the job builds a ZIP of JSON, CSV and their own files with
// everything planted in their name and nothing planted in the other party's; the mailed link opens
// it for its owner only (404 to anyone else) until it expires, and the sweep then removes it.
const HOUR = 3_600_000

for (const dialect of dialects) {
  describe(`a person's data export on ${dialect}`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `workneer-export-${dialect}-`))
    const s = useModuleApi(dialect, {
      name: `export-${dialect}`,
      addressBlock: 71,
      dataDir,
      freelancerTitle: 'Structural engineer',
      env: { PUBLIC_URL: 'http://workneer.test' },
    })
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const people = {} as Record<'fran' | 'clara', { id: number; token: string; email: string }>
    const exportOf = (userId: number) =>
      s.database.db
        .selectFrom('data_export')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    const ask = (token: string) => s.t.call('POST', 'identity/data-export', { token })
    const state = (token: string) => s.t.call('GET', 'identity/data-export', { token })
    const download = (token: string, linkToken?: string) =>
      s.t.raw('GET', `identity/data-export/download${linkToken ? `?token=${linkToken}` : ''}`, { token })
    const mailedToken = async (to: string) => {
      const mails = await s.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', 'email')
        .orderBy('id')
        .execute()
      const mail = mails
        .map((m) => JSON.parse(m.payload))
        .findLast((m) => m.to === to && m.kind === 'dataExportReady')
      return { mail, token: /[?&]token=([\w-]+)/.exec(mail?.text ?? '')?.[1] }
    }

    // Fran (a freelancer) and Clara (her client) share a contract and its chat; each plants markers.
    beforeAll(async () => {
      people.fran = await s.t.user('freelancer', 'Fran', 'Exporter')
      people.clara = await s.t.user('client', 'Clara', 'Other')
      for (const [who, u] of Object.entries(people))
        await s.database.db
          .updateTable('app_user')
          .set({ phone_number: `MARK-${who}-PHONE` })
          .where('id', '=', u.id)
          .execute()
      const { projectId, contractId } = await contractFor(
        s.t.call,
        s.database,
        people.clara,
        people.fran,
        [40000],
      )
      const room = await s.database.db
        .selectFrom('chat_room')
        .select('id')
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
      for (const [who, u] of Object.entries(people)) {
        const sent = await s.t.call('POST', `chat/${room.id}`, {
          token: u.token,
          body: { clientMessageId: `export-${who}`, text: `Hello MARK-${who}-CHAT` },
        })
        expect(sent.status, sent.text).toBe(200)
      }
      for (const [who, u] of Object.entries(people)) {
        const complaint = await s.t.call('POST', 'complaints', {
          token: u.token,
          body: { subject: `contract:${contractId}`, title: 'Late', description: `MARK-${who}-COMPLAINT` },
        })
        expect(complaint.status, complaint.text).toBe(200)
      }
      // Push in one browser each: the export names the service's host and the label, never the keys.
      for (const [who, u] of Object.entries(people)) {
        const session = await s.database.db
          .selectFrom('user_session')
          .select('id')
          .where('user_id', '=', u.id)
          .executeTakeFirstOrThrow()
        await s.database.db
          .insertInto('push_subscription')
          .values({
            user_id: u.id,
            session_id: session.id,
            endpoint: `https://push-${who}.example.net/send/MARK-${who}-ENDPOINT`,
            p256dh: `MARK-${who}-P256DH`,
            auth: `MARK-${who}-AUTH`,
            label: `MARK-${who}-DEVICE`,
            created_at: new Date().toISOString(),
          })
          .execute()
      }
      const letter = await s.t.call('PUT', 'notifications/preferences', {
        token: people.fran.token,
        body: { preferences: [{ kind: 'newsletter', site: false, email: true }] },
      })
      expect(letter.status, letter.text).toBe(200)
      const sheet = await s.t.upload(
        'freelancers/profile/rate-sheet',
        people.fran.token,
        'rates.csv',
        Buffer.from('item;unit;rate\nMARK-fran-FILE;m;1\n'),
      )
      expect(sheet.status).toBe(200)
      const pdf = Buffer.concat([tinyPdf(), Buffer.from('%MARK-clara-FILE\n')])
      const attached = await s.t.upload(
        `projects/${projectId}/uploadProjectFiles`,
        people.clara.token,
        'spec.pdf',
        pdf,
      )
      expect(attached.status).toBe(200)
    }, 60_000)

    test('one request at a time and one a day; the archive holds all of the person and nothing of the other party', async () => {
      const { fran, clara } = people
      expect((await state(fran.token)).json.state).toBe('none')
      const asked = await ask(fran.token)
      expect([asked.status, asked.json.state]).toEqual([200, 'preparing'])
      const again = await ask(fran.token)
      expect([again.status, again.json.code]).toEqual([409, 'export_in_progress'])
      expect((await download(fran.token)).status).toBe(404)

      await s.t.api.jobs.outbox.drain()
      const ready = (await state(fran.token)).json
      expect(ready.state).toBe('ready')
      expect(Date.parse(ready.expiresAt) - Date.parse(ready.readyAt)).toBe(7 * 24 * HOUR)
      const { mail, token } = await mailedToken(fran.email)
      expect(mail.text).toContain('http://workneer.test/profile/account-settings/data-export/download?token=')
      expect(token).toMatch(/^[\w-]{43}$/)
      const row = await exportOf(fran.id)
      expect(row.token_hash).not.toContain(token)

      const got = await download(fran.token, token)
      expect([got.status, got.headers.get('content-type')]).toEqual([200, 'application/zip'])
      const zip = unzipSync(new Uint8Array(await got.arrayBuffer()))
      const names = Object.keys(zip)
      for (const part of [
        'json/account.json',
        'csv/account.csv',
        'json/messages-sent.json',
        'json/contracts.json',
        'json/sign-ins.json',
        'csv/invoices.csv',
      ])
        expect(names).toContain(part)
      expect(names.some((n) => /^files\/\d+-rates\.csv$/.test(n))).toBe(true)
      const everything = Object.values(zip)
        .map((bytes) => Buffer.from(bytes).toString('utf8'))
        .join('\n')
      for (const marker of ['MARK-fran-PHONE', 'MARK-fran-CHAT', 'MARK-fran-FILE', 'MARK-fran-COMPLAINT'])
        expect(everything).toContain(marker)
      expect(JSON.parse(Buffer.from(zip['json/push-devices.json']!).toString())).toEqual([
        { service: 'push-fran.example.net', label: 'MARK-fran-DEVICE', created_at: expect.any(String) },
      ])
      const newsletter = JSON.parse(Buffer.from(zip['json/newsletter.json']!).toString())
      expect(newsletter).toEqual([
        expect.objectContaining({ email: fran.email.toLowerCase(), unsubscribed_at: null }),
      ])
      const { token: letterToken } = await s.database.db
        .selectFrom('newsletter_subscriber')
        .select('token')
        .where('email', '=', fran.email.toLowerCase())
        .executeTakeFirstOrThrow()
      for (const secret of ['MARK-fran-ENDPOINT', 'MARK-fran-P256DH', 'MARK-fran-AUTH', letterToken])
        expect(everything).not.toContain(secret)
      for (const marker of [
        'MARK-clara-PHONE',
        'MARK-clara-CHAT',
        'MARK-clara-FILE',
        'MARK-clara-COMPLAINT',
        clara.email,
      ])
        expect(everything).not.toContain(marker)
      expect(everything).not.toContain('password_hash')
      expect(JSON.parse(Buffer.from(zip['json/account.json']).toString())[0].email).toBe(fran.email)

      // Within a day of the last request: 429 naming when; a day later a new one is taken.
      const soon = await ask(fran.token)
      expect([soon.status, soon.json.code]).toEqual([429, 'export_rate_limited'])
      expect(soon.json.detail).toContain(ready.nextRequestAt)
      expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(23 * 3600)
      expect((await exportOf(fran.id)).status).toBe('ready')
      await s.database.db
        .updateTable('data_export')
        .set({ requested_at: new Date(Date.now() - 25 * HOUR).toISOString() })
        .where('user_id', '=', fran.id)
        .execute()
      expect((await ask(fran.token)).json.state).toBe('preparing')
    })

    test('the link opens nothing for anyone else, nor after it expired; the sweep then removes the archive', async () => {
      const { fran, clara } = people
      expect((await ask(clara.token)).status).toBe(200)
      await s.t.api.jobs.outbox.drain()
      const { token } = await mailedToken(fran.email)
      const { token: claraToken } = await mailedToken(clara.email)
      expect((await download(fran.token, token)).status).toBe(200)
      expect((await download(clara.token, token)).status).toBe(404)
      expect((await download(fran.token, claraToken)).status).toBe(404)
      expect((await s.t.raw('GET', `identity/data-export/download?token=${token}`)).status).toBe(401)
      expect((await download(fran.token, 'not-a-token')).status).toBe(400)

      const row = await exportOf(fran.id)
      const file = path.join(dataDir, 'exports', row.archive_key!)
      expect(fs.existsSync(file)).toBe(true)
      await s.database.db
        .updateTable('data_export')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', row.id)
        .execute()
      expect((await download(fran.token, token)).status).toBe(404)
      expect((await state(fran.token)).json.state).toBe('expired')
      const swept = await sweepDataExports({
        db: s.database.db,
        archives: s.t.api.services.dataExports.archives,
      })
      expect(swept.expired).toBe(1)
      expect(fs.existsSync(file)).toBe(false)
      expect(await exportOf(fran.id)).toMatchObject({
        status: 'expired',
        archive_key: null,
        token_hash: null,
      })
      expect((await download(clara.token, claraToken)).status).toBe(200)
    })

    test('two requests at once: one is taken, the other answers 409; a lost one is given up after a day', async () => {
      const u = await s.t.user('company', 'Cleo', 'Twice')
      const answers = await Promise.all([ask(u.token), ask(u.token)])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const rows = await s.database.db
        .selectFrom('data_export')
        .select('id')
        .where('user_id', '=', u.id)
        .execute()
      expect(rows).toHaveLength(1)

      // A build that never finished (its job lost) is given up after a day, and the person may ask again.
      await s.database.db
        .updateTable('data_export')
        .set({ requested_at: new Date(Date.now() - 25 * HOUR).toISOString() })
        .where('user_id', '=', u.id)
        .execute()
      const swept = await sweepDataExports({
        db: s.database.db,
        archives: s.t.api.services.dataExports.archives,
      })
      expect(swept.failed).toBe(1)
      expect((await state(u.token)).json.state).toBe('failed')
      expect((await ask(u.token)).status).toBe(200)
    })
  })
}
