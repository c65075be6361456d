import { describe, expect, test } from 'vitest'
import { PAGE_ACCOUNT, signedInPageServer } from './page-server.ts'

// Issue 15 through the built server over HTTP, as a browser without JavaScript sends it: every way
// a signed-in client reaches the site lands on the dashboard, not on the marketing home page or on
// sign-up; the home page's calls to action lead to the client's work.
const pages = signedInPageServer()

const get = (path: string, cookie = pages.session) =>
  fetch(`${pages.server.base}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' })
const logIn = (fields: Record<string, string> = {}, query = '') =>
  fetch(`${pages.server.base}/auth/login${query}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: pages.server.base },
    body: new URLSearchParams({ ...PAGE_ACCOUNT, ...fields }),
  })

describe('where a signed-in client lands', { timeout: 60_000 }, () => {
  test('the login form without a page to return to: the dashboard', async () => {
    const r = await logIn()
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toBe('/dashboard')
  })

  test('the login form with a page to return to: that page', async () => {
    const r = await logIn({ redirectTo: '/profile/account-settings' })
    expect(r.headers.get('location')).toBe('/profile/account-settings')
    expect((await logIn({}, '?redirectTo=%2Freviews')).headers.get('location')).toBe('/reviews')
  })

  test.each(['/auth/login', '/auth/gotosign'])('a signed-in visit to %s: the dashboard', async (path) => {
    const r = await get(path)
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toBe('/dashboard')
  })

  test('the dashboard renders for the client, and sends a visitor to log in and back', async () => {
    const page = await get('/dashboard')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<h1>Dashboard</h1>')
    expect(html).toContain('Proposals to decide')
    expect(html).toContain('href="/reviews"')
    const visitor = await get('/dashboard', '')
    expect(visitor.headers.get('location')).toBe('/auth/login?redirectTo=%2Fdashboard')
  })

  test("the home page's calls to action lead to the client's work, not to sign-up", async () => {
    const html = await (await get('/')).text()
    const cta = html.slice(html.indexOf('class="cta-actions"'))
    const actions = cta.slice(0, cta.indexOf('</p>'))
    expect(actions).toContain('href="/projects/create"')
    expect(actions).toContain('href="/freelancers"')
    expect(actions).not.toContain('/auth/gotosign')
    const visitor = await (await get('/', '')).text()
    expect(visitor.slice(visitor.indexOf('class="cta-actions"'))).toContain('href="/auth/gotosign"')
  })
})
