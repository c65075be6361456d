import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { projectWithProposal, useProjects } from '../../../tests/support/modules/projects.ts'

// Web Push on both databases (issue 42 item 6, decision 337): a notice of a kind the reader turned
// push on for reaches a push service (this test's, on loopback) encrypted for their browser's keys,
// and decrypts there to its title and the page it opens; a 410 forgets the subscription; another
// person's subscription cannot be removed; push off sends nothing.

/** Decrypts one aes128gcm Web Push message (RFC 8188 and 8291) with the browser's key pair and auth secret. */
function decrypt(body: Buffer, browser: ReturnType<typeof createECDH>, auth: Buffer) {
  const hmac = (key: Buffer, ...data: Buffer[]) =>
    createHmac('sha256', key).update(Buffer.concat(data)).digest()
  const salt = body.subarray(0, 16)
  const idLength = body[20]!
  const serverKey = body.subarray(21, 21 + idLength)
  const sealed = body.subarray(21 + idLength)
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), browser.getPublicKey(), serverKey])
  const ikm = hmac(hmac(auth, browser.computeSecret(serverKey)), info, Buffer.from([1]))
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12)
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(sealed.subarray(-16))
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()])
  const end = plain.lastIndexOf(2)
  return JSON.parse(plain.subarray(0, end).toString('utf8'))
}

interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

for (const dialect of portableDialects) {
  describe(`Web Push on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, other: U
    const received: Received[] = []
    const answers = new Map<string, number>()
    const service = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
        res.writeHead(answers.get(req.url ?? '') ?? 201).end()
      })
    })
    let base = ''
    const browser = createECDH('prime256v1')
    browser.generateKeys()
    const auth = randomBytes(16)
    const keys = { p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }

    beforeAll(async () => {
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'One')
      other = await s.t.user('client', 'Otto', 'Other')
    }, 60_000)
    afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())))

    const subscribe = (u: U, endpoint: string, k: unknown = keys) =>
      s.t.call('POST', 'notifications/push-subscriptions', {
        token: u.token,
        body: { endpoint, keys: k },
        headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36' },
      })
    const pushFor = (u: U, push: boolean) =>
      s.t.call('PUT', 'notifications/preferences', {
        token: u.token,
        body: { preferences: [{ kind: 'proposals', site: true, email: true, push }] },
      })
    const devices = (u: U) =>
      s.database.db.selectFrom('push_subscription').selectAll().where('user_id', '=', u.id).execute()

    /** A new open project of the client's and a proposal of the freelancer's for it, every notice delivered. */
    async function proposal(title: string) {
      const { projectId } = await projectWithProposal(s.t, s.database, client, free, title)
      await s.t.api.jobs.outbox.drain()
      await s.t.api.jobs.outbox.drain()
      return projectId
    }

    test('a notice is pushed encrypted for the browser, signed with the site key, and decrypts to its title and page', async () => {
      const key = await s.t.call('GET', 'notifications/push-key')
      expect(key.status).toBe(200)
      expect(key.json.publicKey).toMatch(/^[\w-]{87}$/)
      const made = await subscribe(client, `${base}/push/clara`)
      expect(made.status, made.text).toBe(200)
      expect(made.json.label).toBe('Chrome on Android')
      // Push is off until the person turns it on: nothing is sent.
      await proposal('Roof calculations, unpushed')
      expect(received).toHaveLength(0)

      expect((await pushFor(client, true)).json.preferences[0]).toEqual({
        ...{ kind: 'proposals', site: true, email: true, push: true },
      })
      const projectId = await proposal('Roof calculations, pushed')
      expect(received).toHaveLength(1)
      const [message] = received
      expect(message!.path).toBe('/push/clara')
      expect(message!.headers['content-encoding']).toBe('aes128gcm')
      expect(message!.headers.authorization).toContain(`k=${key.json.publicKey}`)
      const bell = await s.t.call('GET', 'notifications', { token: client.token })
      const shown = decrypt(message!.body, browser, auth)
      expect(shown).toMatchObject({
        title: bell.json.data[0].title,
        url: `/projects/client/details/${projectId}`,
      })
      expect(shown.title).toBeTruthy()

      // Turned off again: nothing more is sent.
      await pushFor(client, false)
      await proposal('Roof calculations, off again')
      expect(received).toHaveLength(1)
    })

    test('a push service that answers 410 has forgotten the subscription: it is deleted', async () => {
      await subscribe(client, `${base}/push/gone`)
      answers.set('/push/gone', 410)
      await pushFor(client, true)
      const before = received.length
      await proposal('Roof calculations, device gone')
      expect(
        received
          .slice(before)
          .map((r) => r.path)
          .sort(),
      ).toEqual(['/push/clara', '/push/gone'])
      expect((await devices(client)).map((d) => d.endpoint)).toEqual([`${base}/push/clara`])
      await pushFor(client, false)
    })

    test("another person's subscription is not theirs to remove; bad input names its field and changes nothing", async () => {
      const endpoint = `${base}/push/clara`
      const removal = (u: U) =>
        s.t.call('DELETE', 'notifications/push-subscriptions', { token: u.token, body: { endpoint } })
      expect((await removal(other)).status).toBe(404)
      expect(await devices(client)).toHaveLength(1)
      for (const [body, field] of [
        [{ endpoint: 'https://10.0.0.7/push', keys }, 'endpoint'],
        [{ endpoint: 'https://localhost/push', keys }, 'endpoint'],
        [{ endpoint: 'ftp://push.example/x', keys }, 'endpoint'],
        [{ endpoint: 'https://push.example/x', keys: { ...keys, p256dh: 'short' } }, 'keys.p256dh'],
        [{ endpoint: 'https://push.example/x', keys: { ...keys, auth: '' } }, 'keys.auth'],
      ] as const) {
        const bad = await s.t.call('POST', 'notifications/push-subscriptions', { token: other.token, body })
        expect(bad.status, bad.text).toBe(400)
        expect(bad.json.errors).toHaveProperty([field])
      }
      expect(await devices(other)).toHaveLength(0)
      expect(
        (await s.t.call('POST', 'notifications/push-subscriptions', { body: { endpoint, keys } })).status,
      ).toBe(401)
      // The same browser turned on by another person becomes theirs: the first stops getting pushes there.
      expect((await subscribe(other, endpoint)).status).toBe(200)
      expect(await devices(client)).toHaveLength(0)
      expect(await devices(other)).toHaveLength(1)
      expect((await removal(client)).status).toBe(404)
      expect((await removal(other)).status).toBe(200)
      expect(await devices(other)).toHaveLength(0)
    })

    test('a device signed out of gets nothing more, and is forgotten', async () => {
      const lea = await s.t.user('client', 'Lea', 'Leaver')
      await subscribe(lea, `${base}/push/lea`)
      await pushFor(lea, true)
      const notice = (n: number) =>
        s.t.api.services.notifications.record(s.database.db, [
          {
            ...{ userId: lea.id, source: `test:lea:${n}`, type: 'Proposal' as const },
            ...{ messageKey: 'projects:notify.proposalReceivedFrom', params: { title: 'Roof' } },
          },
        ])
      await notice(1)
      await s.t.api.jobs.outbox.drain()
      expect(received.filter((r) => r.path === '/push/lea')).toHaveLength(1)
      expect((await s.t.call('POST', 'identity/logout', { token: lea.token })).status).toBe(200)
      await notice(2)
      await s.t.api.jobs.outbox.drain()
      expect(received.filter((r) => r.path === '/push/lea')).toHaveLength(1)
      expect(await devices(lea)).toHaveLength(0)
    })
  })
}
