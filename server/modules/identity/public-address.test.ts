import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { startServer, type RunningServer } from '#server/index.ts'
import { linkIn, startSmtpServer } from '../../../tests/support/smtp.ts'
import { freePort } from '../../../tests/support/server-process.ts'

// Item 3 of issue 14: a mailed link takes its host from PUBLIC_URL (or, unset outside production,
// the local address), never from the Host header a request names. The server runs for real
// (without the web app), the forged requests go over a socket, the mails to a real SMTP server.
const root = path.resolve(import.meta.dirname, '../../..')
const GOOD = 'correct horse battery staple'

/** A POST with any Host header (fetch would not let a test choose it). */
function post(port: number, apiPath: string, body: unknown, host: string) {
  const payload = JSON.stringify(body)
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: apiPath,
        headers: {
          host,
          'x-forwarded-host': host,
          'x-forwarded-proto': 'https',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = ''
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject).end(payload)
  })
}

describe.each([
  { name: 'PUBLIC_URL set', publicUrl: 'https://workneer.example' as string | undefined },
  { name: 'PUBLIC_URL unset (the local address)', publicUrl: undefined },
])('mailed links with $name', ({ publicUrl }) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let running: RunningServer
  let expected = ''
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-public-url-'))

  beforeAll(async () => {
    smtp = await startSmtpServer()
    const port = await freePort()
    expected = publicUrl ?? `http://localhost:${port}`
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      SMTP_URL: smtp.url,
    }
    if (publicUrl) env.PUBLIC_URL = publicUrl
    running = await startServer(loadConfig(env), createLogger('silent'), { webApp: false })
  }, 60_000)
  afterAll(async () => {
    await running?.close()
    await smtp?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('puts every link of every mail on the public address, whatever Host the request names', async () => {
    const hosts = ['evil.example', 'evil.example:8443', '127.0.0.1:1', 'localhost.evil.example']
    for (const [i, host] of hosts.entries()) {
      const email = `owner${i}@example.test`
      const since = smtp.mails.length
      const registered = await post(
        running.port,
        '/api/v1/identity/register',
        {
          accountType: 'client',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email,
          password: GOOD,
          acceptTerms: true,
        },
        host,
      )
      expect(registered.status, registered.text).toBe(200)
      const verify = await smtp.waitFor(email, (m) => m.text.includes('/auth/verify-email'), 15_000, since)
      expect(
        linkIn(verify, '/auth/verify-email').startsWith(`${expected}/auth/verify-email?token=`),
        host,
      ).toBe(true)

      const forgot = await post(running.port, '/api/v1/identity/forget-password', { email }, host)
      expect(forgot.status, forgot.text).toBe(200)
      const reset = await smtp.waitFor(email, (m) => m.text.includes('/auth/reset-password'), 15_000, since)
      const link = linkIn(reset, '/auth/reset-password')
      expect(link.startsWith(`${expected}/auth/reset-password?token=`), `${host}: ${link}`).toBe(true)
      // No link in either mail, text or HTML, names the forged host.
      for (const mail of [verify, reset]) expect(`${mail.text}\n${mail.html}`).not.toContain(host)
    }
  })

  it("puts the newsletter's confirmation link on the public address too", async () => {
    const email = 'reader@example.test'
    const answer = await post(
      running.port,
      `/api/v1/subscribe/${encodeURIComponent(email)}`,
      {},
      'evil.example',
    )
    expect(answer.status, answer.text).toBe(200)
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/newsletter/confirm/'))
    expect(linkIn(mail, '/newsletter/confirm/').startsWith(`${expected}/newsletter/confirm/`)).toBe(true)
    expect(`${mail.text}\n${mail.html}`).not.toContain('evil.example')
  })
})

describe('PUBLIC_URL at start', () => {
  const boot = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(root, 'server/boot.js')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        SEED_DEMO: 'false',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-boot-')),
        ...env,
      },
    })

  it('a production server that mails refuses to start without it, with one line naming it', () => {
    const run = boot({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1' })
    expect(run.status).toBe(1)
    const lines = run.stderr.trim().split('\n')
    expect(lines, run.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(/PUBLIC_URL must be set/)
    expect(run.stdout).not.toMatch(/listening/)
  })

  it('defaults to the local address in development and in production without mail; refuses a path or another scheme', () => {
    expect(loadConfig({ NODE_ENV: 'development', PORT: '4100' }).publicUrl).toBe('http://localhost:4100')
    expect(loadConfig({ NODE_ENV: 'production', PORT: '4101' }).publicUrl).toBe('http://localhost:4101')
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        PUBLIC_URL: 'https://workneer.example/',
      }).publicUrl,
    ).toBe('https://workneer.example')
    expect(() => loadConfig({ PUBLIC_URL: 'https://workneer.example/app' })).toThrow(
      /PUBLIC_URL: must be the site's address without a path/,
    )
    expect(() => loadConfig({ PUBLIC_URL: 'javascript://workneer.example' })).toThrow(
      /PUBLIC_URL: must be an http\(s\) URL/,
    )
  })
})
