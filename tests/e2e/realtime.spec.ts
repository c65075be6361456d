import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { startPrivateServer, type PrivateServer } from './private-server.ts'
import { settle } from './settle'

// Live updates in Chromium: a signed-in user's page loads the SignalR client after hydration, the
// top bar's indicator reaches "connected", and a message the server pushes to that user
// (countNotify) makes the page reload its data. No product feature sends hub messages yet
// (notifications and chat come later), so the message is pushed through the TEST-ONLY route
// POST /_e2e/hubs/send, which exists only because this file starts the server with E2E=1
// (tests/support/e2e-hooks.ts). Without JavaScript the same pages work and show no indicator.
// This file starts its own server (the built app) with a real SMTP server, like identity.spec.ts.
test.describe.configure({ mode: 'serial' })

const root = path.resolve(import.meta.dirname, '../..')
const PASSWORD = 'rebar cages and formwork'
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let server: PrivateServer | undefined
let base = ''
// Two pages on other loopback origins (another port is another origin): one on the hub's
// allow-list, one not. Each serves the official browser bundle of @microsoft/signalr.
let partners: { allowed: string; refused: string; close(): Promise<void> } | undefined

async function startPartnerPages() {
  const bundle = fs.readFileSync(
    path.join(root, 'node_modules/@microsoft/signalr/dist/browser/signalr.min.js'),
  )
  const page = `<!doctype html><html lang="en"><head><title>Partner</title><script src="/signalr.min.js"></script></head><body><main><h1>Partner</h1></main></body></html>`
  const servers = await Promise.all(
    [0, 1].map(async () => {
      const s = http.createServer((req, res) => {
        if (req.url === '/signalr.min.js')
          return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle)
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
      })
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()))
      return s
    }),
  )
  const origin = (s: http.Server) => `http://localhost:${(s.address() as net.AddressInfo).port}`
  return {
    allowed: origin(servers[0]),
    refused: origin(servers[1]),
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(
        () => undefined,
      ),
  }
}

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  smtp = await startSmtpServer()
  const pages = (partners = await startPartnerPages())
  server = await startPrivateServer(testInfo, {
    name: 'realtime',
    env: () => ({ SMTP_URL: smtp.url, E2E: '1', ALLOWED_ORIGINS: pages.allowed }),
  })
  base = server.base
})

test.afterAll(async ({}, testInfo) => {
  await testInfo.attach('server-output', { body: server?.output() ?? '', contentType: 'text/plain' })
  await server?.stop()
  await smtp?.close()
  await partners?.close()
})

async function api(method: string, apiPath: string, body?: unknown) {
  const response = await fetch(`${base}/api/v1/${apiPath}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : undefined }
}

/** A verified account (signed up through the API, confirmed from the real mail); returns its id. */
async function verifiedUser(email: string): Promise<number> {
  const registered = await api('POST', 'identity/register', {
    accountType: 'client',
    firstName: 'Emily',
    lastName: 'Roebling',
    email,
    password: PASSWORD,
    acceptTerms: true,
  })
  expect(registered.status, JSON.stringify(registered.json)).toBe(200)
  const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/verify-email?token='))
  const token = new URL(linkIn(mail, '/auth/verify-email')).searchParams.get('token')!
  expect((await api('GET', `identity/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200)
  const login = await api('POST', 'identity/login', { email, password: PASSWORD })
  expect(login.status).toBe(200)
  return login.json.user.id as number
}

async function logIn(page: Page, email: string) {
  await page.goto(`${base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${base}/dashboard`)
}

