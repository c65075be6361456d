import { expect, test } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'

// The installable site and push (issue 42 item 6, decision 337), with JavaScript on PostgreSQL:
// the manifest is linked and valid with its icons, /sw.js takes the whole site and shows the
// offline page when the network is gone, and the settings page offers push per kind and on this
// device. Headless Chromium denies notifications unless granted and cannot reach a real push
// service, so subscribing is proven by the Vitest suite (a push service on loopback), not here.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
test.use({ serviceWorkers: 'allow', permissions: ['notifications'] })
const shell = useShellServer()

test('the manifest is linked and valid, and the service worker serves the offline page @needs-js', async ({
  page,
  context,
}) => {
  const base = shell().base
  await page.goto(`${base}/`)
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  const manifest = await (await page.request.get(new URL(href!, base).href)).json()
  expect(manifest).toMatchObject({
    name: 'Workneer',
    short_name: 'Workneer',
    start_url: '/',
    theme_color: '#0f4c81',
  })
  expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color)
  const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>
  expect(icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
    expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
  )
  for (const icon of icons.filter((i) => i.type === 'image/png')) {
    const answer = await page.request.get(`${base}${icon.src}`)
    expect(answer.headers()['content-type'], icon.src).toBe('image/png')
    const [width, height] = icon.sizes.split('x').map(Number)
    const png = await answer.body()
    expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.src).toEqual([width, height])
  }
  // `ready` never settles when no worker activates; after 30 s the registration's state says why.
  const scope = await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker.ready.then((ready) => ready.scope),
      new Promise<string>((resolve) =>
        setTimeout(async () => {
          const r = await navigator.serviceWorker.getRegistration()
          const state = r ? { installing: !!r.installing, waiting: !!r.waiting, active: !!r.active } : 'none'
          resolve(`no worker ready after 30 s; registration: ${JSON.stringify(state)}`)
        }, 30_000),
      ),
    ]),
  )
  expect(scope).toBe(`${base}/`)
  await page.reload()
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
  await context.setOffline(true)
  await page.goto(`${base}/faq`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Workneer')
  await expect(page.getByText('You are offline.')).toBeVisible()
  await context.setOffline(false)
})

test('the settings page offers push for each kind and on this device @needs-js', async ({ page }) => {
  const base = shell().base
  await page.goto(`${base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(accounts.client.email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/auth/login')
  // What a browser without JavaScript gets: the server's page says push needs it.
  const html = await (await page.request.get(`${base}/notifications/settings`)).text()
  expect(html).toContain('Push notifications need JavaScript')
  await page.goto(`${base}/notifications/settings`)
  const device = page.getByTestId('push-device')
  await expect(device.getByRole('heading', { level: 2 })).toHaveText('Push notifications on this device')
  // Once the page runs, the note says what this browser can do (the headless shell denies
  // notifications whatever is granted; a full Chromium with the grant offers the switch).
  const state = device.getByRole('status')
  await expect(state).toHaveText(
    /^(This browser blocks notifications|Push notifications are off on this device)/,
  )
  if ((await state.textContent())?.startsWith('Push notifications are off'))
    await expect(device.getByRole('button', { name: 'Turn on push on this device' })).toBeVisible()
  const box = page.getByRole('checkbox', { name: 'Job alerts: as push notifications' })
  await expect(box).not.toBeChecked()
  await expectNoAxeViolations(page)
  await box.check()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page).toHaveURL(`${base}/notifications/settings?saved=1`)
  await expect(box).toBeChecked()
})