async function push(body: Record<string, unknown>) {
  const response = await fetch(`${base}/_e2e/hubs/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(202)
}

const suffix = () => `${test.info().project.name.replace(/\W+/g, '')}.${randomBytes(3).toString('hex')}`
const signalrChunk = (url: string) => /\/assets\/realtime\.client-[\w-]+\.js$/.test(url)

test('visitors never download the SignalR client', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(r.url())))
  await page.goto(`${base}/`)
  await settle(page)
  await page.goto(`${base}/faq`)
  await settle(page)
  expect(scripts.filter(signalrChunk)).toEqual([])
  await expect(page.getByTestId('realtime-indicator')).toHaveCount(0)
})

test(
  'a signed-in page connects, shows the state, and reloads its data when the server pushes countNotify',
  { tag: '@needs-js' },
  async ({ page }) => {
    const email = `live.${suffix()}@example.test`
    const userId = await verifiedUser(email)
    const chunk = page.waitForRequest((r) => signalrChunk(r.url()))
    await logIn(page, email)
    await chunk
    const indicator = page.getByTestId('realtime-indicator')
    await expect(indicator).toHaveAttribute('data-state', 'connected', { timeout: 15_000 })
    await expect(indicator).toHaveAttribute('title', 'Live updates are on')

    // The server pushes to this user (every tab and device): the page revalidates its loaders.
    const revalidation = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('.data'), {
      timeout: 10_000,
    })
    await push({ hub: 'notifications', to: 'user', key: userId, target: 'countNotify', args: [1] })
    await revalidation
    // countChat on the chat hub does the same.
    const again = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('.data'), { timeout: 10_000 })
    await push({ hub: 'chat', to: 'user', key: userId, target: 'countChat', args: [2] })
    await again

    // Logging out ends the connections; the indicator goes with the signed-in top bar.
    await page.goto(`${base}/profile/account-settings`)
    await page.getByTestId('logout').click()
    await page.waitForURL(`${base}/`)
    await expect(indicator).toHaveCount(0)
  },
)

test(
  "a live update waits while an action's reply is on screen, so a form's errors or a confirmation step never vanish under the reader",
  { tag: '@needs-js' },
  async ({ page }) => {
    const email = `reply.${suffix()}@example.test`
    const userId = await verifiedUser(email)
    await logIn(page, email)
    await page.goto(`${base}/profile/account-settings`)
    await expect(page.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', {
      timeout: 15_000,
    })
    const form = page.locator('form#profile')
    await form.getByLabel('First name').fill('')
    await form.getByRole('button', { name: 'Save' }).click()
    const error = form.locator('.field-error').first()
    await expect(error).toBeVisible()

    // A reload now would drop the action's reply (React Router clears it on revalidation).
    const reloads: string[] = []
    page.on('request', (r) => void (new URL(r.url()).pathname.endsWith('.data') && reloads.push(r.url())))
    await push({ hub: 'notifications', to: 'user', key: userId, target: 'countNotify', args: [1] })
    await page.waitForTimeout(1_500)
    expect(reloads).toEqual([])
    await expect(error).toBeVisible()

    // Once the reply is gone (the reader moves on), the update that waited reloads the data: the
    // home page's own load, then the reload that waited.
    await page.getByRole('link', { name: 'Workneer home' }).click()
    await page.waitForURL(`${base}/`)
    await expect.poll(() => reloads.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
  },
)

test(
  'without JavaScript a signed-in user gets the same pages and no indicator',
  { tag: '@no-js' },
  async ({ page }) => {
    const email = `nojs.${suffix()}@example.test`
    await verifiedUser(email)
    await logIn(page, email)
    await expect(page.locator('header[data-topbar="client"]')).toBeVisible()
    await expect(page.getByTestId('realtime-indicator')).toHaveCount(0)
    await page.goto(`${base}/profile/account-settings`)
    await expect(page.getByTestId('account-role')).toBeVisible()
  },
)

test(
  'a page on an allowed origin connects over every transport; a page on another origin is refused',
  { tag: '@needs-js' },
  async ({ page }) => {
    const email = `cors.${suffix()}@example.test`
    const userId = await verifiedUser(email)
    const token = (await api('POST', 'identity/login', { email, password: PASSWORD })).json.token as string
    const hubUrl = `${base}/hubs/notifications`
    const connect = (transport: string) =>
      page.evaluate(
        async ({ hubUrl, token, transport }) => {
          const signalR = (window as unknown as { signalR: any }).signalR
          const connection = new signalR.HubConnectionBuilder()
            .withUrl(hubUrl, {
              accessTokenFactory: () => token,
              transport: signalR.HttpTransportType[transport],
            })
            .configureLogging(signalR.LogLevel.None)
            .build()
          const w = window as unknown as { received: unknown[]; hub: unknown }
          w.received = []
          connection.on('countNotify', (n: unknown) => w.received.push(n))
          await connection.start()
          w.hub = connection
          return connection.connectionId as string
        },
        { hubUrl, token, transport },
      )

    await page.goto(`${partners!.allowed}/`)
    for (const [n, transport] of ['WebSockets', 'ServerSentEvents', 'LongPolling'].entries()) {
      expect(await connect(transport)).toMatch(/^[\w-]{22}$/)
      await push({ hub: 'notifications', to: 'user', key: userId, target: 'countNotify', args: [n] })
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received))
        .toEqual([n])
      await page.evaluate(() => (window as unknown as { hub: { stop(): Promise<void> } }).hub.stop())
    }

    // The refused origin: the preflight gets 403 without CORS headers, so the browser never sends
    // the negotiate and start() fails.
    await page.goto(`${partners!.refused}/`)
    const refused = await connect('WebSockets').then(
      () => 'connected',
      (error: Error) => error.message,
    )
    expect(refused).toContain('Failed to complete negotiation with the server')
    const preflight = (origin: string) =>
      fetch(`${hubUrl}/negotiate?negotiateVersion=1`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,x-requested-with,x-signalr-user-agent',
        },
      })
    const no = await preflight(partners!.refused)
    expect(no.status).toBe(403)
    expect(no.headers.get('access-control-allow-origin')).toBeNull()
    const yes = await preflight(partners!.allowed)
    expect(yes.status).toBe(204)
    expect(yes.headers.get('access-control-allow-origin')).toBe(partners!.allowed)
    expect(yes.headers.get('access-control-allow-credentials')).toBe('true')
  },
)
